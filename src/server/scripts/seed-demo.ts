// `npm run seed:demo`: fills an installation with a realistic catalogue of Brazilian environmental
// licensing and a few demo clients with services (the data: `demo-dados.ts`). Idempotent: rows
// are matched by name (clients by documento), so running it again adds only what is missing.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { and, eq, isNull, sql } from 'drizzle-orm'
import pino from 'pino'
import {
  createAuth,
  createConfirmedAccount,
  enrolTwoFactorDirectly,
  ensureAdmin,
  type Auth,
} from '../auth/auth.ts'
import { ConfigError, parseConfig } from '../config.ts'
import { openDatabase, type Db } from '../db/client.ts'
import {
  categorias,
  clientes,
  empresa,
  orgaos,
  schedules,
  servicos,
  status,
  tiposDocumentos,
  tiposServicos,
  tiposServicosTiposDocumentos,
  user,
} from '../db/schema.ts'
import { seedStatuses } from '../db/seed.ts'
import { createMailer } from '../mail/mailer.ts'
import { loadSecret, lockDataDir } from '../runtime.ts'
import { addDays, today } from '#shared/datas.ts'
import { isValidDocumento } from '#shared/documento.ts'
import { composeEndereco } from '#shared/schemas/clientes.ts'
import {
  CATEGORIAS,
  CLIENTES,
  EMPRESA,
  ORGAOS,
  REGRAS,
  RENOVAR_120,
  VALIDADE_DOCUMENTOS,
  SCHEDULES,
  TIPOS_DOCUMENTOS,
  TIPOS_SERVICOS,
} from './demo-dados.ts'

/** The password of every demo account (printed at the end). */
export const DEMO_PASSWORD = 'demo12345'

export type SeedDemoSummary = {
  categorias: number
  tiposServicos: number
  tiposDocumentos: number
  regras: number
  schedules: number
  orgaos: number
  clientes: number
  servicos: number
  contas: string[]
}

