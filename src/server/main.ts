import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureAdmin } from './auth/auth.ts'
import { buildApp } from './app.ts'
import { startControlSocket } from './backup/control.ts'
import { ConfigError, configWarnings, parseConfig } from './config.ts'
import { avisoEmpresaIncompleta, getEmpresa } from './mail/empresa.ts'
import { startLeiturasPendentes } from './db/auditoria.ts'
import { openDatabase } from './db/client.ts'
import { holdPresenca, presencaSozinha } from './db/presenca.ts'
import { seedStatuses } from './db/seed.ts'
import { startAvisosScheduler } from './features/avisos/scheduler.ts'
import { createLogger } from './log.ts'
import { startNotificacoesScheduler } from './features/notificacoes/notificacoes-email.ts'
import { createMailer } from './mail/mailer.ts'
import { lockDataDir, loadSecret, prepareDataDir } from './runtime.ts'
import { startRetencao } from './features/privacidade/retencao.ts'
import { startStorageSweep } from './storage/arquivos.ts'
import { createStorage } from './storage/storage.ts'

async function main() {
  let config
  try {
    config = parseConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message)
      process.exit(1)
    }
    throw err
  }
  const logger = createLogger(config.logLevel)
  for (const warning of configWarnings(config)) logger.warn(warning)
  prepareDataDir(config.dataDir)
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir)
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pgdata'),
    log: logger,
  })
  await database.migrate()
  await seedStatuses(database.db)

  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'mail'),
    log: logger,
  })
  // The built server (DIST/server/main.js) serves the built web app beside it (DIST/web).
  const here = path.dirname(fileURLToPath(import.meta.url))
  const webDir = here.endsWith(path.join('src', 'server'))
    ? undefined
    : path.resolve(here, '../web')
  const app = await buildApp({
    config,
    db: database.db,
    storage: createStorage(config),
    probeDatabase: database.probe,
    mailer,
    secret: loadSecret(config.dataDir, config.authSecret),
    webDir,
    logger,
  })
  if (config.adminEmail && config.adminPassword) {
    const { secured } = await ensureAdmin(
      app.ctx.auth,
      database.db,
      config.adminEmail,
      config.adminPassword,
    )
    if (secured) logger.warn(secured)
    logger.info(`administrator ${config.adminEmail} is ready`)
  }
  const empresaIncompleta = avisoEmpresaIncompleta(await getEmpresa(database.db))
  if (empresaIncompleta) logger.warn(empresaIncompleta)

  // A crash's leftovers (stored files without a row, temporary uploads, `.part` files): all of
  // them now when no other server holds the database, before any request; hourly those older
  // than an hour.
  const presenca = config.databaseUrl
    ? await holdPresenca(config.databaseUrl, logger)
    : presencaSozinha
  const varredura = await startStorageSweep(
    { db: database.db, storage: app.ctx.storage, tmpDir: app.ctx.tmpDir, log: logger },
    { alone: presenca.alone },
  )
  await presenca.shared()

  // Audit events of reads that a full disk kept in memory, written once there is space again.
  const leiturasPendentes = startLeiturasPendentes({ db: database.db, log: logger })

  // The retention settings (sessions, unconfirmed accounts, sendings, audit), daily.
  const retencao = startRetencao({ db: database.db, log: logger })

  const agendador = config.warnings.scheduler
    ? startAvisosScheduler({
        db: database.db,
        mailer,
        appUrl: config.appUrl,
        log: logger,
        hour: config.warnings.hour,
        timeZone: config.warnings.timeZone,
      })
    : null
  // Unread notifications by e-mail (NOTIFICATIONS_EMAIL_SCHEDULER, by default as
  // WARNINGS_SCHEDULER).
  const notificacoesEmail = config.notificacoes.scheduler
    ? startNotificacoesScheduler({
        db: database.db,
        mailer,
        appUrl: config.appUrl,
        log: logger,
        atrasoMinutos: config.notificacoes.emailAtrasoMinutos,
        intervalMs: config.notificacoes.verificacaoSegundos * 1000,
      })
    : null

  // `npm run backup` asks this server for a copy of the embedded database.
  const pararControle = database.dump
    ? await startControlSocket({ dataDir: config.dataDir, dump: database.dump, log: logger })
    : null

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    logger.info(`${signal} received, closing`)
    try {
      await agendador?.stop()
      await pararControle?.()
      await notificacoesEmail?.stop()
      await varredura.stop()
      await retencao.stop()
      await leiturasPendentes.stop()
      await app.close()
      await presenca.release()
      mailer.close()
      await database.close()
    } finally {
      unlock()
      process.exit(0)
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))

  await app.listen({ port: config.port, host: config.host })
  logger.info(`Portal do Cliente em ${config.appUrl} (banco: ${database.kind})`)
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
