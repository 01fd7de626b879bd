import { useQuery } from '@tanstack/react-query'
import { CalendarClock, FileText, Link2, Pencil, RefreshCw, ShieldCheck, Stamp } from 'lucide-react'
import { lazy, Suspense, useState, type ReactNode } from 'react'
import { Link, useNavigate } from 'react-router'
import { ConfirmDialog } from '../../components/data-table/confirm-dialog.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx'
import { notifySuccess } from '../../lib/notify.ts'
import { paths } from '../../paths.ts'
import type { TipoOpcao } from './renovacao-dialogs.tsx'
import { adminRenovacaoQuery, renovacaoQuery, useSolicitarRenovacao } from './api.ts'
import { formatDate, formatDateTime, today } from '#shared/datas.ts'
import { reaproveitados, renovacaoBadge } from '#shared/renovacao.ts'
import type { AdminRenovacao, Renovacao } from '#shared/schemas/renovacoes.ts'

// The card's forms (the date picker, the form library, the schemas) load when one opens: the
// client's service shows the card without them.
const dialogs = () => import('./renovacao-dialogs.tsx')
const ProtocoloDialog = lazy(() => dialogs().then((m) => ({ default: m.ProtocoloDialog })))
const RenovarDialog = lazy(() => dialogs().then((m) => ({ default: m.RenovarDialog })))

/** Its type has a lead time and it has an end date: the deadline part of the card. */
const temPrazo = (r: Renovacao) => r.antecedencia !== null && Boolean(r.vigencia_fim)

/** Whether the service has a card at all: a deadline, or a renewal on either side. */
const temCard = (r: Renovacao | undefined): r is Renovacao =>
  Boolean(r && (temPrazo(r) || r.renovacao_de || r.renovada_por))

/**
 * The "Renovação" card of the service detail (admin): the deadline, the days left to it, the
 * protocol and "Registrar protocolo da renovação" / "Editar protocolo".
 */
export function RenovacaoCard({
  servicoId,
  tipoServicoId,
  tipos,
}: {
  servicoId: string
  /** The service's own type: the renewal's by default. */
  tipoServicoId: string
  /** The types "Renovar" may choose (the catalogue, loaded by the page). */
  tipos?: TipoOpcao[]
}) {
  const { data } = useQuery(adminRenovacaoQuery(servicoId))
  const [editando, setEditando] = useState(false)
  const [renovando, setRenovando] = useState(false)
  if (!temCard(data)) return null
  const registrado = data.protocolo !== null
  return (
    <Card className="gap-4" role="region" aria-label="Renovação">
      <Cabecalho />
      <CardContent className="grid gap-4">
        <Ligacoes r={data} link={paths.admin.servico} />
        {temPrazo(data) && <Prazo r={data} />}
        {data.protocolo && <Protocolo r={data} comprovante={data.comprovante} />}
        {data.prazo && (
          // Its text wraps in a narrow side column (1024 px) rather than widening the page.
          <Button
            variant={registrado ? 'outline' : 'default'}
            className="h-auto min-h-9 whitespace-normal"
            onClick={() => setEditando(true)}
          >
            {registrado ? <Pencil /> : <Stamp />}
            {registrado ? 'Editar protocolo' : 'Registrar protocolo da renovação'}
          </Button>
        )}
        {!data.renovada_por && (
          <Button variant="outline" onClick={() => setRenovando(true)}>
            <RefreshCw />
            Renovar
          </Button>
        )}
      </CardContent>
      <Suspense>
        {editando && (
          <ProtocoloDialog servicoId={servicoId} r={data} onClose={() => setEditando(false)} />
        )}
        {renovando && (
          <RenovarDialog
            servicoId={servicoId}
            tipoServicoId={tipoServicoId}
            tipos={tipos}
            onClose={() => setRenovando(false)}
          />
        )}
      </Suspense>
    </Card>
  )
}

/** The same card on the client's service: what the renewal means for its licence. */
export function RenovacaoClienteCard({ servicoId }: { servicoId: string }) {
  const { data } = useQuery(renovacaoQuery(servicoId))
  const [confirmando, setConfirmando] = useState(false)
  const solicitar = useSolicitarRenovacao(servicoId)
  const navigate = useNavigate()
  if (!temCard(data)) return null
  const enviar = () =>
    solicitar.mutate(undefined, {
      onSuccess: (novo) => {
        notifySuccess('Renovação solicitada!', reaproveitados(novo))
        setConfirmando(false)
        void navigate(paths.usuario.documentos(novo.id))
      },
      onError: (err) => {
        setConfirmando(false)
        notifyFailure('Não foi possível solicitar a renovação.', err)
      },
    })
  return (
    <Card className="gap-4" role="region" aria-label="Renovação">
      <Cabecalho />
      <CardContent className="grid gap-4">
        <Ligacoes r={data} link={paths.usuario.documentos} />
        {temPrazo(data) && <Prazo r={data} cliente />}
        {data.protocolo && <Protocolo r={data} />}
        {data.pode_solicitar && (
          <Button onClick={() => setConfirmando(true)}>
            <RefreshCw />
            Solicitar renovação
          </Button>
        )}
        {!data.renovada_por &&
          data.solicitar_a_partir_de &&
          data.solicitar_a_partir_de > today() && (
            <p className="text-sm text-muted-foreground">
              Você poderá solicitar a renovação a partir de {formatDate(data.solicitar_a_partir_de)}
              .
            </p>
          )}
      </CardContent>
      <ConfirmDialog
        open={confirmando}
        onOpenChange={setConfirmando}
        title="Solicitar renovação?"
        description={
          <p>
            Um novo serviço será aberto para a renovação desta licença. Os documentos aprovados que
            ainda estão válidos serão reaproveitados; os demais ficarão pendentes de envio.
          </p>
        }
        confirmLabel="Solicitar renovação"
        pendingLabel="Solicitando..."
        pending={solicitar.isPending}
        onConfirm={enviar}
      />
    </Card>
  )
}

