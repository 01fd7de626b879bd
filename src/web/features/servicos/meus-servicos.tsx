import { useQuery } from '@tanstack/react-query'
import {
  BellRing,
  CalendarClock,
  CalendarDays,
  ClipboardList,
  Eye,
  FileText,
  FileWarning,
  Plus,
  X,
} from 'lucide-react'
import { Fragment, useEffect, useState, type ReactNode } from 'react'
import { Link, useSearchParams } from 'react-router'
import { useIsMobile } from '../../components/app-shell.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent } from '../../components/ui/card.tsx'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../components/ui/table.tsx'
import { notifyError } from '../../lib/notify.ts'
import { paths } from '../../paths.ts'
import { StatusCorBadge as ClienteStatusBadge } from './status-cor-badge.tsx'
import { DiasRestantesBadge } from './servico-badges.tsx'
import { meusServicosQuery, resumoMeusServicosQuery } from './api.ts'
import { formatDate } from '#shared/datas.ts'
import { diasRestantes, isArquivado } from '#shared/dias-restantes.ts'
import type { MeuServico, ResumoMeusServicos } from '#shared/schemas/servicos.ts'

/** Issue 17: the summary's filters of the list (`?filtro=`), the same rules as its SQL counts. */
const FILTROS = {
  documentos: {
    titulo: 'Serviços aguardando documentos',
    aplica: (s: MeuServico) =>
      !isArquivado(s.status) && s.documentos_enviados < s.documentos_exigidos,
  },
  vencendo: {
    titulo: 'Serviços que vencem nos próximos 120 dias',
    aplica: (s: MeuServico) => {
      const dias = diasRestantes(s.vigencia_fim, s.status)
      return !isArquivado(s.status) && dias !== null && dias >= 0 && dias <= 120
    },
  },
  avisos: {
    titulo: 'Serviços com avisos em aberto',
    aplica: (s: MeuServico) => s.avisos_abertos > 0,
  },
} as const
type Filtro = keyof typeof FILTROS

/**
 * SPEC §2 Meus Serviços, the client home: a table on desktop, cards below 768 px. Issue 17: the
 * summary on top, and per service its days left, documents sent and approved, and the open
 * avisos (`avisosDoServico`, a slot the page composing this one fills from the avisos feature).
 */
