import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { Building2, Save } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { UnsavedChangesGuard } from '../../components/unsaved-changes-guard.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { FormMaskedInput } from '../../components/ui/masked-input.tsx'
import { notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { empresaQuery, useUpdateEmpresa } from './api.ts'
import { EmpresaFormSchema, type Empresa } from '#shared/schemas/empresa.ts'

type Schema = typeof EmpresaFormSchema
type Values = z.input<Schema>

const toForm = (e?: Empresa): Values => ({
  nome: e?.nome ?? '',
  email: e?.email ?? '',
  telefone: e?.telefone ?? '',
  whatsapp: e?.whatsapp ?? '',
  endereco: e?.endereco ?? '',
  encarregado_nome: e?.encarregado_nome ?? '',
  encarregado_email: e?.encarregado_email ?? '',
})

/**
 * "Dados da empresa" in the admin profile: the consultancy's name, e-mail, phone and
 * address, printed at the top and bottom of every e-mail the portal sends.
 */
export function EmpresaCard() {
  const empresa = useQuery(empresaQuery())
  const salvar = useUpdateEmpresa()
  const form = useForm<Values, unknown, z.output<Schema>>({
    resolver: zodResolver(EmpresaFormSchema),
    defaultValues: toForm(),
  })
  const { reset } = form
  // Read-only until the saved values are in the form: what was typed before would be replaced.
  const [carregado, setCarregado] = useState(false)
  useEffect(() => {
    if (!empresa.data) return
    reset(toForm(empresa.data))
    setCarregado(true)
  }, [empresa.data, reset])

  const onSubmit = form.handleSubmit(
    (body) =>
      salvar.mutate(body, {
        onSuccess: (data) => {
          reset(toForm(data))
          notifySuccess('Salvo com sucesso!', 'Os dados da empresa foram atualizados.')
        },
        onError: (err) =>
          notifyFailure('Não foi possível salvar os dados da empresa.', err, form.setError),
      }),
    notifyInvalid('Erro'),
  )
  const errors = form.formState.errors
  const aria = (name: keyof Values) => ({
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `empresa-${name}-erro` : undefined,
  })

  return (
    <Card>
      <CardHeader>
        <h2
          id="empresa-titulo"
          className="flex items-center gap-2 text-base leading-none font-semibold"
        >
          <span className="flex size-7 items-center justify-center rounded-md bg-primary/10 text-primary">
            <Building2 className="size-4" />
          </span>
          Dados da empresa
        </h2>
        <CardDescription>
          Nome e contato da consultoria, mostrados em todos os emails enviados pelo portal e no
          “Fale com a consultoria” da área do cliente.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate aria-labelledby="empresa-titulo">
          <UnsavedChangesGuard when={form.formState.isDirty && !salvar.isPending} />
          <fieldset disabled={!carregado} className="grid gap-4 sm:grid-cols-2">
            <Field
              label="Nome da empresa"
              htmlFor="empresa-nome"
              error={errors.nome?.message}
              className="sm:col-span-2"
            >
              <Input id="empresa-nome" {...aria('nome')} {...form.register('nome')} />
            </Field>
            <Field label="E-mail de contato" htmlFor="empresa-email" error={errors.email?.message}>
              <Input
                id="empresa-email"
                type="email"
                autoComplete="email"
                {...aria('email')}
                {...form.register('email')}
              />
            </Field>
            <Field label="Telefone" htmlFor="empresa-telefone" error={errors.telefone?.message}>
              <FormMaskedInput
                control={form.control}
                name="telefone"
                id="empresa-telefone"
                mask="telefone"
                inputMode="tel"
              />
            </Field>
            <Field
              label="WhatsApp"
              htmlFor="empresa-whatsapp"
              error={errors.whatsapp?.message}
              hint="Um celular; o cliente abre a conversa pelo portal e pelos emails."
            >
              <FormMaskedInput
                control={form.control}
                name="whatsapp"
                id="empresa-whatsapp"
                mask="telefone"
                inputMode="tel"
              />
            </Field>
            <Field label="Endereço" htmlFor="empresa-endereco" error={errors.endereco?.message}>
              <Input id="empresa-endereco" {...aria('endereco')} {...form.register('endereco')} />
            </Field>
            <Field
              label="Encarregado de dados (LGPD)"
              htmlFor="empresa-encarregado_nome"
              error={errors.encarregado_nome?.message}
              hint="Publicado na Política de Privacidade."
            >
              <Input
                id="empresa-encarregado_nome"
                {...aria('encarregado_nome')}
                {...form.register('encarregado_nome')}
              />
            </Field>
            <Field
              label="E-mail do encarregado"
              htmlFor="empresa-encarregado_email"
              error={errors.encarregado_email?.message}
            >
              <Input
                id="empresa-encarregado_email"
                type="email"
                {...aria('encarregado_email')}
                {...form.register('encarregado_email')}
              />
            </Field>
            <div className="flex justify-end sm:col-span-2">
              <Button type="submit" disabled={salvar.isPending || empresa.isPending}>
                <Save />
                {salvar.isPending ? 'Salvando...' : 'Salvar dados da empresa'}
              </Button>
            </div>
          </fieldset>
        </form>
      </CardContent>
    </Card>
  )
}
