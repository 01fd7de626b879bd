import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { today } from '#shared/datas.ts'
import { isArquivado } from '#shared/dias-restantes.ts'
import { inicioSolicitacao, situacaoRenovacao } from '#shared/renovacao.ts'
import {
  TIPO_COMPROVANTE,
  type AdminRenovacao,
  type Renovacao,
  type ServicoLigado,
} from '#shared/schemas/renovacoes.ts'

// The "Renovação" card of a service: its deadline (computed by `src/shared/renovacao.ts`, the
// same function the web would use) and its protocol; the service was checked with
// `requireServico`.

type Linha = {
  servico_id: string
  vigencia_inicio: string | null
  vigencia_fim: string | null
  antecedencia: number | null
  data_protocolo: string | null
  numero_processo: string | null
  status_nome: string | null
  renovacao_de: ServicoLigado | null
  renovada_por: ServicoLigado | null
}

/** The service's dates, its type's lead time and its protocol (`for update` inside a change). */
export async function getLinhaRenovacao(
  db: DbOrTx,
  servicoId: string,
  lock = false,
): Promise<
  Linha & { status_id: string | null; cliente_id: string; status_anterior_id: string | null }
> {
  const [row] = await rawRows<
    Linha & { status_id: string | null; cliente_id: string; status_anterior_id: string | null }
  >(
    db,
    sql`
      select s.id as servico_id, s.vigencia_inicio::text, s.vigencia_fim::text,
             t.antecedencia_renovacao as antecedencia, s.status_id, s.cliente_id,
             r.data_protocolo::text, r.numero_processo, r.status_anterior_id,
             st.nome as status_nome,
             (select json_build_object('id', a.id, 'protocolo', a.protocolo)
                from servicos a where a.id = s.renovacao_de) as renovacao_de,
             (select json_build_object('id', n.id, 'protocolo', n.protocolo)
                from servicos n where n.renovacao_de = s.id) as renovada_por
      from servicos s
      join tipos_servicos t on t.id = s.tipo_servico_id
      left join status st on st.id = s.status_id
      left join renovacoes r on r.servico_id = s.id
      where s.id = ${servicoId}${lock ? sql` for update of s` : sql``}`,
  )
  return row
}

export function toRenovacao(l: Linha, hoje = today()): Renovacao {
  const r = situacaoRenovacao(l, hoje)
  const inicio = inicioSolicitacao(l)
  return {
    renovacao_de: l.renovacao_de,
    renovada_por: l.renovada_por,
    solicitar_a_partir_de: inicio,
    pode_solicitar:
      inicio !== null && hoje >= inicio && !l.renovada_por && !isArquivado(l.status_nome),
    servico_id: l.servico_id,
    antecedencia: l.antecedencia,
    vigencia_fim: l.vigencia_fim,
    prazo: r.prazo,
    dias: r.dias,
    situacao: r.situacao,
    protocolo:
      l.data_protocolo && l.numero_processo
        ? { data_protocolo: l.data_protocolo, numero_processo: l.numero_processo }
        : null,
  }
}

/** The client's card (its own service: `requireServico` scoped it). */
export async function getRenovacao(db: DbOrTx, servicoId: string): Promise<Renovacao> {
  return toRenovacao(await getLinhaRenovacao(db, servicoId))
}

/** The id of the document type of the receipts, by its name (null if an admin removed it). */
export async function getTipoComprovante(db: DbOrTx): Promise<string | null> {
  const [row] = await rawRows<{ id: string }>(
    db,
    sql`select id from tipos_documentos where portal_nome_chave(tipo) = portal_nome_chave(${TIPO_COMPROVANTE})`,
  )
  return row?.id ?? null
}

/** The service detail's card: also the current receipt, a document of the consultancy. */
export async function getAdminRenovacao(db: DbOrTx, servicoId: string): Promise<AdminRenovacao> {
  const tipoId = await getTipoComprovante(db)
  const [comprovante] = tipoId
    ? await rawRows<{ id: string; data_envio: string }>(
        db,
        sql`
          select d.id, to_json(v.created_at)#>>'{}' as data_envio
          from servicos_tipos_documentos d
          join documento_versoes v on v.documento_id = d.id and v.atual
          where d.servico_id = ${servicoId} and d.tipo_documento_id = ${tipoId}
            and d.enviado_por = 'admin'`,
      )
    : []
  return {
    ...(await getRenovacao(db, servicoId)),
    comprovante: comprovante ?? null,
    comprovante_tipo_documento_id: tipoId,
  }
}