/** Adds what is missing of the demo catalogue and clients; returns how many rows it created. */
export async function seedDemo(db: Db, auth: Auth, now = today()): Promise<SeedDemoSummary> {
  const summary: SeedDemoSummary = {
    categorias: 0,
    tiposServicos: 0,
    tiposDocumentos: 0,
    regras: 0,
    schedules: 0,
    orgaos: 0,
    clientes: 0,
    servicos: 0,
    contas: [],
  }

  // An installation's own "Dados da empresa" is never replaced.
  await db.insert(empresa).values(EMPRESA).onConflictDoNothing()

  const categoriaIds = new Map<string, string>()
  for (const c of CATEGORIAS) {
    const [found] = await db
      .select({ id: categorias.id })
      .from(categorias)
      .where(eq(categorias.nome, c.nome))
    if (found) categoriaIds.set(c.nome, found.id)
    else {
      const [row] = await db.insert(categorias).values(c).returning({ id: categorias.id })
      categoriaIds.set(c.nome, row.id)
      summary.categorias++
    }
  }

  const tipoIds = new Map<string, string>()
  for (const [tipo, categoria, validade, mensagem_aviso] of TIPOS_SERVICOS) {
    const [found] = await db
      .select({ id: tiposServicos.id })
      .from(tiposServicos)
      .where(eq(tiposServicos.tipo, tipo))
    // A renewal filed at least 120 days before the end (LC 140/2011 art. 14 § 4)
    const antecedencia_renovacao = mensagem_aviso === RENOVAR_120 ? 120 : null
    if (found) {
      tipoIds.set(tipo, found.id)
      if (antecedencia_renovacao)
        await db
          .update(tiposServicos)
          .set({ antecedencia_renovacao })
          .where(and(eq(tiposServicos.id, found.id), isNull(tiposServicos.antecedencia_renovacao)))
    } else {
      const [row] = await db
        .insert(tiposServicos)
        .values({
          tipo,
          categoria_id: categoriaIds.get(categoria) ?? null,
          validade,
          ativo: true,
          mensagem_aviso,
          antecedencia_renovacao,
        })
        .returning({ id: tiposServicos.id })
      tipoIds.set(tipo, row.id)
      summary.tiposServicos++
    }
  }

  const documentoIds = new Map<string, string>()
  for (const tipo of TIPOS_DOCUMENTOS) {
    const [found] = await db
      .select({ id: tiposDocumentos.id })
      .from(tiposDocumentos)
      .where(eq(tiposDocumentos.tipo, tipo))
    const validade_dias = VALIDADE_DOCUMENTOS[tipo] ?? null
    if (found) {
      documentoIds.set(tipo, found.id)
      if (validade_dias)
        await db
          .update(tiposDocumentos)
          .set({ validade_dias })
          .where(and(eq(tiposDocumentos.id, found.id), isNull(tiposDocumentos.validade_dias)))
    } else {
      const [row] = await db
        .insert(tiposDocumentos)
        .values({ tipo, validade_dias })
        .returning({ id: tiposDocumentos.id })
      documentoIds.set(tipo, row.id)
      summary.tiposDocumentos++
    }
  }

  for (const [tipo, documentos] of Object.entries(REGRAS)) {
    const inserted = await db
      .insert(tiposServicosTiposDocumentos)
      .values(
        documentos.map((d) => ({
          tipo_servico_id: tipoIds.get(tipo)!,
          tipo_documento_id: documentoIds.get(d)!,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: tiposServicosTiposDocumentos.id })
    summary.regras += inserted.length
  }

  for (const s of SCHEDULES) {
    const [found] = await db
      .select({ id: schedules.id })
      .from(schedules)
      .where(eq(schedules.avisar, s.avisar))
    if (!found) {
      await db.insert(schedules).values(s)
      summary.schedules++
    }
  }

  // "Órgãos ambientais" by sigla (the unique key, ignoring case and accents).
  const orgaosNovos = await db
    .insert(orgaos)
    .values(ORGAOS)
    .onConflictDoNothing()
    .returning({ id: orgaos.id })
  summary.orgaos += orgaosNovos.length

  const statusIds = new Map(
    (await db.select({ id: status.id, nome: status.nome }).from(status)).map((s) => [s.nome, s.id]),
  )
  for (const demo of CLIENTES) {
    if (!isValidDocumento(demo.documento))
      throw new Error(`demo documento inválido: ${demo.documento}`)
    summary.contas.push(demo.email)
    const [found] = await db
      .select({ id: clientes.id })
      .from(clientes)
      .where(eq(clientes.documento, demo.documento))
    if (found) continue
    const [existing] = await db
      .select({ id: user.id })
      .from(user)
      .where(sql`lower(${user.email}) = ${demo.email}`)
    const userId =
      existing?.id ?? (await createConfirmedAccount(auth, demo.email, DEMO_PASSWORD)).id
    const { servicos: demoServicos, ...dados } = demo
    const endereco = composeEndereco({ ...dados, complemento: null })
    const [cliente] = await db
      .insert(clientes)
      .values({ ...dados, user_id: userId, endereco })
      .onConflictDoNothing()
      .returning({ id: clientes.id })
    if (!cliente) continue
    summary.clientes++
    for (const s of demoServicos) {
      const inicio = addDays(now, s.inicioDias)
      const validade = TIPOS_SERVICOS.find(([tipo]) => tipo === s.tipo)![2]
      await db.insert(servicos).values({
        cliente_id: cliente.id,
        tipo_servico_id: tipoIds.get(s.tipo)!,
        vigencia_inicio: inicio,
        vigencia_fim: addDays(inicio, validade),
        status_id: statusIds.get(s.status) ?? null,
        protocolo: s.protocolo,
        detalhes: s.detalhes ?? null,
        emails_interessados: demo.email,
      })
      summary.servicos++
    }
  }
  return summary
}

/** Counts used by the test and the final line of the script. */
export async function demoCounts(db: Db) {
  const countOf = async (
    table:
      | typeof categorias
      | typeof tiposServicos
      | typeof tiposDocumentos
      | typeof schedules
      | typeof orgaos
      | typeof tiposServicosTiposDocumentos,
  ) => (await db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n
  const demoDocs = CLIENTES.map((c) => c.documento)
  const [{ n: clientesDemo }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(clientes)
    .where(sql`${clientes.documento} in ${demoDocs}`)
  const [{ n: servicosDemo }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(servicos)
    .innerJoin(
      clientes,
      and(eq(clientes.id, servicos.cliente_id), sql`${clientes.documento} in ${demoDocs}`),
    )
  return {
    categorias: await countOf(categorias),
    tiposServicos: await countOf(tiposServicos),
    tiposDocumentos: await countOf(tiposDocumentos),
    regras: await countOf(tiposServicosTiposDocumentos),
    schedules: await countOf(schedules),
    orgaos: await countOf(orgaos),
    clientesDemo,
    servicosDemo,
  }
}

/**
 * With ADMIN_EMAIL and ADMIN_PASSWORD: the demo administrator (the same the server makes at
 * start-up), with its second factor enrolled on a new key that is printed, so a demo (or a
 * screenshot script) signs in without the enrolment screen. An administrator who already has one
 * keeps it (the key cannot be shown again; `npm run admin:reset-2fa` starts over).
 */
export async function seedDemoAdmin(db: Db, auth: Auth, email: string, password: string) {
  const { userId } = await ensureAdmin(auth, db, email, password)
  const [row] = await db
    .select({ twoFactorEnabled: user.twoFactorEnabled })
    .from(user)
    .where(eq(user.id, userId))
  if (row?.twoFactorEnabled)
    return `Administrador ${email}: a verificação em duas etapas já estava ativa (chave mantida).`
  const { key } = await enrolTwoFactorDirectly(auth, db, userId)
  return (
    `Administrador ${email} (senha de ADMIN_PASSWORD), verificação em duas etapas ativa.\n` +
    `  Chave do autenticador (TOTP, base32): ${key}\n` +
    '  Cadastre-a num aplicativo autenticador para gerar o código de 6 dígitos do login.'
  )
}

async function main() {
  const config = parseConfig()
  // PGlite allows one process per data directory: refuse while the server runs on it.
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir)
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pgdata'),
  })
  try {
    await database.migrate()
    await seedStatuses(database.db)
    const log = pino({ level: 'warn' })
    const mailer = createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'mail'),
      log,
    })
    const auth = createAuth({
      db: database.db,
      appUrl: config.appUrl,
      secret: loadSecret(config.dataDir, config.authSecret),
      mailer,
    })
    const s = await seedDemo(database.db, auth)
    mailer.close()
    console.log(
      `Dados de demonstração adicionados: ${s.categorias} categorias, ${s.tiposServicos} tipos de serviço, ` +
        `${s.tiposDocumentos} tipos de documento, ${s.regras} regras, ${s.schedules} agendamentos, ` +
        `${s.orgaos} órgãos ambientais, ` +
        `${s.clientes} clientes e ${s.servicos} serviços (o que já existia foi mantido).`,
    )
    console.log(`Contas de demonstração (senha "${DEMO_PASSWORD}"):\n  ${s.contas.join('\n  ')}`)
    if (config.adminEmail && config.adminPassword)
      console.log(await seedDemoAdmin(database.db, auth, config.adminEmail, config.adminPassword))
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
