// `npm run admin:reset-2fa -- <email> [--yes]`: for an administrator who lost the authenticator
// app and the recovery codes. Asks for confirmation (or `--yes`), then, in one transaction: a new
// random password (printed once), the second factor off, every session ended, the trusted
// devices forgotten, and an audit event. At the next sign-in, with the new password, the
// administrator enrols again: whoever held only the old password cannot enrol first. With the
// embedded database, stop the server first (one process per DATA_DIR).
import { randomBytes } from 'node:crypto'
import { userInfo } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline/promises'
import { pathToFileURL } from 'node:url'
import { and, eq, like } from 'drizzle-orm'
import { hashPassword } from '../auth/auth.ts'
import { ConfigError, parseConfig } from '../config.ts'
import { ORIGEM_SISTEMA, recordAuditoria } from '../db/auditoria.ts'
import { openDatabase, type Db } from '../db/client.ts'
import { account, session, twoFactor, user, verification } from '../db/schema.ts'
import { lockDataDir } from '../runtime.ts'

/** A password of 20 characters from 120 random bits (letters, digits, '-' and '_'). */
export const randomPassword = () => randomBytes(15).toString('base64url')

/**
 * Resets the account with this e-mail: a new password (answered, to be shown once), no second
 * factor, no session, no trusted device, and the audit event, in one transaction. Null when no
 * account has that e-mail.
 */
export async function resetTwoFactor(db: Db, email: string): Promise<{ senha: string } | null> {
  const [found] = await db
    .select({ id: user.id, email: user.email })
    .from(user)
    .where(eq(user.email, email.trim().toLowerCase()))
  if (!found) return null
  const senha = randomPassword()
  const digest = await hashPassword(senha)
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(account)
      .set({ password: digest, updatedAt: new Date() })
      .where(and(eq(account.userId, found.id), eq(account.providerId, 'credential')))
      .returning({ id: account.id })
    if (!updated.length)
      await tx.insert(account).values({
        id: randomBytes(16).toString('hex'),
        userId: found.id,
        providerId: 'credential',
        accountId: found.id,
        password: digest,
      })
    await tx.delete(twoFactor).where(eq(twoFactor.userId, found.id))
    await tx.update(user).set({ twoFactorEnabled: false }).where(eq(user.id, found.id))
    await tx.delete(session).where(eq(session.userId, found.id))
    await tx
      .delete(verification)
      .where(and(eq(verification.value, found.id), like(verification.identifier, 'trust-device-%')))
    await recordAuditoria(
      tx,
      { ...ORIGEM_SISTEMA, user_agent: 'npm run admin:reset-2fa' },
      {
        acao: 'redefinir_dois_fatores',
        entidade: 'usuario',
        entidade_id: found.id,
        rotulo: found.email,
        depois: { usuario_do_servidor: systemUser() },
      },
    )
  })
  return { senha }
}

const systemUser = () => {
  try {
    return userInfo().username
  } catch {
    return null
  }
}

export const CONFIRMACAO = 'sim'

/**
 * The command: `<email> [--yes]`. Without `--yes` it asks `ask` and goes on only on 'sim'.
 * Answers what it prints.
 */
export async function runResetTwoFactor(
  db: Db,
  args: string[],
  ask: (question: string) => Promise<string>,
): Promise<string> {
  const yes = args.includes('--yes')
  const [email] = args.filter((a) => a !== '--yes')
  if (!email) throw new Error('Uso: npm run admin:reset-2fa -- <email> [--yes]')
  if (!yes) {
    const answer = await ask(
      `Redefinir a senha e a verificação em duas etapas de ${email}? Todas as sessões da conta ` +
        `serão encerradas. Digite '${CONFIRMACAO}' para confirmar: `,
    )
    if (answer.trim().toLowerCase() !== CONFIRMACAO) return 'Nada foi alterado.'
  }
  const reset = await resetTwoFactor(db, email)
  if (!reset) throw new Error(`Nenhuma conta com o email ${email}.`)
  return [
    `Senha e verificação em duas etapas de ${email} redefinidas; sessões encerradas.`,
    `Nova senha (mostrada só agora; entregue-a ao titular por um canal seguro): ${reset.senha}`,
    'No próximo login, com essa senha, a conta cadastra o aplicativo autenticador de novo.',
  ].join('\n')
}

async function main() {
  const args = process.argv.slice(2)
  const config = parseConfig()
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir)
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pgdata'),
  })
  const rl = createInterface({ input: process.stdin, output: process.stdout })
  try {
    await database.migrate()
    console.log(await runResetTwoFactor(database.db, args, (q) => rl.question(q)))
  } finally {
    rl.close()
    await database.close()
    unlock()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err) => {
    console.error(err instanceof ConfigError || err instanceof Error ? err.message : err)
    process.exit(1)
  })
}
