import { useQuery } from '@tanstack/react-query'
import { ArrowLeft, History, Mail, Save, Send, UserRound } from 'lucide-react'
import { useEffect, useState, type ReactNode } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { Link } from 'react-router'
import { PageHeader } from '../../components/page-header.tsx'
import { UnsavedChangesGuard } from '../../components/unsaved-changes-guard.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button, buttonVariants } from '../../components/ui/button.tsx'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx'
import { FormDateField } from '../../components/ui/date-field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { Label } from '../../components/ui/label.tsx'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../components/ui/select.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { ApiError } from '../../lib/api.ts'
import { notifyError, notifySuccess } from '../../lib/notify.ts'
import { paths } from '../../paths.ts'
import { StatusBadge, DiasRestantesBadge } from './servico-badges.tsx'
import { enviosQuery, filtrosQuery, useSendEmail, useUpdateServico } from './api.ts'
import { EnvioEmailDialog } from './envio-email-dialog.tsx'
import { formatDateTime } from '#shared/datas.ts'
import {
  ENVIO_EMAIL_TITLES,
  EnvioEmailSchema,
  MODELO_NAO_SALVO,
  ServicoUpdateSchema,
  type ServicoDetalhe,
  type ServicoUpdateInput,
} from '#shared/schemas/servicos.ts'

const SEM_STATUS = 'sem-status'

type FormValues = {
  protocolo: string
  status_id: string
  vigencia_inicio: string
  vigencia_fim: string
  detalhes: string
  anotacoes: string
  notificacao: string
  emails_interessados: string
  emails_tecnicos: string
}

// SPEC §5: when the interested list is empty, the client's e-mail is pre-filled.
const toForm = (s: ServicoDetalhe): FormValues => ({
  protocolo: s.protocolo ?? '',
  status_id: s.status_id ?? '',
  vigencia_inicio: s.vigencia_inicio ?? '',
  vigencia_fim: s.vigencia_fim ?? '',
  detalhes: s.detalhes ?? '',
  anotacoes: s.anotacoes ?? '',
  notificacao: s.notificacao ?? '',
  emails_interessados: s.emails_interessados?.trim() ? s.emails_interessados : s.cliente.email,
  emails_tecnicos: s.emails_tecnicos ?? '',
})

/**
 * SPEC §2 Service detail (admin): the service's form, notification e-mail and sendings. The
 * page composes it with the cards of other features: `main` goes below the form, `aside` in the
 * side column above the sendings.
 */
