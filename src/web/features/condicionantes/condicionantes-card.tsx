import { useQuery } from '@tanstack/react-query'
import {
  Check,
  ClipboardCheck,
  EyeOff,
  FilePenLine,
  Pencil,
  Plus,
  Trash2,
  Upload,
  X,
} from 'lucide-react'
import { useEffect, useState } from 'react'
import { ConfirmDialog } from '../../components/data-table/confirm-dialog.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { notifyError, notifySuccess } from '../../lib/notify.ts'
import { adminCondicionantesQuery, useDeleteCondicionante, useRevisarEvidencia } from './api.ts'
import { EnviarEvidenciaDialog, RejeitarEvidenciaDialog } from './evidencia-dialogs.tsx'
import { EvidenciasEntrega } from './evidencias.tsx'
import { CondicionanteDialog, EntregaDialog } from './condicionante-dialogs.tsx'
import { RelatorioLinks, SituacaoBadge } from './situacao-badge.tsx'
import { formatDate } from '#shared/datas.ts'
import type { Condicionante, Entrega } from '#shared/schemas/condicionantes.ts'
import { ROTULO_PERIODICIDADE, ROTULO_RESPONSAVEL } from '#shared/condicionantes.ts'

/** "Trimestral", "A cada 18 meses", "Contínua (sem prazo)". */
export function periodicidadeDe(c: Condicionante) {
  if (c.tipo === 'continua') return 'Contínua (sem prazo)'
  if (c.periodicidade === 'meses') return `A cada ${c.intervalo_meses} meses`
  return c.periodicidade ? ROTULO_PERIODICIDADE[c.periodicidade] : ''
}

/** The entregas still to act on come first; a long list opens on demand. */
const ABERTAS = ['atrasada', 'proxima', 'no_prazo', 'em_analise']
const VISIVEIS = 3

/**
 * The service detail's "Condicionantes": each condition of the licence (add, edit, delete with
 * confirmation) with its entregas, whose protocol at the agency the analyst records.
 */
