import { useQuery } from '@tanstack/react-query'
import { Download } from 'lucide-react'
import { useEffect, useState } from 'react'
import type { DataTableColumn } from '../../components/data-table/data-table.tsx'
import { KeysetDataTable } from '../../components/data-table/keyset-data-table.tsx'
import { useListParams } from '../../components/data-table/use-list-params.ts'
import { buttonVariants } from '../../components/ui/button.tsx'
import { DateField } from '../../components/ui/date-field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { Label } from '../../components/ui/label.tsx'
import { auditoriaCsvUrl, auditoriaQuery, type AuditoriaParams } from './api.ts'
import { formatDateTimeIn, isIsoDate } from '#shared/datas.ts'
import {
  ACOES_AUDITORIA,
  ENTIDADES_AUDITORIA,
  ROTULO_ACAO,
  ROTULO_ENTIDADE,
  type AcaoAuditoria,
  type EventoAuditoriaItem,
} from '#shared/schemas/auditoria.ts'

const FILTROS = ['de', 'ate', 'usuario', 'acao', 'entidade'] as const

const colunas: DataTableColumn<EventoAuditoriaItem>[] = [
  {
    id: 'em',
    header: 'Data',
    cell: (e) => formatDateTimeIn(new Date(e.em)),
    className: 'w-36 whitespace-nowrap',
    card: 'subtitle',
  },
  {
    id: 'descricao',
    header: 'Evento',
    cell: (e) => e.descricao,
    cellClassName: 'whitespace-normal break-words',
    card: 'title',
  },
  {
    id: 'acao',
    header: 'Ação',
    cell: (e) => ROTULO_ACAO[e.acao as AcaoAuditoria] ?? e.acao,
    className: 'w-40',
  },
  {
    id: 'ator',
    header: 'Usuário',
    cell: (e) => e.ator_email ?? e.ator,
    cellClassName: 'break-all',
    from: 'xl',
  },
  { id: 'ip', header: 'IP', cell: (e) => e.ip ?? '-', from: '2xl' },
]

/**
 * The Auditoria list: period, user, action, entity and free text in the URL; keyset
 * pages and the count from the server; "Exportar CSV" of the same filters.
 */
export function AuditoriaLista() {
  const list = useListParams(FILTROS)
  const f = list.filters
  const params: AuditoriaParams = {
    de: f.de && isIsoDate(f.de) ? f.de : undefined,
    ate: f.ate && isIsoDate(f.ate) ? f.ate : undefined,
    usuario: f.usuario,
    acao: f.acao,
    entidade: f.entidade,
    q: list.q || undefined,
    page: list.page,
    after: list.after,
    before: list.before,
  }
  const q = useQuery(auditoriaQuery(params))
  const [usuario, setUsuario] = useState(f.usuario ?? '')
  useEffect(() => setUsuario(f.usuario ?? ''), [f.usuario])
  const aplicarUsuario = () => {
    if (usuario.trim() !== (f.usuario ?? '')) list.setFilter('usuario', usuario.trim() || undefined)
  }

  return (
    <div className="grid min-w-0 gap-4">
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[repeat(3,minmax(0,14rem))_auto] lg:items-end">
        <div className="grid gap-1.5">
          <Label htmlFor="auditoria-de">De</Label>
          <DateField
            id="auditoria-de"
            value={f.de ?? ''}
            onValueChange={(v) =>
              (v === '' || isIsoDate(v)) && list.setFilter('de', v || undefined)
            }
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="auditoria-ate">Até</Label>
          <DateField
            id="auditoria-ate"
            value={f.ate ?? ''}
            onValueChange={(v) =>
              (v === '' || isIsoDate(v)) && list.setFilter('ate', v || undefined)
            }
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="auditoria-usuario">Usuário</Label>
          <Input
            id="auditoria-usuario"
            value={usuario}
            placeholder="Nome ou e-mail"
            onChange={(e) => setUsuario(e.target.value)}
            onBlur={aplicarUsuario}
            onKeyDown={(e) => e.key === 'Enter' && aplicarUsuario()}
          />
        </div>
        <a
          href={auditoriaCsvUrl(params)}
          download="auditoria.csv"
          className={buttonVariants({ variant: 'outline', className: 'justify-self-start' })}
        >
          <Download />
          Exportar CSV
        </a>
      </div>
      <KeysetDataTable
        label="Eventos de auditoria"
        heading="Eventos"
        columns={colunas}
        getRowId={(e) => e.id}
        list={list}
        query={q}
        noun={{ one: 'evento', many: 'eventos' }}
        errorMessage="Não foi possível carregar a auditoria."
        searchPlaceholder="E-mail, nome, protocolo ou valor"
        filters={[
          {
            kind: 'select',
            param: 'acao',
            id: 'acao',
            label: 'Ação',
            allLabel: 'Todas as ações',
            options: ACOES_AUDITORIA.map((a) => ({ value: a, label: ROTULO_ACAO[a] })),
            className: 'md:w-48',
          },
          {
            kind: 'select',
            param: 'entidade',
            id: 'entidade',
            label: 'Entidade',
            allLabel: 'Todas as entidades',
            options: ENTIDADES_AUDITORIA.map((e) => ({ value: e, label: ROTULO_ENTIDADE[e] })),
            className: 'md:w-48',
          },
        ]}
        empty={{ title: 'Nenhum evento registrado.' }}
      />
    </div>
  )
}
