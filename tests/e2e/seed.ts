// Fills the e2e DATA_DIR before the server starts (the embedded database allows one process at
// a time, so the tests create their fixtures here, then talk to the server over HTTP only).
import path from 'node:path'
import { createAuth } from '../../src/server/auth/auth.ts'
import { openDatabase } from '../../src/server/db/client.ts'
import { seedStatuses } from '../../src/server/db/seed.ts'
import { createMailer } from '../../src/server/mail/mailer.ts'
import { loadSecret } from '../../src/server/runtime.ts'
import { createDiskStorage } from '../../src/server/storage/storage.ts'
import type { SeedContext } from './seed/context.ts'
import { seedBase } from './seed/base.ts'
import { seedClienteArea } from './seed/cliente-area.ts'
import { seedBackOffice } from './seed/back-office.ts'
import { seedDashboard } from './seed/dashboard.ts'
import { seedAvisosAutomaticos } from './seed/avisos-automaticos.ts'
import { seedRevisao } from './seed/revisao.ts'
import { seedAuditoria } from './seed/auditoria.ts'
import { seedLgpd } from './seed/lgpd.ts'
import { seedRenovacao } from './seed/renovacao.ts'
import { seedCondicionantes } from './seed/condicionantes.ts'
import { seedMensagens } from './seed/mensagens.ts'
import { seedProcesso } from './seed/processo.ts'

const dataDir = process.env.DATA_DIR
if (!dataDir) throw new Error('DATA_DIR is required')
const appUrl = process.env.APP_URL ?? 'http://localhost:3100'

const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') })
await database.migrate()
await seedStatuses(database.db)
const log = { info() {}, warn() {}, error() {} } as never
const mailer = createMailer({
  from: 'seed@portal.test',
  outboxDir: path.join(dataDir, 'seed-mail'),
  log,
})
const ctx: SeedContext = {
  db: database.db,
  auth: createAuth({
    db: database.db,
    appUrl,
    secret: loadSecret(dataDir),
    mailer,
  }),
  storage: createDiskStorage(path.join(dataDir, 'storage', 'documents')),
  dataDir,
}
for (const seed of [
  seedBase,
  seedClienteArea,
  seedBackOffice,
  seedDashboard,
  seedAvisosAutomaticos,
  seedRevisao,
  seedAuditoria,
  seedLgpd,
  seedRenovacao,
  seedCondicionantes,
  seedMensagens,
  seedProcesso,
])
  await seed(ctx)
await database.close()
console.log('e2e data seeded')