/** "Renovação de …" / "Renovada por …": the services a renewal links, each a link to it. */
function Ligacoes({ r, link }: { r: Renovacao; link: (id: string) => string }) {
  if (!r.renovacao_de && !r.renovada_por) return null
  const item = (rotulo: string, s: NonNullable<Renovacao['renovacao_de']>) => (
    <p className="flex items-center gap-2 text-sm">
      <Link2 className="size-4 shrink-0 text-muted-foreground" />
      <span>
        {rotulo}{' '}
        <Link
          to={link(s.id)}
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          {s.protocolo ?? 'serviço sem protocolo'}
        </Link>
      </span>
    </p>
  )
  return (
    <div className="grid gap-1">
      {r.renovacao_de && item('Renovação de', r.renovacao_de)}
      {r.renovada_por && item('Renovada por', r.renovada_por)}
    </div>
  )
}

function Cabecalho() {
  return (
    <CardHeader>
      <CardTitle className="flex items-center gap-2">
        <CalendarClock className="size-5 text-primary" />
        Renovação
      </CardTitle>
      <CardDescription>Prazo para protocolar a renovação no órgão ambiental.</CardDescription>
    </CardHeader>
  )
}

/** "Protocolar a renovação até …", its days left (or late), or the extension once filed in time. */
function Prazo({ r, cliente = false }: { r: Renovacao; cliente?: boolean }) {
  if (!r.prazo)
    return (
      <div className="rounded-lg border bg-muted/40 p-3 text-sm">
        <p className="font-medium">Sem prazo de renovação</p>
        <p className="mt-1 text-muted-foreground">
          A antecedência de {r.antecedencia} dias é maior que a vigência deste serviço.
        </p>
      </div>
    )
  const badge = renovacaoBadge(r)
  return (
    <div className="grid gap-3">
      <p className="text-sm">
        Protocolar a renovação até{' '}
        <span className="font-semibold whitespace-nowrap">{formatDate(r.prazo)}</span>
      </p>
      {badge && r.situacao === 'pendente' && (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          Dias restantes
          <Badge variant={badge.variant}>{badge.label}</Badge>
        </p>
      )}
      {badge && (r.situacao === 'fora_do_prazo' || r.situacao === 'prazo_perdido') && (
        <Badge variant={badge.variant} className="justify-self-start whitespace-normal">
          {badge.label}
        </Badge>
      )}
      {r.situacao === 'no_prazo' && (
        <div className="flex gap-2 rounded-lg border border-teal-200 bg-teal-50 p-3 text-sm text-teal-900">
          <ShieldCheck className="mt-0.5 size-4 shrink-0" />
          <div className="grid gap-1">
            <p className="font-medium">Vigência prorrogada (LC 140/2011, art. 14, §4º)</p>
            {cliente && r.protocolo && (
              <p>
                Sua licença continua válida até a decisão do órgão (renovação protocolada em{' '}
                {formatDate(r.protocolo.data_protocolo)})
              </p>
            )}
          </div>
        </div>
      )}
    </div>
  )
}

function Protocolo({
  r,
  comprovante,
}: {
  r: Renovacao
  comprovante?: AdminRenovacao['comprovante']
}) {
  const p = r.protocolo!
  return (
    <dl className="grid gap-2 rounded-lg border p-3 text-sm">
      <Item rotulo="Data do protocolo">{formatDate(p.data_protocolo)}</Item>
      <Item rotulo="Nº do processo no órgão">{p.numero_processo}</Item>
      {comprovante !== undefined && (
        <Item rotulo="Comprovante">
          {comprovante ? (
            <a
              href={`/api/documentos/${comprovante.id}/arquivo`}
              className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline"
            >
              <FileText className="size-4" />
              Baixar comprovante
            </a>
          ) : (
            <span className="font-normal text-muted-foreground">Não enviado</span>
          )}
          {comprovante && (
            <span className="block text-xs font-normal text-muted-foreground">
              Enviado em {formatDateTime(comprovante.data_envio)}
            </span>
          )}
        </Item>
      )}
    </dl>
  )
}

function Item({ rotulo, children }: { rotulo: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{rotulo}</dt>
      <dd className="min-w-0 font-medium break-words">{children}</dd>
    </div>
  )
}
