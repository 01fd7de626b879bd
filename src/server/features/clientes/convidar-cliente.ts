import { eq } from 'drizzle-orm'
import type { Auth } from '../../auth/auth.ts'
import { enviarConvite } from '../../auth/convite.ts'
import { recordAuditoria, type Origem } from '../../db/auditoria.ts'
import type { Db } from '../../db/client.ts'
import { clientes } from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import type { Mailer } from '../../mail/mailer.ts'
import { CLIENTE_NAO_ENCONTRADO } from './clientes.queries.ts'
import { CLIENTE_SEM_CONTA, CONVITE_VALIDADE_DIAS } from '#shared/schemas/clientes.ts'

export type ConviteDeps = { db: Db; auth: Auth; mailer: Mailer; appUrl: string }

/**
 * "Convidar por e-mail" (on create, and "Enviar convite" on the client's edit dialog): the
 * client's account gets a link to choose its password (auth/convite.ts), recorded in the audit
 * trail as an e-mail sent to the client (never the link).
 */
export async function convidarCliente(deps: ConviteDeps, clienteId: string, origem: Origem) {
  const [cliente] = await deps.db
    .select({ nome: clientes.nome, email: clientes.email, userId: clientes.user_id })
    .from(clientes)
    .where(eq(clientes.id, clienteId))
  if (!cliente) throw notFound(CLIENTE_NAO_ENCONTRADO)
  if (!cliente.userId) throw new HttpError(409, CLIENTE_SEM_CONTA)
  await enviarConvite(deps, { userId: cliente.userId, email: cliente.email, nome: cliente.nome })
  await recordAuditoria(deps.db, origem, {
    acao: 'email',
    entidade: 'cliente',
    entidade_id: clienteId,
    rotulo: cliente.nome,
    cliente_id: clienteId,
    depois: {
      assunto: 'Convite para o Portal do Cliente',
      para: cliente.email,
      validade_dias: CONVITE_VALIDADE_DIAS,
    },
  })
}