export function CondicionantesCard({ servicoId }: { servicoId: string }) {
  const lista = useQuery(adminCondicionantesQuery(servicoId))
  const remove = useDeleteCondicionante(servicoId)
  const [editando, setEditando] = useState<Condicionante | 'nova' | null>(null)
  const [excluindo, setExcluindo] = useState<Condicionante | null>(null)
  const [entrega, setEntrega] = useState<{ entrega: Entrega; item: string } | null>(null)
  const [enviando, setEnviando] = useState<{ entrega: Entrega; item: string } | null>(null)
  const [rejeitando, setRejeitando] = useState<{ entrega: Entrega; item: string } | null>(null)
  const revisar = useRevisarEvidencia()
  const aprovar = (e: Entrega) =>
    revisar.mutate(
      { servicoId, entregaId: e.id, estado: 'aprovado' },
      {
        onSuccess: () => notifySuccess('Evidência aprovada!'),
        onError: () => notifyError('Erro', 'Não foi possível aprovar a evidência.'),
      },
    )

  useEffect(() => {
    if (lista.isError) notifyError('Erro', 'Não foi possível carregar as condicionantes.')
  }, [lista.isError])

  const atrasadas =
    lista.data?.reduce(
      (n, c) => n + c.entregas.filter((e) => e.situacao === 'atrasada').length,
      0,
    ) ?? 0

  return (
    <Card className="gap-4" role="region" aria-labelledby="condicionantes-titulo">
      <CardHeader className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle id="condicionantes-titulo" className="flex items-center gap-2">
            <ClipboardCheck className="size-5 text-primary" />
            Condicionantes
          </CardTitle>
          <CardDescription>
            {lista.data && lista.data.length > 0
              ? `${lista.data.length} ${lista.data.length === 1 ? 'condicionante' : 'condicionantes'}${
                  atrasadas
                    ? `, ${atrasadas} ${atrasadas === 1 ? 'entrega atrasada' : 'entregas atrasadas'}`
                    : ''
                }`
              : 'As condições da licença, com seus prazos e entregas.'}
          </CardDescription>
        </div>
        <Button size="sm" onClick={() => setEditando('nova')}>
          <Plus />
          Adicionar condicionante
        </Button>
      </CardHeader>
      <CardContent>
        {lista.isPending ? (
          <div className="flex justify-center py-4">
            <Spinner />
          </div>
        ) : (lista.data ?? []).length === 0 ? (
          <p className="py-2 text-center text-sm text-muted-foreground">
            Nenhuma condicionante cadastrada.
          </p>
        ) : (
          <div className="grid gap-3">
            <RelatorioLinks servicoId={servicoId} />
            <ul className="grid gap-3" aria-label="Condicionantes">
              {lista.data!.map((c) => (
                <CondicionanteItem
                  key={c.id}
                  c={c}
                  onEdit={() => setEditando(c)}
                  onDelete={() => setExcluindo(c)}
                  servicoId={servicoId}
                  onEntrega={(e) => setEntrega({ entrega: e, item: c.item })}
                  onEnviar={(e) => setEnviando({ entrega: e, item: c.item })}
                  onAprovar={aprovar}
                  onRejeitar={(e) => setRejeitando({ entrega: e, item: c.item })}
                />
              ))}
            </ul>
          </div>
        )}
      </CardContent>
      {editando && (
        <CondicionanteDialog
          servicoId={servicoId}
          condicionante={editando === 'nova' ? null : editando}
          onClose={() => setEditando(null)}
        />
      )}
      {entrega && (
        <EntregaDialog servicoId={servicoId} {...entrega} onClose={() => setEntrega(null)} />
      )}
      <EnviarEvidenciaDialog
        servicoId={servicoId}
        alvo={enviando}
        admin
        onClose={() => setEnviando(null)}
      />
      <RejeitarEvidenciaDialog
        servicoId={servicoId}
        alvo={rejeitando}
        onClose={() => setRejeitando(null)}
      />
      <ConfirmDialog
        open={excluindo !== null}
        onOpenChange={(o) => !o && setExcluindo(null)}
        title="Excluir condicionante"
        description={
          <>
            <p>
              Excluir a condicionante <strong>{excluindo?.item}</strong> e todas as suas entregas?
            </p>
            <p>Esta ação não pode ser desfeita.</p>
          </>
        }
        pending={remove.isPending}
        pendingLabel="Excluindo..."
        onConfirm={() =>
          excluindo &&
          remove.mutate(excluindo.id, {
            onSuccess: () => {
              notifySuccess('Condicionante excluída!')
              setExcluindo(null)
            },
            onError: () => notifyError('Erro', 'Não foi possível excluir a condicionante.'),
          })
        }
      />
    </Card>
  )
}

const PENDENTES = ['atrasada', 'proxima', 'no_prazo']