export function MeusServicosPage({
  avisosDoServico,
}: {
  avisosDoServico?: (servicoId: string) => ReactNode
}) {
  const { data: todos, isPending, isError } = useQuery(meusServicosQuery())
  const isMobile = useIsMobile()
  const [detalhe, setDetalhe] = useState<MeuServico | null>(null)
  const [params, setParams] = useSearchParams()
  const filtroParam = params.get('filtro')
  const filtro = filtroParam && filtroParam in FILTROS ? (filtroParam as Filtro) : null
  const servicos = filtro ? todos?.filter(FILTROS[filtro].aplica) : todos

  useEffect(() => {
    if (isError) notifyError('Erro', 'Não foi possível carregar seus serviços.')
  }, [isError])

  const novo = (
    <Button asChild>
      <Link to={paths.usuario.solicitarServico}>
        <Plus />
        Solicitar Serviço
      </Link>
    </Button>
  )

  return (
    <>
      <PageHeader
        title="Meus Serviços"
        description="Acompanhe seus serviços, a vigência de cada um e os documentos enviados."
        actions={todos && todos.length > 0 ? novo : undefined}
      />
      {todos && todos.length > 0 && <Resumo servicos={todos} />}
      {filtro && (
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 className="font-semibold">{FILTROS[filtro].titulo}</h2>
          <Button variant="ghost" size="sm" onClick={() => setParams({}, { replace: true })}>
            <X />
            Mostrar todos
          </Button>
        </div>
      )}
      {isPending ? (
        <CenteredSpinner label="Carregando serviços..." />
      ) : filtro && servicos?.length === 0 && todos && todos.length > 0 ? (
        <p className="py-8 text-center text-sm text-muted-foreground">
          Nenhum serviço neste filtro.
        </p>
      ) : !servicos || servicos.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 py-10 text-center">
            <span className="flex size-14 items-center justify-center rounded-full bg-primary/10 text-primary">
              <ClipboardList className="size-7" />
            </span>
            <h2 className="text-lg font-semibold">Nenhum serviço encontrado</h2>
            <p className="max-w-sm text-sm text-muted-foreground">
              {isError
                ? 'Não foi possível carregar seus serviços.'
                : 'Você ainda não solicitou nenhum serviço. Comece agora e acompanhe tudo por aqui.'}
            </p>
            <Button asChild className="mt-2">
              <Link to={paths.usuario.solicitarServico}>
                <Plus />
                Solicitar Primeiro Serviço
              </Link>
            </Button>
          </CardContent>
        </Card>
      ) : isMobile ? (
        <ul className="grid gap-3" aria-label="Serviços">
          {servicos.map((s) => (
            <li key={s.id}>
              <Card className="gap-3 py-4">
                <CardContent className="grid gap-3 px-4">
                  <div className="flex items-start justify-between gap-3">
                    <h2 className="font-semibold leading-snug">{s.tipo_servico}</h2>
                    <ClienteStatusBadge nome={s.status} className="max-w-[45%]" />
                  </div>
                  <dl className="grid grid-cols-3 gap-2 text-sm">
                    <div>
                      <dt className="text-xs text-muted-foreground">Vigência Início</dt>
                      <dd className="font-medium">{formatDate(s.vigencia_inicio)}</dd>
                    </div>
                    <div>
                      <dt className="text-xs text-muted-foreground">Vigência Fim</dt>
                      <dd className="font-medium">{formatDate(s.vigencia_fim)}</dd>
                    </div>
                    <div>
                      <dt className="text-xs text-muted-foreground">Dias Restantes</dt>
                      <dd>
                        <DiasRestantesBadge vigenciaFim={s.vigencia_fim} statusNome={s.status} />
                      </dd>
                    </div>
                  </dl>
                  <Documentos servico={s} />
                  {avisosDoServico?.(s.id)}
                  <div className="grid grid-cols-2 gap-2">
                    <Button variant="outline" size="sm" onClick={() => setDetalhe(s)}>
                      <Eye />
                      Detalhes
                    </Button>
                    <Button size="sm" asChild>
                      <Link to={paths.usuario.documentos(s.id)}>
                        <FileText />
                        Documentos
                      </Link>
                    </Button>
                  </div>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      ) : (
        <Card className="py-0">
          <Table>
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead className="pl-6">Tipo de Serviço</TableHead>
                <TableHead>Vigência Início</TableHead>
                <TableHead>Vigência Fim</TableHead>
                <TableHead>Dias Restantes</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Documentos</TableHead>
                <TableHead className="pr-6 text-right">Ações</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {servicos.map((s) => (
                <Fragment key={s.id}>
                  <TableRow className={s.avisos_abertos > 0 ? 'border-b-0' : undefined}>
                    <TableCell className="pl-6 font-medium">{s.tipo_servico}</TableCell>
                    <TableCell>{formatDate(s.vigencia_inicio)}</TableCell>
                    <TableCell>{formatDate(s.vigencia_fim)}</TableCell>
                    <TableCell>
                      <DiasRestantesBadge vigenciaFim={s.vigencia_fim} statusNome={s.status} />
                    </TableCell>
                    <TableCell>
                      <ClienteStatusBadge nome={s.status} />
                    </TableCell>
                    <TableCell>
                      <Documentos servico={s} />
                    </TableCell>
                    <TableCell className="pr-6">
                      <div className="flex justify-end gap-1">
                        <Button
                          variant="ghost"
                          size="icon"
                          onClick={() => setDetalhe(s)}
                          aria-label={`Ver detalhes de ${s.tipo_servico}`}
                          title="Ver detalhes"
                        >
                          <Eye />
                        </Button>
                        <Button
                          variant="ghost"
                          size="icon"
                          asChild
                          aria-label={`Documentos de ${s.tipo_servico}`}
                          title="Documentos"
                        >
                          <Link to={paths.usuario.documentos(s.id)}>
                            <FileText />
                          </Link>
                        </Button>
                      </div>
                    </TableCell>
                  </TableRow>
                  {s.avisos_abertos > 0 && avisosDoServico && (
                    <TableRow className="hover:bg-transparent">
                      <TableCell colSpan={7} className="px-6 pt-0 pb-3 whitespace-normal">
                        {avisosDoServico(s.id)}
                      </TableCell>
                    </TableRow>
                  )}
                </Fragment>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
      <DetalhesDialog servico={detalhe} onClose={() => setDetalhe(null)} />
    </>
  )
}

/**
 * Issue 17: how many of the required documents the client sent ("enviados", in amber while some
 * are missing) and, issue 14, how many the consultancy approved.
 */
function Documentos({ servico }: { servico: MeuServico }) {
  if (servico.documentos_exigidos === 0) return null
  const faltam = servico.documentos_enviados < servico.documentos_exigidos
  const aprovados = servico.documentos_aprovados === servico.documentos_exigidos
  return (
    <div className="grid gap-0.5 text-sm">
      <p className={faltam ? 'font-medium text-amber-800' : 'text-muted-foreground'}>
        {servico.documentos_enviados} de {servico.documentos_exigidos} documentos enviados
      </p>
      <p className={aprovados ? 'font-medium text-green-700' : 'text-muted-foreground'}>
        {servico.documentos_aprovados} de {servico.documentos_exigidos} documentos aprovados
      </p>
    </div>
  )
}

const plural = (n: number, um: string, varios: string) => (n === 1 ? um : varios)

/**
 * Issue 17: what needs the client now, counted by the server; each count opens its screen (the
 * documents of the one service concerned, else the list filtered to those services).
 */
function Resumo({ servicos }: { servicos: MeuServico[] }) {
  const { data } = useQuery(resumoMeusServicosQuery())
  const r: ResumoMeusServicos = data ?? { precisam_documentos: 0, vencendo: 0, avisos_abertos: 0 }
  const documentos = servicos.filter(FILTROS.documentos.aplica)
  const itens = [
    {
      n: r.precisam_documentos,
      texto: plural(
        r.precisam_documentos,
        'serviço aguardando documentos',
        'serviços aguardando documentos',
      ),
      to:
        documentos.length === 1
          ? paths.usuario.documentos(documentos[0].id)
          : `${paths.usuario.dashboard}?filtro=documentos`,
      icon: FileWarning,
      cor: 'text-amber-700 bg-amber-100',
    },
    {
      n: r.vencendo,
      texto: plural(r.vencendo, 'vence nos próximos 120 dias', 'vencem nos próximos 120 dias'),
      to: `${paths.usuario.dashboard}?filtro=vencendo`,
      icon: CalendarClock,
      cor: 'text-red-700 bg-red-100',
    },
    {
      n: r.avisos_abertos,
      texto: plural(r.avisos_abertos, 'aviso em aberto', 'avisos em aberto'),
      to: `${paths.usuario.dashboard}?filtro=avisos`,
      icon: BellRing,
      cor: 'text-blue-700 bg-blue-100',
    },
  ]
  return (
    <section aria-label="Resumo" className="mb-6 grid grid-cols-3 gap-2 sm:gap-3">
      {itens.map(({ n, texto, to, icon: Icon, cor }) => {
        const conteudo = (
          <>
            <span
              className={`flex size-8 shrink-0 items-center justify-center rounded-full sm:size-10 ${cor}`}
            >
              <Icon className="size-4 sm:size-5" />
            </span>
            <span className="min-w-0">
              <span className="block text-2xl leading-none font-bold">{n}</span>
              <span className="mt-1 block text-xs leading-tight text-muted-foreground sm:mt-0 sm:inline sm:text-sm sm:leading-normal">
                {texto}
              </span>
            </span>
          </>
        )
        // Three side by side on a phone too (stacked inside), so the services stay in view.
        const base =
          'flex flex-col items-start gap-2 rounded-xl border bg-card p-3 shadow-xs sm:flex-row sm:items-center sm:gap-3 sm:p-4'
        return n > 0 ? (
          <Link key={texto} to={to} className={`${base} transition-colors hover:bg-accent`}>
            {conteudo}
          </Link>
        ) : (
          <div key={texto} className={base}>
            {conteudo}
          </div>
        )
      })}
    </section>
  )
}

/** SPEC §2: type, protocolo and detalhes when present, the two dates, and the documents button. */
function DetalhesDialog({ servico, onClose }: { servico: MeuServico | null; onClose: () => void }) {
  return (
    <Dialog open={servico !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        {servico && (
          <>
            <DialogHeader>
              <DialogTitle className="pr-6 leading-snug">{servico.tipo_servico}</DialogTitle>
              <DialogDescription>Detalhes do serviço</DialogDescription>
            </DialogHeader>
            <dl className="grid gap-4 text-sm">
              <div className="flex items-center gap-2">
                <dt className="sr-only">Status</dt>
                <dd>
                  <ClienteStatusBadge nome={servico.status} />
                </dd>
              </div>
              {servico.protocolo && (
                <div>
                  <dt className="text-xs font-medium text-muted-foreground">Protocolo</dt>
                  <dd className="font-medium whitespace-nowrap">{servico.protocolo}</dd>
                </div>
              )}
              <div className="grid grid-cols-2 gap-4">
                <div>
                  <dt className="flex items-center gap-1 text-xs font-medium text-muted-foreground">
                    <CalendarDays className="size-3.5" />
                    Vigência Início
                  </dt>
                  <dd className="font-medium">{formatDate(servico.vigencia_inicio)}</dd>
                </div>
                <div>
                  <dt className="flex items-center gap-1 text-xs font-medium text-muted-foreground">
                    <CalendarDays className="size-3.5" />
                    Vigência Fim
                  </dt>
                  <dd className="font-medium">{formatDate(servico.vigencia_fim)}</dd>
                </div>
              </div>
              {servico.detalhes && (
                <div>
                  <dt className="text-xs font-medium text-muted-foreground">Detalhes</dt>
                  <dd className="mt-1 rounded-md bg-muted/60 p-3 whitespace-pre-wrap">
                    {servico.detalhes}
                  </dd>
                </div>
              )}
            </dl>
            <DialogFooter>
              <Button asChild>
                <Link to={paths.usuario.documentos(servico.id)}>
                  <FileText />
                  Ver / Enviar Documentos
                </Link>
              </Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}
