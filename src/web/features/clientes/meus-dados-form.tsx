import { Loader2, MapPin, Save, UserRound } from 'lucide-react'
import type { ReactNode } from 'react'
import { useForm } from 'react-hook-form'
import { UnsavedChangesGuard } from '../../components/unsaved-changes-guard.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx'
import { FormDateField } from '../../components/ui/date-field.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { FormMaskedInput } from '../../components/ui/masked-input.tsx'
import { ApiError } from '../../lib/api.ts'
import { notifyError, notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { resolverTardio } from '../../lib/resolver-tardio.ts'
import { useSaveMeusDados } from './api.ts'
import { contatoEnderecoValues, EnderecoFields, TelefoneField } from './contato-endereco-fields.tsx'
import {
  CNPJ_INVALIDO,
  CPF_INVALIDO,
  DOCUMENTO_INVALIDO,
  formatDocumento,
} from '#shared/documento.ts'
import { CEP_INVALIDO } from '#shared/endereco.ts'
import type { ClienteDados, MeusDados, MeusDadosInput } from '#shared/schemas/clientes.ts'

type FormValues = {
  [K in keyof Required<MeusDadosInput>]: string
}

/** Toast titles for the form's messages (SPEC §8 'CEP inválido'). */
const TITLES: Record<string, string> = {
  [CEP_INVALIDO]: 'CEP inválido',
  [CPF_INVALIDO]: 'Documento inválido',
  [CNPJ_INVALIDO]: 'Documento inválido',
  [DOCUMENTO_INVALIDO]: 'Documento inválido',
}

const resolver = resolverTardio<FormValues, MeusDados>(() =>
  import('#shared/schemas/clientes.ts').then((m) => m.MeusDadosFormSchema as never),
)

function toForm(cliente: ClienteDados | null, email: string): FormValues {
  return {
    nome: cliente?.nome ?? '',
    documento: formatDocumento(cliente?.documento),
    email: cliente?.email ?? email,
    nascimento: cliente?.nascimento ?? '',
    ...contatoEnderecoValues(cliente),
  }
}

/** SPEC §2 Meus Dados: personal information and the address with its CEP lookup. */
export function MeusDadosForm({ cliente, email }: { cliente: ClienteDados | null; email: string }) {
  const salvar = useSaveMeusDados()
  const form = useForm<FormValues, unknown, MeusDados>({
    resolver,
    defaultValues: toForm(cliente, email),
  })
  const { errors } = form.formState

  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        const saved = await salvar.mutateAsync(values)
        form.reset(toForm(saved, email))
        notifySuccess('Dados salvos com sucesso!', 'Suas informações foram atualizadas.')
      } catch (err) {
        const known = err instanceof ApiError && err.status >= 400 && err.status < 500
        notifyError('Erro', known ? err.message : 'Não foi possível salvar seus dados.')
      }
    },
    notifyInvalid('Erro', TITLES),
  )

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-6">
      <UnsavedChangesGuard when={form.formState.isDirty && !form.formState.isSubmitting} />
      <Card>
        <CardHeader>
          <SectionTitle icon={<UserRound className="size-4" />}>Informações Pessoais</SectionTitle>
          <CardDescription>Campos marcados com * são obrigatórios.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Nome completo *"
            htmlFor="dados-nome"
            error={errors.nome?.message}
            className="sm:col-span-2"
          >
            <Input
              id="dados-nome"
              aria-invalid={errors.nome ? true : undefined}
              aria-describedby={errors.nome ? 'dados-nome-erro' : undefined}
              autoComplete="name"
              placeholder="Seu nome ou razão social"
              {...form.register('nome')}
            />
          </Field>
          <Field label="CPF/CNPJ *" htmlFor="dados-documento" error={errors.documento?.message}>
            <FormMaskedInput
              control={form.control}
              name="documento"
              id="dados-documento"
              mask="documento"
              placeholder="000.000.000-00"
              inputMode="text"
              autoComplete="off"
            />
          </Field>
          <Field
            label="Email *"
            htmlFor="dados-email"
            hint="O email vem da sua conta e não pode ser alterado aqui."
          >
            <Input
              id="dados-email"
              type="email"
              readOnly
              aria-readonly
              {...form.register('email')}
            />
          </Field>
          <Field label="Data de nascimento" htmlFor="dados-nascimento">
            <FormDateField
              control={form.control}
              name="nascimento"
              id="dados-nascimento"
              autoComplete="bday"
            />
          </Field>
          <TelefoneField form={form} idPrefix="dados" variant="pagina" />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <SectionTitle icon={<MapPin className="size-4" />}>Endereço</SectionTitle>
          <CardDescription>
            Informe o CEP e clique em buscar para preencher o endereço automaticamente.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <EnderecoFields form={form} idPrefix="dados" variant="pagina" />
        </CardContent>
      </Card>

      <div className="flex justify-end">
        <Button
          type="submit"
          size="lg"
          disabled={form.formState.isSubmitting}
          className="w-full sm:w-auto"
        >
          {form.formState.isSubmitting ? <Loader2 className="animate-spin" /> : <Save />}
          Salvar Dados
        </Button>
      </div>
    </form>
  )
}

function SectionTitle({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <h2 className="flex items-center gap-2 text-base leading-none font-semibold">
      <span className="flex size-7 items-center justify-center rounded-md bg-primary/10 text-primary">
        {icon}
      </span>
      {children}
    </h2>
  )
}