export function ServicoDetail({
  servico,
  main,
  aside,
}: {
  servico: ServicoDetalhe
  main: ReactNode
  aside: ReactNode
}) {
  const filtros = useQuery(filtrosQuery())
  const update = useUpdateServico(servico.id)
  const enviar = useSendEmail(servico.id)
  const form = useForm<FormValues>({ defaultValues: toForm(servico) })
  const [previaAberta, setPreviaAberta] = useState(false)

  // A status changed elsewhere on the screen (the renewal protocol sets 'Em renovação') shows in
  // the form, unless the analyst is changing it: saving must not put the old one back.
  const statusSalvo = servico.status_id ?? ''
  useEffect(() => {
    if (!form.getFieldState('status_id').isDirty)
      form.resetField('status_id', { defaultValue: statusSalvo })
  }, [statusSalvo, form])

  const salvar = form.handleSubmit((values) => {
    const parsed = ServicoUpdateSchema.safeParse(values satisfies ServicoUpdateInput)
    if (!parsed.success)
      return notifyError('Erro', parsed.error.issues[0]?.message ?? 'Verifique os campos.')
    // Only what the analyst changed goes (a PATCH): a value the form pre-filled, such as the
    // client's e-mail in an empty interested list, is not a change until edited and saved.
    const { dirtyFields } = form.formState
    const alterados = Object.fromEntries(
      Object.entries(values).filter(([k]) => dirtyFields[k as keyof FormValues]),
    ) satisfies ServicoUpdateInput
    update.mutate(alterados, {
      onSuccess: (data) => {
        form.reset(toForm(data))
        notifySuccess('Salvo com sucesso!', 'As alterações do serviço foram salvas.')
      },
      onError: () => notifyError('Erro', 'Não foi possível salvar as alterações.'),
    })
  })

  // The saved template goes, after a preview; unsaved changes are saved first.
  const enviarEmail = () => {
    const parsed = EnvioEmailSchema.safeParse(form.getValues())
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? ''
      return notifyError(ENVIO_EMAIL_TITLES[message] ?? 'Erro', message)
    }
    if (form.formState.isDirty)
      return notifyError('Alterações não salvas', `${MODELO_NAO_SALVO} Clique em Salvar.`)
    setPreviaAberta(true)
  }

  const confirmarEnvio = () => {
    const parsed = EnvioEmailSchema.safeParse(form.getValues())
    if (!parsed.success) return setPreviaAberta(false)
    enviar.mutate(parsed.data, {
      onSettled: () => setPreviaAberta(false),
      onSuccess: (r) => {
        if (r.success) {
          notifySuccess(
            'Emails enviados!',
            `${r.sent} ${r.sent === 1 ? 'enviado' : 'enviados'}, ${r.failed} ${r.failed === 1 ? 'falhou' : 'falharam'}.${r.error ? ` ${r.error}` : ''}`,
          )
        } else {
          notifyError('Erro ao enviar email', r.error ?? 'Erro desconhecido')
        }
      },
      onError: (err) => {
        if (err instanceof ApiError && err.status > 0)
          notifyError('Erro ao enviar email', err.message || 'Erro desconhecido')
        else
          notifyError('Erro ao enviar email', 'Não foi possível enviar o email. Tente novamente.')
      },
    })
  }

  return (
    <div>
      <Link
        to={paths.admin.servicos}
        className={buttonVariants({ variant: 'ghost', size: 'sm', className: '-ml-2 mb-2' })}
      >
        <ArrowLeft />
        Voltar
      </Link>
      <PageHeader
        title="Detalhes do Serviço"
        description={
          <>
            {servico.tipo}
            {servico.categoria ? ` · ${servico.categoria}` : ''}
            {servico.protocolo && (
              <>
                {' · '}
                <span className="whitespace-nowrap">{servico.protocolo}</span>
              </>
            )}
          </>
        }
        actions={
          <div className="flex items-center gap-2">
            <StatusBadge nome={servico.status_nome} />
            <DiasRestantesBadge
              vigenciaFim={servico.vigencia_fim}
              statusNome={servico.status_nome}
            />
          </div>
        }
      />

      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-6">
          <form onSubmit={salvar} noValidate>
            <UnsavedChangesGuard when={form.formState.isDirty && !update.isPending} />
            <Card className="gap-5">
              <CardHeader>
                <CardTitle className="flex items-center gap-2">
                  <UserRound className="size-5 text-primary" />
                  {servico.cliente.nome}
                </CardTitle>
                <CardDescription className="break-all">{servico.cliente.email}</CardDescription>
              </CardHeader>
              <CardContent className="grid gap-4">
                <div className="grid gap-4 sm:grid-cols-2">
                  <Field id="protocolo" label="Protocolo">
                    <Input id="protocolo" {...form.register('protocolo')} />
                  </Field>
                  <Field id="status" label="Status">
                    <Controller
                      control={form.control}
                      name="status_id"
                      render={({ field }) => (
                        <Select
                          value={field.value || SEM_STATUS}
                          onValueChange={(v) => field.onChange(v === SEM_STATUS ? '' : v)}
                        >
                          <SelectTrigger id="status" aria-label="Status">
                            <SelectValue placeholder="Sem status" />
                          </SelectTrigger>
                          <SelectContent>
                            <SelectItem value={SEM_STATUS}>Sem status</SelectItem>
                            {filtros.data?.status.map((s) => (
                              <SelectItem key={s.id} value={s.id}>
                                {s.nome}
                              </SelectItem>
                            ))}
                          </SelectContent>
                        </Select>
                      )}
                    />
                  </Field>
                  <Field id="vigencia_inicio" label="Início da Vigência">
                    <FormDateField
                      control={form.control}
                      name="vigencia_inicio"
                      id="vigencia_inicio"
                    />
                  </Field>
                  <Field id="vigencia_fim" label="Fim da Vigência">
                    <FormDateField control={form.control} name="vigencia_fim" id="vigencia_fim" />
                  </Field>
                </div>
                <Field
                  id="detalhes"
                  label="Detalhes"
                  hint="Visível para o cliente como histórico do serviço."
                >
                  <Textarea id="detalhes" rows={4} {...form.register('detalhes')} />
                </Field>
                <Field
                  id="anotacoes"
                  label="Anotações internas"
                  hint="Privadas: nunca são enviadas ao cliente."
                >
                  <Textarea
                    id="anotacoes"
                    rows={3}
                    className="bg-amber-50/60"
                    {...form.register('anotacoes')}
                  />
                </Field>
                <div className="grid gap-4 sm:grid-cols-2">
                  <Field
                    id="emails_interessados"
                    label="Emails Interessados"
                    hint="Separe os endereços por vírgula."
                  >
                    <Input id="emails_interessados" {...form.register('emails_interessados')} />
                  </Field>
                  <Field
                    id="emails_tecnicos"
                    label="Emails Técnicos"
                    hint="Separe os endereços por vírgula."
                  >
                    <Input id="emails_tecnicos" {...form.register('emails_tecnicos')} />
                  </Field>
                </div>
                <Field
                  id="notificacao"
                  label="Template de Notificação"
                  hint="Corpo do email enviado aos destinatários."
                >
                  <Textarea id="notificacao" rows={5} {...form.register('notificacao')} />
                </Field>
                <div className="flex flex-col-reverse gap-2 border-t pt-4 sm:flex-row sm:justify-end">
                  <Button
                    type="button"
                    variant="outline"
                    onClick={enviarEmail}
                    disabled={enviar.isPending}
                  >
                    <Send />
                    {enviar.isPending ? 'Enviando...' : 'Enviar Email'}
                  </Button>
                  <EnvioEmailDialog
                    servicoId={servico.id}
                    open={previaAberta}
                    onOpenChange={setPreviaAberta}
                    onConfirm={confirmarEnvio}
                    pending={enviar.isPending}
                  />
                  <Button type="submit" disabled={update.isPending}>
                    <Save />
                    {update.isPending ? 'Salvando...' : 'Salvar'}
                  </Button>
                </div>
              </CardContent>
            </Card>
          </form>

          {main}
        </div>

        {/* One track no wider than the column: a card's content can never widen the page. */}
        <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] content-start gap-6">
          {aside}
          <EnviosCard servicoId={servico.id} />
        </div>
      </div>
    </div>
  )
}

