import { Loader2, Search } from 'lucide-react'
import { useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { MaskedInput } from '../../components/ui/masked-input.tsx'
import { ApiError } from '../../lib/api.ts'
import { notifyError, notifySuccess } from '../../lib/notify.ts'
import { lookupCep } from './api.ts'
import { CEP_INVALIDO } from '#shared/endereco.ts'
import type { EnderecoCep } from '#shared/schemas/clientes.ts'

type EnderecoForm = {
  setValue(
    name: 'logradouro' | 'bairro' | 'localidade' | 'uf',
    value: string,
    options: { shouldDirty: boolean },
  ): void
  setFocus(name: 'complemento' | 'logradouro'): void
}

/** Fills a form's address with a CEP's and moves the cursor to what is left to type. */
export function fillEndereco(form: EnderecoForm, endereco: EnderecoCep) {
  for (const key of ['logradouro', 'bairro', 'localidade', 'uf'] as const)
    form.setValue(key, endereco[key], { shouldDirty: true })
  form.setFocus(endereco.logradouro ? 'complemento' : 'logradouro')
}

/**
 * SPEC §7: the CEP input with its lookup (the "Buscar CEP" button, or Enter in the field: Enter
 * never submits the surrounding form). `onFound` receives the address to fill in. Used by
 * `EnderecoFields`, the address of the client dialog and of Meus Dados.
 */
export function CepField({
  id,
  value,
  onValueChange,
  onBlur,
  name,
  onFound,
  invalid,
  describedBy,
}: {
  id: string
  value: string | null | undefined
  onValueChange: (value: string) => void
  onBlur?: () => void
  name?: string
  onFound: (endereco: EnderecoCep) => void
  invalid?: boolean
  describedBy?: string
}) {
  const [buscando, setBuscando] = useState(false)

  async function buscar() {
    const cep = value ?? ''
    const digits = cep.replace(/\D/g, '')
    if (cep.length < 8 || digits.length !== 8) {
      notifyError('CEP inválido', CEP_INVALIDO)
      return
    }
    setBuscando(true)
    try {
      const endereco = await lookupCep(digits)
      onFound(endereco)
      notifySuccess('CEP encontrado!', 'Endereço preenchido automaticamente.')
    } catch (err) {
      if (err instanceof ApiError && err.status === 404)
        notifyError('CEP não encontrado', 'O CEP informado não foi encontrado.')
      else if (err instanceof ApiError && err.status === 400)
        notifyError('CEP inválido', CEP_INVALIDO)
      else notifyError('Erro', 'Não foi possível buscar o CEP.')
    } finally {
      setBuscando(false)
    }
  }

  return (
    <div
      className="flex gap-2"
      onKeyDown={(e) => {
        if (e.key !== 'Enter' || !(e.target instanceof HTMLInputElement)) return
        e.preventDefault()
        void buscar()
      }}
    >
      <MaskedInput
        id={id}
        name={name}
        mask="cep"
        value={value ?? ''}
        onValueChange={onValueChange}
        onBlur={onBlur}
        placeholder="00000-000"
        inputMode="numeric"
        autoComplete="postal-code"
        maxLength={9}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
      />
      <Button
        type="button"
        variant="outline"
        onClick={() => void buscar()}
        disabled={buscando}
        aria-label="Buscar CEP"
      >
        {buscando ? <Loader2 className="animate-spin" /> : <Search />}
        <span className="hidden sm:inline">Buscar CEP</span>
      </Button>
    </div>
  )
}
