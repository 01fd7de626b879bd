import { isCurrentPassword, type Auth } from '../../auth/auth.ts'
import type { Origem } from '../../db/auditoria.ts'
import type { Db } from '../../db/client.ts'
import { HttpError } from '../../errors.ts'
import type { Actor } from '../../policy.ts'
import { createSolicitacao } from './privacidade.queries.ts'
import { SENHA_INCORRETA, type MinhaSolicitacao } from '#shared/schemas/privacidade.ts'

/**
 * "Solicitar exclusão": the client confirms with their password, then the request is recorded
 * with its audit event (`createSolicitacao`). The guesses are limited by the route
 * (`enforceLimits`, like a password change).
 */
export async function solicitarExclusao(
  deps: { db: Db; auth: Auth },
  actor: Actor,
  senha: string,
  origem: Origem,
): Promise<MinhaSolicitacao> {
  if (!(await isCurrentPassword(deps.auth, actor.userId, senha)))
    throw new HttpError(400, SENHA_INCORRETA, 'senha')
  return createSolicitacao(deps.db, actor, origem)
}
