import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import {
  BellPlus,
  CalendarClock,
  CheckCircle2,
  CircleAlert,
  EyeOff,
  Trash2,
  UserCheck,
} from 'lucide-react'
import { useEffect } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx'
import { FormDateField } from '../../components/ui/date-field.tsx'
import { Label } from '../../components/ui/label.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { Switch } from '../../components/ui/switch.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { notifyError, notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { cn } from '../../lib/utils.ts'
import { avisosQuery, useCreateAviso, useDeleteAviso, useUpdateAviso } from './api.ts'
import { formatDate, formatDateTime } from '#shared/datas.ts'
import {
  AvisoCreateSchema,
  type AvisoAutomatico,
  type AvisoCreate,
} from '#shared/schemas/avisos.ts'
import { UnsavedChangesGuard } from '../../components/unsaved-changes-guard.tsx'

/** SPEC §2 Warnings side card: new warning, resolved switch (green / yellow), delete; newest first. */
export function AvisosCard({ servicoId }: { servicoId: string }) {
  const avisos = useQuery(avisosQuery(servicoId))
  const create = useCreateAviso(servicoId)
  const toggle = useUpdateAviso(servicoId)
  const remove = useDeleteAviso(servicoId)
  const form = useForm<AvisoCreate>({
    resolver: zodResolver(AvisoCreateSchema),
    defaultValues: { texto: '', data_limite: '', visivel_cliente: true },
  })

  useEffect(() => {
    if (avisos.isError) notifyError('Erro', 'Não foi possível carregar os dados.')
  }, [avisos.isError])

  const onSubmit = form.handleSubmit(
    (values) =>
      create.mutate(values, {
        onSuccess: () => {
          form.reset({ texto: '', data_limite: '', visivel_cliente: true })
          notifySuccess('Aviso adicionado!')
        },
        onError: () => notifyError('Erro', 'Não foi possível adicionar o aviso.'),
      }),
    notifyInvalid('Erro'),
  )

  const abertos = avisos.data?.filter((a) => !a.resolvido).length ?? 0

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CircleAlert className="size-5 text-amber-600" />
          Avisos
        </CardTitle>
        <CardDescription>
          {avisos.data
            ? abertos === 0
              ? 'Nenhum aviso pendente.'
              : `${abertos} ${abertos === 1 ? 'aviso pendente' : 'avisos pendentes'}`
            : 'Pendências e prazos deste serviço.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <UnsavedChangesGuard when={form.formState.isDirty && !create.isPending} />
        <form
          onSubmit={onSubmit}
          aria-label="Adicionar aviso"
          className="grid gap-3 rounded-lg border bg-muted/40 p-3"
          noValidate
        >
          <div className="grid gap-1.5">
            <Label htmlFor="aviso-texto">Novo aviso</Label>
            <Textarea
              id="aviso-texto"
              rows={2}
              placeholder="Ex.: Enviar a matrícula atualizada"
              {...form.register('texto')}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="aviso-data">Data limite</Label>
            <FormDateField control={form.control} name="data_limite" id="aviso-data" />
          </div>
          <Controller
            control={form.control}
            name="visivel_cliente"
            render={({ field }) => (
              <label className="flex items-center gap-2 text-sm font-medium">
                <Switch
                  checked={field.value ?? true}
                  onCheckedChange={field.onChange}
                  aria-label="Visível para o cliente"
                />
                Visível para o cliente
              </label>
            )}
          />
          <Button type="submit" disabled={create.isPending}>
            <BellPlus />
            {create.isPending ? 'Adicionando...' : 'Adicionar Aviso'}
          </Button>
        </form>

        {avisos.isPending ? (
          <div className="flex justify-center py-4">
            <Spinner />
          </div>
        ) : (avisos.data ?? []).length === 0 ? (
          <p className="py-2 text-center text-sm text-muted-foreground">Nenhum aviso cadastrado.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Avisos">
            {avisos.data!.map((a) => (
              <li
                key={a.id}
                className={cn(
                  'rounded-lg border p-3 text-sm',
                  a.resolvido ? 'border-green-200 bg-green-50' : 'border-amber-200 bg-amber-50',
                )}
                data-resolvido={a.resolvido}
              >
                <div className="flex items-start gap-2">
                  {a.resolvido ? (
                    <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-green-700" />
                  ) : (
                    <CircleAlert className="mt-0.5 size-4 shrink-0 text-amber-700" />
                  )}
                  <p
                    className={cn(
                      'min-w-0 flex-1 break-words whitespace-pre-wrap',
                      a.resolvido && 'text-muted-foreground line-through',
                    )}
                  >
                    {a.texto}
                  </p>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="-mt-1 -mr-1 size-7 text-destructive hover:text-destructive"
                    aria-label={`Excluir aviso ${a.texto}`}
                    disabled={remove.isPending}
                    onClick={() =>
                      remove.mutate(a.id, {
                        onSuccess: () => notifySuccess('Aviso excluído!'),
                        onError: () => notifyError('Erro', 'Não foi possível excluir o aviso.'),
                      })
                    }
                  >
                    <Trash2 />
                  </Button>
                </div>
                {(!a.visivel_cliente || a.concluido_cliente_em) && (
                  <div className="mt-2 flex flex-wrap gap-1.5 pl-6 text-xs">
                    {!a.visivel_cliente && (
                      <Badge variant="outline" className="gap-1 bg-background">
                        <EyeOff className="size-3" />
                        Interno
                      </Badge>
                    )}
                    {a.concluido_cliente_em && (
                      <Badge
                        variant="outline"
                        className="gap-1 bg-background whitespace-normal text-green-800"
                      >
                        <UserCheck className="size-3" />
                        Concluído pelo cliente em {formatDate(a.concluido_cliente_em)}
                      </Badge>
                    )}
                  </div>
                )}
                {a.automatico && <AvisoAutomaticoInfo info={a.automatico} />}
                <div className="mt-2 grid gap-2 pl-6">
                  <span className="text-xs text-muted-foreground">
                    Prazo: {formatDate(a.data_limite)}
                  </span>
                  <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
                    <label className="flex items-center gap-2 text-xs font-medium">
                      <Switch
                        checked={a.visivel_cliente}
                        aria-label={`Visível para o cliente: ${a.texto}`}
                        onCheckedChange={(v) =>
                          toggle.mutate(
                            { id: a.id, visivel_cliente: v },
                            {
                              onSuccess: () =>
                                notifySuccess(
                                  v ? 'Aviso visível para o cliente!' : 'Aviso agora é interno.',
                                ),
                              onError: () =>
                                notifyError('Erro', 'Não foi possível atualizar o aviso.'),
                            },
                          )
                        }
                      />
                      Visível para o cliente
                    </label>
                    <label className="flex items-center gap-2 text-xs font-medium">
                      <Switch
                        checked={a.resolvido}
                        aria-label={`Resolvido: ${a.texto}`}
                        onCheckedChange={(v) =>
                          toggle.mutate(
                            { id: a.id, resolvido: v },
                            {
                              onError: () =>
                                notifyError('Erro', 'Não foi possível atualizar o aviso.'),
                            },
                          )
                        }
                      />
                      {a.resolvido ? 'Resolvido' : 'Pendente'}
                    </label>
                  </div>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

/** An aviso the warning schedules created: which schedule, and how its e-mail went. */
function AvisoAutomaticoInfo({ info }: { info: AvisoAutomatico }) {
  const tentativas = `${info.tentativas} ${info.tentativas === 1 ? 'tentativa' : 'tentativas'}`
  return (
    <div className="mt-2 grid gap-1 pl-6 text-xs">
      <div className="flex flex-wrap items-center gap-1.5">
        {/* Wraps in the detail's narrow side column (1024 px) rather than widening it. */}
        <Badge variant="outline" className="gap-1 bg-background whitespace-normal">
          <CalendarClock className="size-3 shrink-0" />
          Automático · {info.avisar} {info.avisar === 1 ? 'dia' : 'dias'} antes
        </Badge>
      </div>
      {info.situacao === 'enviado' ? (
        <p className="text-muted-foreground">Email enviado em {formatDateTime(info.enviado_em)}</p>
      ) : (
        <p className="text-destructive">
          Email pendente ({tentativas}){info.ultimo_erro ? `: ${info.ultimo_erro}` : ''}. Nova
          tentativa na próxima verificação.
        </p>
      )}
    </div>
  )
}