function CondicionanteItem({
  c,
  servicoId,
  onEdit,
  onDelete,
  onEntrega,
  onEnviar,
  onAprovar,
  onRejeitar,
}: {
  c: Condicionante
  servicoId: string
  onEdit: () => void
  onDelete: () => void
  onEntrega: (e: Entrega) => void
  onEnviar: (e: Entrega) => void
  onAprovar: (e: Entrega) => void
  onRejeitar: (e: Entrega) => void
}) {
  const [todas, setTodas] = useState(false)
  const abertas = c.entregas.filter((e) => ABERTAS.includes(e.situacao))
  const mostradas = todas ? c.entregas : abertas.slice(0, VISIVEIS)
  return (
    <li className="rounded-lg border p-3 text-sm" aria-label={`Condicionante ${c.item}`}>
      <div className="flex items-start gap-2">
        <span className="shrink-0 rounded bg-muted px-1.5 py-0.5 font-mono text-xs font-semibold">
          {c.item}
        </span>
        <p className="min-w-0 flex-1 break-words whitespace-pre-wrap">{c.descricao}</p>
        <div className="-mt-1 -mr-1 flex shrink-0">
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            aria-label={`Editar condicionante ${c.item}`}
            onClick={onEdit}
          >
            <Pencil />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="size-7 text-destructive hover:text-destructive"
            aria-label={`Excluir condicionante ${c.item}`}
            onClick={onDelete}
          >
            <Trash2 />
          </Button>
        </div>
      </div>
      <div className="mt-2 flex flex-wrap gap-1.5 text-xs">
        <Badge variant="outline">{periodicidadeDe(c)}</Badge>
        <Badge variant="outline">Responsável: {ROTULO_RESPONSAVEL[c.responsavel]}</Badge>
        {c.tipo === 'prazo' && (
          <Badge variant="outline">Aviso {c.antecedencia_dias} dias antes</Badge>
        )}
        {!c.visivel_cliente && (
          <Badge variant="outline" className="gap-1">
            <EyeOff className="size-3" />
            Interna
          </Badge>
        )}
      </div>
      {c.entregas.length > 0 && (
        <div className="mt-3 grid gap-1.5">
          {mostradas.length === 0 && (
            <p className="text-xs text-muted-foreground">Nenhuma entrega pendente.</p>
          )}
          <ul className="grid gap-1.5" aria-label={`Entregas da condicionante ${c.item}`}>
            {mostradas.map((e) => (
              <li
                key={e.id}
                className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md bg-muted/40 px-2 py-1.5"
              >
                <span className="w-20 font-medium tabular-nums">{formatDate(e.data_prevista)}</span>
                <SituacaoBadge situacao={e.situacao} />
                <span className="min-w-0 flex-1 truncate text-xs text-muted-foreground">
                  {e.protocolo_orgao
                    ? `Protocolo ${e.protocolo_orgao}${e.protocolado_em ? ` em ${formatDate(e.protocolado_em)}` : ''}`
                    : ''}
                </span>
                {e.situacao === 'em_analise' && (
                  <>
                    <Button
                      variant="outline"
                      size="sm"
                      className="h-7 px-2"
                      aria-label={`Aprovar a evidência da entrega de ${formatDate(e.data_prevista)}`}
                      onClick={() => onAprovar(e)}
                    >
                      <Check />
                      Aprovar
                    </Button>
                    <Button
                      variant="outline"
                      size="sm"
                      className="h-7 px-2 text-destructive hover:text-destructive"
                      aria-label={`Rejeitar a evidência da entrega de ${formatDate(e.data_prevista)}`}
                      onClick={() => onRejeitar(e)}
                    >
                      <X />
                      Rejeitar
                    </Button>
                  </>
                )}
                {(PENDENTES.includes(e.situacao) || e.situacao === 'em_analise') && (
                  <Button
                    variant="ghost"
                    size="sm"
                    className="h-7 px-2"
                    aria-label={`Enviar evidência da entrega de ${formatDate(e.data_prevista)}`}
                    onClick={() => onEnviar(e)}
                  >
                    <Upload />
                    Evidência
                  </Button>
                )}
                <Button
                  variant="ghost"
                  size="sm"
                  className="h-7 px-2"
                  aria-label={`Protocolo da entrega de ${formatDate(e.data_prevista)}`}
                  onClick={() => onEntrega(e)}
                >
                  <FilePenLine />
                  Protocolo
                </Button>
                <EvidenciasEntrega servicoId={servicoId} entrega={e} />
              </li>
            ))}
          </ul>
          {(c.entregas.length > mostradas.length || todas) && (
            <Button
              variant="link"
              size="sm"
              className="h-auto justify-self-start p-0"
              onClick={() => setTodas(!todas)}
            >
              {todas
                ? 'Mostrar só as próximas'
                : `Mostrar todas as entregas (${c.entregas.length})`}
            </Button>
          )}
        </div>
      )}
    </li>
  )
}
