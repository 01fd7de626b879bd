import { hashPassword, isCurrentPassword, type Auth } from '../../auth/auth.ts'
import { assertSenhaIncomum } from '../../auth/senhas.ts'
import { endOtherSessions } from '../../auth/session.ts'
import type { Db } from '../../db/client.ts'
import { HttpError } from '../../errors.ts'
import type { Actor } from '../../policy.ts'
import { SENHA_ATUAL_INCORRETA, type SenhaAlteracao } from '#shared/schemas/conta.ts'

/**
 * Changes the signed-in account's password. The current password is required (a session left
 * open is not enough to lock the owner out); every other session of the account ends, the one
 * with `sessaoAtual` (the request's session token) stays; answers how many ended. The guesses are limited by the route
 * (`enforceLimits`, per address and per account).
 */
export async function alterarSenha(
  deps: { db: Db; auth: Auth },
  actor: Actor,
  body: SenhaAlteracao,
  sessaoAtual: string | null,
) {
  if (!(await isCurrentPassword(deps.auth, actor.userId, body.senha_atual)))
    throw new HttpError(400, SENHA_ATUAL_INCORRETA, 'senha_atual')
  assertSenhaIncomum(body.nova_senha, 'nova_senha')
  const ctx = await deps.auth.$context
  await ctx.internalAdapter.updatePassword(actor.userId, await hashPassword(body.nova_senha))
  return endOtherSessions(deps.db, actor.userId, sessaoAtual)
}
