import { eq, inArray } from 'drizzle-orm'
import { recordAuditoria, type Origem } from '../../db/auditoria.ts'
import type { Db } from '../../db/client.ts'
import { linkNotificacao, nomeServico, notifyCliente } from '../../db/notificacoes.ts'
import { exigencias, exigenciasDocumentos, servicos, tiposDocumentos } from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import { formatDate } from '#shared/datas.ts'
import type { Exigencia } from '#shared/schemas/processos.ts'
import { EXIGENCIA_NAO_ENCONTRADA, getExigencia } from './processos.queries.ts'

export const TIPO_DOCUMENTO_INVALIDO = 'Selecione tipos de documento válidos.'

/**
 * "Solicitar documentos ao cliente": the chosen document types become required documents of
 * the exigência's service, with its deadline (the client's documents screen lists them beside its
 * type's rules until the exigência is answered). Asking again for a type it already asks for
 * changes nothing. Audited and told to the client in one transaction.
 */
export async function solicitarDocumentos(
  db: Db,
  exigenciaId: string,
  tiposIds: string[],
  origem: Origem,
): Promise<Exigencia> {
  await db.transaction(async (tx) => {
    const [e] = await tx
      .select({
        servico_id: exigencias.servico_id,
        prazo: exigencias.prazo,
        cliente_id: servicos.cliente_id,
      })
      .from(exigencias)
      .innerJoin(servicos, eq(servicos.id, exigencias.servico_id))
      .where(eq(exigencias.id, exigenciaId))
      .for('update', { of: exigencias })
    if (!e) throw notFound(EXIGENCIA_NAO_ENCONTRADA)
    const ids = [...new Set(tiposIds)]
    const tipos = await tx
      .select({ id: tiposDocumentos.id, tipo: tiposDocumentos.tipo })
      .from(tiposDocumentos)
      .where(inArray(tiposDocumentos.id, ids))
    if (tipos.length !== ids.length)
      throw new HttpError(400, TIPO_DOCUMENTO_INVALIDO, 'tipos_documentos')
    const novos = await tx
      .insert(exigenciasDocumentos)
      .values(ids.map((tipo_documento_id) => ({ exigencia_id: exigenciaId, tipo_documento_id })))
      .onConflictDoNothing()
      .returning({ id: exigenciasDocumentos.tipo_documento_id })
    if (!novos.length) return
    const nomes = tipos
      .filter((t) => novos.some((n) => n.id === t.id))
      .map((t) => t.tipo)
      .sort((a, b) => a.localeCompare(b, 'pt-BR'))
    const rotulo = await nomeServico(tx, e.servico_id)
    await recordAuditoria(tx, origem, {
      acao: 'alterar',
      entidade: 'exigencia',
      entidade_id: exigenciaId,
      rotulo,
      servico_id: e.servico_id,
      cliente_id: e.cliente_id,
      antes: null,
      depois: { documentos_solicitados: nomes },
    })
    await notifyCliente(tx, e.servico_id, {
      tipo: 'processo_andamento',
      titulo: `${rotulo}: envie ${nomes.length === 1 ? 'o documento' : `${nomes.length} documentos`} até ${formatDate(e.prazo)}`,
      link: linkNotificacao.documentosCliente(e.servico_id),
    })
  })
  return getExigencia(db, exigenciaId)
}