function Field({
  id,
  label,
  hint,
  children,
}: {
  id: string
  label: string
  hint?: string
  children: React.ReactNode
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
    </div>
  )
}

/** Every notification e-mail sent for the service (each sending is recorded on it). */
function EnviosCard({ servicoId }: { servicoId: string }) {
  const envios = useQuery(enviosQuery(servicoId))
  const rows = envios.data ?? []
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <History className="size-5 text-primary" />
          Emails enviados
        </CardTitle>
        <CardDescription>Histórico de notificações deste serviço.</CardDescription>
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="text-center text-sm text-muted-foreground">Nenhum email enviado.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Emails enviados">
            {rows.map((e) => (
              <li key={e.id} className="rounded-lg border p-3 text-sm">
                <div className="flex items-center justify-between gap-2">
                  <span className="flex items-center gap-1.5 font-medium">
                    <Mail className="size-4 shrink-0 text-muted-foreground" />
                    {formatDateTime(e.created_at)}
                  </span>
                  <Badge
                    variant={
                      e.falhas > 0 ? (e.enviados > 0 ? 'secondary' : 'destructive') : 'default'
                    }
                  >
                    {e.enviados} {e.enviados === 1 ? 'enviado' : 'enviados'}
                    {e.falhas > 0 ? ` · ${e.falhas} ${e.falhas === 1 ? 'falha' : 'falhas'}` : ''}
                  </Badge>
                </div>
                <p className="mt-1 text-xs break-all text-muted-foreground">
                  {e.destinatarios.join(', ')}
                </p>
                {e.origem === 'automatico' && (
                  <p className="mt-1.5 text-xs text-muted-foreground">
                    <Badge variant="outline" className="mr-1.5">
                      Automático
                    </Badge>
                    {e.assunto}
                  </p>
                )}
                {e.erro && <p className="mt-1 text-xs text-destructive">{e.erro}</p>}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
