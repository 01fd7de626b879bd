import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { Save, Timer } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { retencaoQuery, useUpdateRetencao } from './api.ts'
import { RetencaoSchema, type Retencao } from '#shared/schemas/privacidade.ts'
import { UnsavedChangesGuard } from '../../components/unsaved-changes-guard.tsx'

const CAMPOS: { name: keyof Retencao; label: string; hint: string }[] = [
  { name: 'auditoria_dias', label: 'Registros de auditoria', hint: 'Padrão: 1825 dias (5 anos).' },
  { name: 'envios_email_dias', label: 'Histórico de envio de e-mails', hint: 'Padrão: 1825 dias.' },
  { name: 'sessoes_dias', label: 'Sessões encerradas', hint: 'Após expirar. Padrão: 30 dias.' },
  {
    name: 'contas_nao_confirmadas_dias',
    label: 'Contas não confirmadas',
    hint: 'Padrão: 7 dias.',
  },
]

/** How long each kind of record is kept; the daily job removes what is older. */
export function RetencaoCard() {
  const atual = useQuery(retencaoQuery())
  const salvar = useUpdateRetencao()
  const form = useForm<Retencao>({ resolver: zodResolver(RetencaoSchema) })
  const { reset } = form
  // Read-only until the saved values are in the form: what was typed before would be replaced.
  const [carregado, setCarregado] = useState(false)
  useEffect(() => {
    if (!atual.data) return
    reset(atual.data)
    setCarregado(true)
  }, [atual.data, reset])
  const { errors } = form.formState
  const onSubmit = form.handleSubmit(
    (values) =>
      salvar.mutate(values, {
        onSuccess: (saved) => {
          reset(saved)
          notifySuccess('Prazos de retenção salvos!')
        },
        onError: (err) => notifyFailure('Não foi possível salvar os prazos.', err, form.setError),
      }),
    notifyInvalid(),
  )
  return (
    <Card>
      <CardHeader>
        <h2 className="flex items-center gap-2 text-lg leading-none font-semibold">
          <Timer className="size-5 text-primary" aria-hidden="true" />
          Retenção de dados
        </h2>
        <CardDescription>
          Por quantos dias guardar cada registro. Uma rotina diária remove o que passar do prazo.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <UnsavedChangesGuard when={form.formState.isDirty && !salvar.isPending} />
        <form onSubmit={onSubmit} noValidate>
          <fieldset disabled={!carregado} className="grid gap-4 sm:grid-cols-2">
            {CAMPOS.map((c) => (
              <Field
                key={c.name}
                label={`${c.label} (dias)`}
                htmlFor={`retencao-${c.name}`}
                error={errors[c.name]?.message}
                hint={c.hint}
              >
                <Input
                  id={`retencao-${c.name}`}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  aria-invalid={Boolean(errors[c.name])}
                  {...form.register(c.name, { valueAsNumber: true })}
                />
              </Field>
            ))}
            <div className="flex justify-end sm:col-span-2">
              <Button type="submit" disabled={salvar.isPending || atual.isPending}>
                <Save />
                {salvar.isPending ? 'Salvando...' : 'Salvar prazos'}
              </Button>
            </div>
          </fieldset>
        </form>
      </CardContent>
    </Card>
  )
}
