// Runs the automatic warnings job once, as the server does, in its own process: DATA_DIR's
// embedded database (or DATABASE_URL), mail to DATA_DIR/mail. Prints the run's summary as JSON.
import path from 'node:path'
import { openDatabase } from '../../src/server/db/client.ts'
import { runAvisosAutomaticos } from '../../src/server/features/avisos/avisos-automaticos.ts'
import { createLogger } from '../../src/server/log.ts'
import { createMailer } from '../../src/server/mail/mailer.ts'

const dataDir = process.env.DATA_DIR!
const log = createLogger('silent')
const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  pgliteDir: path.join(dataDir, 'pgdata'),
})
const mailer = createMailer({
  from: 'Portal <portal@test>',
  outboxDir: path.join(dataDir, 'mail'),
  log,
})
const result = await runAvisosAutomaticos(
  { db: database.db, mailer, appUrl: 'http://localhost:3000', log },
  { hoje: process.env.HOJE!, origem: 'manual' },
)
process.stdout.write(`${JSON.stringify(result)}\n`)
mailer.close()
await database.close()
