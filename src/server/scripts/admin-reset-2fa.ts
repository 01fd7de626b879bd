// `npm run admin:reset-2fa -- <email>`: for an administrator who lost the authenticator app and
// the recovery codes. Turns the account's second factor off and ends its sessions; at the next
// sign-in (with the password) the administrator enrols again. With the embedded database, stop
// the server first (one process per DATA_DIR).
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { eq } from 'drizzle-orm'
import { removeTwoFactor } from '../auth/auth.ts'
import { ConfigError, parseConfig } from '../config.ts'
import { openDatabase, type Db } from '../db/client.ts'
import { session, user } from '../db/schema.ts'
import { lockDataDir } from '../runtime.ts'

/** Resets the second factor of the account with this e-mail; false when there is none. */
export async function resetTwoFactor(db: Db, email: string): Promise<boolean> {
  const [found] = await db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, email.trim().toLowerCase()))
  if (!found) return false
  await removeTwoFactor(db, found.id)
  await db.delete(session).where(eq(session.userId, found.id))
  return true
}

async function main() {
  const email = process.argv[2]
  if (!email) throw new Error('Uso: npm run admin:reset-2fa -- <email>')
  const config = parseConfig()
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir)
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pgdata'),
  })
  try {
    await database.migrate()
    if (!(await resetTwoFactor(database.db, email)))
      throw new Error(`Nenhuma conta com o email ${email}.`)
    console.log(
      `Verificação em duas etapas de ${email} desativada e sessões encerradas. ` +
        'No próximo login, com a senha, a conta cadastra o aplicativo autenticador de novo.',
    )
  } finally {
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
