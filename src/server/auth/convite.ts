import { randomBytes } from 'node:crypto'
import { and, eq, like } from 'drizzle-orm'
import type { DbOrTx } from '../db/client.ts'
import { verification } from '../db/schema.ts'
import { getMarca } from '../mail/empresa.ts'
import type { Mailer } from '../mail/mailer.ts'
import type { Auth } from './auth.ts'
import { emailConvite } from './emails.ts'
import { CONVITE_VALIDADE_DIAS } from '#shared/schemas/clientes.ts'

/**
 * "Convidar por e-mail": a link for the account to choose its password, valid for
 * CONVITE_VALIDADE_DIAS days and once. It is a password-reset link of better-auth's own kind
 * (`reset-password:<token>` in `verification`), with the invitation's lifetime: the reset page
 * and `POST /api/auth/reset-password` take it as they take the forgotten-password e-mail's,
 * check its expiry and delete it when used. A new invitation replaces every earlier link of the
 * account (the last e-mail is the one that works).
 */
export async function enviarConvite(
  deps: { db: DbOrTx; auth: Auth; mailer: Mailer; appUrl: string },
  conta: { userId: string; email: string; nome: string },
) {
  const { db, auth, mailer, appUrl } = deps
  await db
    .delete(verification)
    .where(
      and(like(verification.identifier, 'reset-password:%'), eq(verification.value, conta.userId)),
    )
  const token = randomBytes(32).toString('base64url')
  const ctx = await auth.$context
  await ctx.internalAdapter.createVerificationValue({
    identifier: `reset-password:${token}`,
    value: conta.userId,
    expiresAt: new Date(Date.now() + CONVITE_VALIDADE_DIAS * 86_400_000),
  })
  const url = `${appUrl}/auth/redefinir-senha?token=${token}&convite=1`
  await mailer.send({
    to: conta.email,
    ...emailConvite(await getMarca(db, appUrl), url, conta.nome),
  })
}
