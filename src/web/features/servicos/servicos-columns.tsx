import type { ReactNode } from 'react'
import type { DataTableColumn } from '../../components/data-table/data-table.tsx'
import { StatusBadge, DiasRestantesBadge, NovoBadge } from './servico-badges.tsx'
import { formatDate } from '#shared/datas.ts'
import type { ServicoListaItem } from '#shared/schemas/servicos.ts'

/**
 * SPEC §2 Dashboard Global de Serviços: the table's columns, and how each shows on a phone card.
 * `marcador`: what shows under the client's name beside 'Novo' (the unread messages, a slot).
 */
export const servicosColumns = (
  marcador?: (servicoId: string) => ReactNode,
): DataTableColumn<ServicoListaItem>[] => [
  {
    id: 'cliente',
    header: 'Cliente',
    card: 'title',
    className: 'max-w-44',
    cellClassName: 'font-medium',
    // Cut after two lines, whole in its tooltip; 'Novo' goes under it (a column of its own only
    // on a phone card).
    cell: (s) => (
      <>
        <span className="line-clamp-2" title={s.cliente_nome}>
          {s.cliente_nome}
        </span>
        {!s.visualizado_admin && <NovoBadge className="mt-1" />}
        {marcador && <div className="mt-1 empty:hidden">{marcador(s.id)}</div>}
      </>
    ),
    cardCell: (s) => (
      <div className="flex flex-wrap items-center gap-2">
        <p className="font-semibold leading-snug">{s.cliente_nome}</p>
        {marcador?.(s.id)}
      </div>
    ),
  },
  {
    id: 'tipo',
    header: 'Tipo de Serviço',
    card: 'subtitle',
    className: 'max-w-52',
    // The protocol folds under the type and category (its own column only on a phone card).
    cell: (s) => (
      <>
        <div className="line-clamp-2" title={s.tipo}>
          {s.tipo}
        </div>
        {s.categoria && <div className="text-xs text-muted-foreground">{s.categoria}</div>}
        {s.protocolo && (
          <div className="font-mono text-xs whitespace-nowrap text-muted-foreground">
            {s.protocolo}
          </div>
        )}
      </>
    ),
    cardCell: (s) => (
      <>
        <p className="text-sm">{s.tipo}</p>
        {s.categoria && <p className="text-xs text-muted-foreground">{s.categoria}</p>}
      </>
    ),
  },
  {
    id: 'protocolo',
    header: 'Protocolo',
    table: false,
    // A protocol never breaks mid-string.
    cellClassName: 'font-mono text-xs whitespace-nowrap',
    cell: (s) => s.protocolo ?? '-',
    cardCell: (s) => (
      <span className="font-mono text-xs whitespace-nowrap">{s.protocolo ?? '-'}</span>
    ),
  },
  {
    id: 'vigencia',
    header: 'Vigência',
    from: 'xl',
    cellClassName: 'text-xs whitespace-nowrap',
    cell: (s) => (
      <>
        <div>{formatDate(s.vigencia_inicio)}</div>
        <div className="text-muted-foreground">até {formatDate(s.vigencia_fim)}</div>
      </>
    ),
    cardCell: (s) => (
      <span className="text-xs">
        {formatDate(s.vigencia_inicio)} até {formatDate(s.vigencia_fim)}
      </span>
    ),
  },
  {
    id: 'status',
    header: 'Status',
    className: 'min-w-32 max-w-44',
    cell: (s) => (
      <StatusBadge nome={s.status_nome} className="max-w-full whitespace-normal text-left" />
    ),
  },
  {
    id: 'avisos',
    header: 'Avisos',
    from: 'xl',
    className: 'text-center',
    cell: (s) => <AvisosCount n={s.avisos_abertos} />,
  },
  {
    id: 'dias_restantes',
    header: 'Dias Restantes',
    cell: (s) => <DiasRestantesBadge vigenciaFim={s.vigencia_fim} statusNome={s.status_nome} />,
  },
  {
    id: 'novo',
    header: 'Novo',
    card: 'aside',
    table: false,
    cell: (s) => !s.visualizado_admin && <NovoBadge />,
  },
]

/** Unresolved avisos: a plain 0, or an amber count naming them. */
function AvisosCount({ n }: { n: number }) {
  if (n === 0) return <span className="text-muted-foreground">0</span>
  return (
    <span
      className="inline-flex min-w-6 items-center justify-center rounded-full bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-800"
      title={`${n} ${n === 1 ? 'aviso pendente' : 'avisos pendentes'}`}
    >
      {n}
    </span>
  )
}
