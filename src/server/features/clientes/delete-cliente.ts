import { eq, inArray } from 'drizzle-orm'
import { recordAuditoria, type Origem } from '../../db/auditoria.ts'
import {
  clientes,
  condicionantesEntregas,
  servicos,
  servicosTiposDocumentos,
  user,
} from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import {
  deleteWithFiles,
  documentFiles,
  evidenciaFiles,
  type FileDeps,
} from '../../storage/arquivos.ts'
import { CLIENTE_NAO_ENCONTRADO } from './clientes.queries.ts'

export const PROPRIO_CLIENTE = 'Você não pode excluir o cliente vinculado à sua própria conta.'

/**
 * Deletes the client with everything that hangs on it: its services (with their avisos,
 * document rows and e-mail records, by cascade), its account (sessions and role go with it) and,
 * after the commit, the stored files. A failure before the commit changes nothing; a file that
 * cannot be removed afterwards is only logged.
 */
export async function deleteCliente(deps: FileDeps, id: string, origem: Origem) {
  await deleteWithFiles(deps, async (tx) => {
    const [cliente] = await tx.select().from(clientes).where(eq(clientes.id, id)).for('update')
    if (!cliente) throw notFound(CLIENTE_NAO_ENCONTRADO)
    if (cliente.user_id && cliente.user_id === origem.ator_id)
      throw new HttpError(409, PROPRIO_CLIENTE)
    await recordAuditoria(tx, origem, {
      acao: 'excluir',
      entidade: 'cliente',
      entidade_id: id,
      rotulo: cliente.nome,
      cliente_id: id,
      antes: cliente,
    })
    const doCliente = tx
      .select({ id: servicos.id })
      .from(servicos)
      .where(eq(servicos.cliente_id, id))
    const keys = [
      ...(await documentFiles(tx, inArray(servicosTiposDocumentos.servico_id, doCliente))),
      ...(await evidenciaFiles(tx, eq(condicionantesEntregas.cliente_id, id))),
    ]
    await tx.delete(servicos).where(eq(servicos.cliente_id, id))
    await tx.delete(clientes).where(eq(clientes.id, id))
    if (cliente.user_id) await tx.delete(user).where(eq(user.id, cliente.user_id))
    return { result: undefined, keys }
  })
}
