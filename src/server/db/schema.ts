// Every table in one file, on purpose (over 800 lines): drizzle-kit generates the migrations from
// this one file (drizzle.config.ts), and the tables refer to each other across every area (foreign
// keys, the read model's triggers). Its sections, in order: better-auth's tables, the portal's
// tables (SPEC §3), the dashboard's read model, notifications, LGPD, condicionantes, messages,
// the process at the agency.
import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

import { TIPOS_NOTIFICACAO } from '../../shared/notificacoes.ts'
import { ACOES_AUDITORIA } from '../../shared/schemas/auditoria.ts'
import { CONSELHOS, ESFERAS, ETAPAS } from '../../shared/processo.ts'

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

// ---- better-auth tables (its documented core schema; JS keys are the names it expects) ----

export const user = pgTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** better-auth's twoFactor plugin: the account signs in with a TOTP code after the password. */
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
})

export const session = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /**
     * Opened after the second factor's code (a sign-in's, or the enrolment's own): the only
     * sessions auth/session.ts accepts for an account with the second factor on.
     */
    doisFatores: boolean('dois_fatores').notNull().default(false),
  },
  (t) => [index('session_user_id_idx').on(t.userId)],
)

export const account = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_user_id_idx').on(t.userId)],
)

export const verification = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
)

/**
 * better-auth's twoFactor plugin: the account's TOTP secret and recovery codes (both encrypted with
 * the auth secret); `verified` is false while an enrolment waits for its first code.
 */
export const twoFactor = pgTable(
  'two_factor',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    verified: boolean('verified').notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** The TOTP time step (Unix time / 30 s) of the last code accepted: a code is used once. */
    ultimoPasso: bigint('ultimo_passo', { mode: 'number' }),
  },
  (t) => [uniqueIndex('two_factor_user_id_idx').on(t.userId)],
)

/**
 * The devices an account has signed in from (auth/new-device.ts): browser, system and network
 * of the address, as one key. A sign-in from a key not listed here sends "Novo acesso à sua
 * conta" (except the account's first one).
 */
export const dispositivosConhecidos = pgTable(
  'dispositivos_conhecidos',
  {
    user_id: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    chave: text('chave').notNull(),
    visto_em: timestamp('visto_em', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.chave] })],
)

export const rateLimit = pgTable('rate_limit', {
  id: text('id').primaryKey(),
  key: text('key').notNull().unique(),
  count: integer('count').notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
})

/**
 * The portal's own limits on sign-in, sign-up, reset and password change (auth/rate-limit.ts):
 * one row per key (`<action>|ip|<address>` or `<action>|email|<sha-256 of the address>`), counted in a fixed
 * window that ends at `reset_at`. In the database so that every server process shares them.
 */
export const authRateLimit = pgTable(
  'auth_rate_limit',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    reset_at: timestamp('reset_at', { withTimezone: true }).notNull(),
    /**
     * Growing delays (the per-account keys of strangers' browsers): no attempt is counted before
     * this time; `ultima` is when the last one was (rate-limit.ts).
     */
    proxima: timestamp('proxima', { withTimezone: true }),
    ultima: timestamp('ultima', { withTimezone: true }),
  },
  (t) => [index('auth_rate_limit_reset_at_idx').on(t.reset_at)],
)

// ---- portal tables (names as SPEC §3 spells them, the same in zod, JSON and forms) ----

export const userRoles = pgTable(
  'user_roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .unique()
      .references(() => user.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['admin', 'usuario'] }).notNull(),
    created_at: createdAt(),
  },
  (t) => [check('user_roles_role_check', sql`${t.role} in ('admin', 'usuario')`)],
)

export const clientes = pgTable(
  'clientes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .unique()
      .references(() => user.id, { onDelete: 'set null' }),
    nome: text('nome').notNull(),
    // Stored normalised: digits for CPF/CNPJ, upper-case letters and digits for the alphanumeric CNPJ.
    documento: text('documento').notNull().unique(),
    email: text('email').notNull(),
    nascimento: date('nascimento'),
    telefone: text('telefone'),
    cep: text('cep'),
    logradouro: text('logradouro'),
    complemento: text('complemento'),
    bairro: text('bairro'),
    localidade: text('localidade'),
    uf: text('uf'),
    endereco: text('endereco'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('clientes_email_lower_idx').on(sql`lower(${t.email})`),
    index('clientes_created_at_idx').on(t.created_at),
  ],
)

/**
 * A catalogue's name is unique ignoring case and accents ("Licença" = "licenca"): a unique index
 * on portal_nome_chave(name), the immutable lower(unaccent()) of migration 0010.
 */
const nomeChave = (column: AnyPgColumn) => sql`portal_nome_chave(${column})`

export const categorias = pgTable(
  'categorias',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nome: text('nome').notNull(),
    descricao: text('descricao'),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('categorias_nome_chave_idx').on(nomeChave(t.nome))],
)

export const status = pgTable(
  'status',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nome: text('nome').notNull(),
    descricao: text('descricao'),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('status_nome_chave_idx').on(nomeChave(t.nome))],
)

export const tiposServicos = pgTable(
  'tipos_servicos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tipo: text('tipo').notNull(),
    categoria_id: uuid('categoria_id').references(() => categorias.id, { onDelete: 'restrict' }),
    validade: integer('validade').notNull(),
    ativo: boolean('ativo').notNull().default(true),
    mensagem_aviso: text('mensagem_aviso'),
    /**
     * Days before the end date by which the renewal must be filed (e.g. 120 for an
     * operating licence); the warnings job adds a warning at that many days for its services.
     */
    antecedencia_renovacao: integer('antecedencia_renovacao'),
    created_at: createdAt(),
  },
  (t) => [
    index('tipos_servicos_categoria_idx').on(t.categoria_id),
    uniqueIndex('tipos_servicos_tipo_chave_idx').on(nomeChave(t.tipo)),
    check('tipos_servicos_validade_check', sql`${t.validade} >= 0`),
    check('tipos_servicos_antecedencia_check', sql`${t.antecedencia_renovacao} between 1 and 3650`),
  ],
)

export const tiposDocumentos = pgTable(
  'tipos_documentos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tipo: text('tipo').notNull(),
    /**
     * "Validade do documento (dias)": an approved file of this type is valid that many days
     * from its upload (null: it never expires; a certidão negativa 30-180 days).
     */
    validade_dias: integer('validade_dias'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('tipos_documentos_tipo_chave_idx').on(nomeChave(t.tipo)),
    check('tipos_documentos_validade_check', sql`${t.validade_dias} between 1 and 36500`),
  ],
)

export const tiposServicosTiposDocumentos = pgTable(
  'tipos_servicos_tipos_documentos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tipo_servico_id: uuid('tipo_servico_id')
      .notNull()
      .references(() => tiposServicos.id, { onDelete: 'cascade' }),
    tipo_documento_id: uuid('tipo_documento_id')
      .notNull()
      .references(() => tiposDocumentos.id, { onDelete: 'restrict' }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('regra_tipo_servico_tipo_documento_idx').on(t.tipo_servico_id, t.tipo_documento_id),
  ],
)

export const servicos = pgTable(
  'servicos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    cliente_id: uuid('cliente_id')
      .notNull()
      .references(() => clientes.id, { onDelete: 'restrict' }),
    tipo_servico_id: uuid('tipo_servico_id')
      .notNull()
      .references(() => tiposServicos.id, { onDelete: 'restrict' }),
    vigencia_inicio: date('vigencia_inicio'),
    vigencia_fim: date('vigencia_fim'),
    status_id: uuid('status_id').references(() => status.id, { onDelete: 'restrict' }),
    protocolo: text('protocolo'),
    detalhes: text('detalhes'),
    anotacoes: text('anotacoes'),
    notificacao: text('notificacao'),
    emails_interessados: text('emails_interessados'),
    emails_tecnicos: text('emails_tecnicos'),
    visualizado_admin: boolean('visualizado_admin').notNull().default(false),
    /** Who created it: the administration, or the client's own request (quota). */
    origem: text('origem', { enum: ['admin', 'cliente'] })
      .notNull()
      .default('admin'),
    /**
     * The licence this service renews ("Renovar" / "Solicitar renovação"): "Renovação de …" on
     * this one, "Renovada por …" on that one. A licence is renewed once (unique).
     */
    renovacao_de: uuid('renovacao_de').references((): AnyPgColumn => servicos.id, {
      onDelete: 'set null',
    }),
    created_at: createdAt(),
  },
  (t) => [
    check('servicos_origem_check', sql`${t.origem} in ('admin', 'cliente')`),
    uniqueIndex('servicos_renovacao_de_idx').on(t.renovacao_de),
    index('servicos_cliente_created_idx').on(t.cliente_id, t.created_at),
    index('servicos_created_at_idx').on(t.created_at),
    index('servicos_status_idx').on(t.status_id),
    index('servicos_tipo_servico_idx').on(t.tipo_servico_id),
    index('servicos_protocolo_idx').on(t.protocolo),
    // By end date; the calendar walks it in (date, id) order.
    index('servicos_vigencia_fim_idx').on(t.vigencia_fim, t.id),
  ],
)

/**
 * The last protocol number given in each year: new protocols read '2026-000001',
 * made by portal_novo_protocolo() of migration 0010, which bumps this row atomically.
 */
export const protocolosSequencia = pgTable('protocolos_sequencia', {
  ano: integer('ano').primaryKey(),
  ultimo: integer('ultimo').notNull(),
})

/**
 * A document of a service: one per (service, type, side). `enviado_por` is the side: the
 * consultancy's documents ('admin') and the client's required documents ('cliente') never share
 * a row, so neither side can overwrite the other's file. Its files are its versions
 * (`documento_versoes`); `status_id` is SPEC's original status link, shown on the consultancy's
 * documents only (a client document's review state lives on its versions).
 */
export const servicosTiposDocumentos = pgTable(
  'servicos_tipos_documentos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    servico_id: uuid('servico_id')
      .notNull()
      .references(() => servicos.id, { onDelete: 'cascade' }),
    tipo_documento_id: uuid('tipo_documento_id')
      .notNull()
      .references(() => tiposDocumentos.id, { onDelete: 'restrict' }),
    status_id: uuid('status_id').references(() => status.id, { onDelete: 'set null' }),
    visivel_usuario: boolean('visivel_usuario').notNull().default(true),
    tipo_documento: text('tipo_documento'),
    enviado_por: text('enviado_por', { enum: ['admin', 'cliente'] })
      .notNull()
      .default('admin'),
    /**
     * The analysts' document search: the words of its type and of its current file's name
     * (without the extension), and when that file was sent; kept by triggers of migration 0026
     * (`documentos_busca_refresh`), never written by the app.
     */
    termos: tsvector('termos'),
    /**
     * Every pair of those words that begin with a letter and have two characters or more
     * ('contrato.laudo'; migration 0051): two words typed are asked of the GIN index as a pair.
     */
    pares: tsvector('pares'),
    enviado_em: timestamp('enviado_em', { withTimezone: true }),
  },
  (t) => [
    index('documentos_termos_idx').using('gin', t.termos).with({ gin_pending_list_limit: 64 }),
    index('documentos_pares_idx').using('gin', t.pares).with({ gin_pending_list_limit: 64 }),
    // The search's order (newest file first): a word in most documents walks it. Migration 0049
    // adds INCLUDE (termos), which this builder cannot say: the walk tests the words in the index.
    index('documentos_enviado_idx')
      .on(t.enviado_em.desc(), t.id.desc())
      .where(sql`${t.enviado_em} is not null`),
    uniqueIndex('documento_servico_tipo_lado_idx').on(
      t.servico_id,
      t.tipo_documento_id,
      t.enviado_por,
    ),
    check('documento_enviado_por_check', sql`${t.enviado_por} in ('admin', 'cliente')`),
  ],
)

/**
 * Every file ever sent for a document: an upload is a new version, the previous one is
 * kept. `atual` marks the newest (one per document). A client's version carries its review:
 * `enviado` (waiting for review), `aprovado`, `rejeitado` (with `motivo`), or `substituido` (a
 * newer version came before any review); the consultancy's versions have no review (null).
 * `sha256` and `tamanho` are null only for files stored before versions existed.
 */
export const documentoVersoes = pgTable(
  'documento_versoes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The document it is a version of; or, for an entrega's evidence, `entrega_id` (one of both). */
    documento_id: uuid('documento_id').references(() => servicosTiposDocumentos.id, {
      onDelete: 'cascade',
    }),
    /**
     * An evidence file of a condicionante's entrega ("Enviar evidência"): one send is one or more
     * versions with the sender's `comentario`; the review states are the documents' own.
     */
    entrega_id: uuid('entrega_id').references((): AnyPgColumn => condicionantesEntregas.id, {
      onDelete: 'cascade',
    }),
    comentario: text('comentario'),
    /**
     * The stored key. Not unique: a renewal's reused document names the same file as the
     * previous licence's version (`reaproveitada`); a file is removed only when no version names
     * it any more (`deleteWithFiles`).
     */
    caminho: text('caminho').notNull(),
    tamanho: bigint('tamanho', { mode: 'number' }),
    sha256: text('sha256'),
    enviado_por: text('enviado_por', { enum: ['admin', 'cliente'] }).notNull(),
    user_id: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    atual: boolean('atual').notNull().default(true),
    /** `vencido`: an approved file whose type's validity ended while its service was open. */
    estado: text('estado', {
      enum: ['enviado', 'aprovado', 'rejeitado', 'substituido', 'vencido'],
    }),
    motivo: text('motivo'),
    revisado_por: text('revisado_por').references(() => user.id, { onDelete: 'set null' }),
    revisado_em: timestamp('revisado_em', { withTimezone: true }),
    /** "Reaproveitado da licença anterior": an approved version copied by a renewal. */
    reaproveitada: boolean('reaproveitada').notNull().default(false),
  },
  (t) => [
    index('documento_versoes_caminho_idx').on(t.caminho),
    uniqueIndex('documento_versoes_atual_idx')
      .on(t.documento_id)
      .where(sql`${t.atual}`),
    index('documento_versoes_documento_idx').on(t.documento_id, t.created_at),
    // The review queue and its count: only current client versions are ever 'enviado'.
    index('documento_versoes_em_analise_idx')
      .on(t.created_at, t.id)
      .where(sql`${t.estado} = 'enviado' and ${t.documento_id} is not null`),
    index('documento_versoes_entrega_idx')
      .on(t.entrega_id, t.created_at)
      .where(sql`${t.entrega_id} is not null`),
    check(
      'documento_versoes_dono_check',
      sql`(${t.documento_id} is null) <> (${t.entrega_id} is null)`,
    ),
    check('documento_versoes_enviado_por_check', sql`${t.enviado_por} in ('admin', 'cliente')`),
    check(
      'documento_versoes_estado_check',
      sql`${t.estado} in ('enviado', 'aprovado', 'rejeitado', 'substituido', 'vencido')`,
    ),
  ],
)

export const avisos = pgTable(
  'avisos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    servico_id: uuid('servico_id')
      .notNull()
      .references(() => servicos.id, { onDelete: 'cascade' }),
    texto: text('texto').notNull(),
    data_limite: date('data_limite').notNull(),
    resolvido: boolean('resolvido').notNull().default(false),
    /**
     * Shown to the client (default for new avisos, also the automatic ones); an
     * internal aviso never leaves the back office. Avisos older than the flag became internal.
     */
    visivel_cliente: boolean('visivel_cliente').notNull().default(true),
    /** When the client marked it 'Concluído' (it is then resolved); cleared when reopened. */
    concluido_cliente_em: timestamp('concluido_cliente_em', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [
    index('avisos_servico_created_idx').on(t.servico_id, t.created_at),
    index('avisos_abertos_idx')
      .on(t.servico_id)
      .where(sql`${t.resolvido} = false`),
    // The calendar: open avisos by their limit date (and id, its order).
    index('avisos_abertos_limite_idx')
      .on(t.data_limite, t.id)
      .where(sql`${t.resolvido} = false`),
  ],
)

export const schedules = pgTable(
  'schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    avisar: integer('avisar').notNull(),
    mensagem: text('mensagem').notNull(),
    created_at: createdAt(),
  },
  (t) => [check('schedules_avisar_check', sql`${t.avisar} >= 1`)],
)

/**
 * One automatic warning per (service, schedule, end date). The unique
 * key makes the daily job idempotent, also with several instances running it at once; a new end
 * date (a renewed licence) is a new key, so its warnings come again. A null `schedule_id` is the
 * lead time of the service's type (`antecedencia_renovacao`): nulls are not distinct in
 * the key, so it is claimed once per service and end date as well.
 * - `pendente`: the aviso exists and its e-mail still has to go (or failed and is retried);
 * - `enviado`: the e-mail went to every valid address;
 * - `substituido`: a closer warning of the same service was due in the same run (a catch-up after
 *   missed days sends the closest one only).
 */
export const avisosAutomaticos = pgTable(
  'avisos_automaticos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    servico_id: uuid('servico_id')
      .notNull()
      .references(() => servicos.id, { onDelete: 'cascade' }),
    schedule_id: uuid('schedule_id').references(() => schedules.id, { onDelete: 'cascade' }),
    vigencia_fim: date('vigencia_fim').notNull(),
    /** The schedule's days when the warning was due (a schedule may be edited later). */
    avisar: integer('avisar').notNull(),
    aviso_id: uuid('aviso_id').references(() => avisos.id, { onDelete: 'set null' }),
    situacao: text('situacao', { enum: ['pendente', 'enviado', 'substituido'] }).notNull(),
    /** Addresses still to be sent after a failed attempt; null before the first attempt. */
    pendentes: text('pendentes').array(),
    tentativas: integer('tentativas').notNull().default(0),
    ultimo_erro: text('ultimo_erro'),
    /** While an instance sends this warning's e-mail, the others leave it alone until then. */
    travado_ate: timestamp('travado_ate', { withTimezone: true }),
    /** Who holds the lease (runtime.ts `currentProcess()`, JSON): a dead holder's lease is freed. */
    travado_por: text('travado_por'),
    enviado_em: timestamp('enviado_em', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [
    unique('avisos_automaticos_chave')
      .on(t.servico_id, t.schedule_id, t.vigencia_fim)
      .nullsNotDistinct(),
    index('avisos_automaticos_aviso_idx').on(t.aviso_id),
    index('avisos_automaticos_pendentes_idx')
      .on(t.servico_id)
      .where(sql`${t.situacao} = 'pendente'`),
    check(
      'avisos_automaticos_situacao_check',
      sql`${t.situacao} in ('pendente', 'enviado', 'substituido')`,
    ),
  ],
)

/**
 * The renewal protocol of a licence (LC 140/2011, art. 14, §4º): when and under which process
 * number the renewal was filed at the agency. One per service; "Editar protocolo" corrects it.
 * Filed by the deadline (`src/shared/renovacao.ts`) the service gets the status 'Em renovação'
 * and leaves the warnings job; `status_anterior_id` is the status it had before, given back if a
 * correction makes the protocol late. Its receipt ("Comprovante") is a document of the service.
 */
export const renovacoes = pgTable('renovacoes', {
  servico_id: uuid('servico_id')
    .primaryKey()
    .references(() => servicos.id, { onDelete: 'cascade' }),
  data_protocolo: date('data_protocolo').notNull(),
  numero_processo: text('numero_processo').notNull(),
  status_anterior_id: uuid('status_anterior_id').references(() => status.id, {
    onDelete: 'set null',
  }),
  created_at: createdAt(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * The renewal deadlines that passed without a protocol and were told to the administrators,
 * one per (service, deadline): the warnings job claims each with an insert that only one run
 * can make, so two servers running it at once notify once.
 */
export const renovacoesPrazosPerdidos = pgTable(
  'renovacoes_prazos_perdidos',
  {
    servico_id: uuid('servico_id')
      .notNull()
      .references(() => servicos.id, { onDelete: 'cascade' }),
    prazo: date('prazo').notNull(),
    created_at: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.servico_id, t.prazo] })],
)

/**
 * Each run of the warning job: the day it ran for, from which day it looked (the last completed
 * run's day, so missed days are caught up) and what it did. The last completed run tells whether
 * today's run is still due.
 */
export const avisosExecucoes = pgTable(
  'avisos_execucoes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    dia: date('dia').notNull(),
    desde: date('desde').notNull(),
    origem: text('origem', { enum: ['agendada', 'manual'] }).notNull(),
    avisos_criados: integer('avisos_criados').notNull().default(0),
    emails_enviados: integer('emails_enviados').notNull().default(0),
    falhas: integer('falhas').notNull().default(0),
    servicos_vencidos: integer('servicos_vencidos').notNull().default(0),
    iniciada_em: timestamp('iniciada_em', { withTimezone: true }).notNull().defaultNow(),
    concluida_em: timestamp('concluida_em', { withTimezone: true }),
  },
  (t) => [
    index('avisos_execucoes_concluidas_idx')
      .on(t.dia)
      .where(sql`${t.concluida_em} is not null`),
    check('avisos_execucoes_origem_check', sql`${t.origem} in ('agendada', 'manual')`),
  ],
)

/** Each notification e-mail sent for a service ("Enviar Email"), kept as the service's history. */
export const enviosEmail = pgTable(
  'envios_email',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    servico_id: uuid('servico_id')
      .notNull()
      .references(() => servicos.id, { onDelete: 'cascade' }),
    assunto: text('assunto').notNull(),
    destinatarios: text('destinatarios').array().notNull(),
    enviados: integer('enviados').notNull(),
    falhas: integer('falhas').notNull(),
    erro: text('erro'),
    origem: text('origem', { enum: ['manual', 'automatico'] })
      .notNull()
      .default('manual'),
    /**
     * A manual sending is recorded before its first e-mail. `pendentes` are the
     * addresses not yet tried (null once finished); `trava` and `travado_ate` lease the sending
     * to the request that works on it; `conteudo` (sha-256 of the template) lets a retry of the
     * same sending resume it instead of sending again to whoever already received it.
     */
    pendentes: text('pendentes').array(),
    trava: uuid('trava'),
    travado_ate: timestamp('travado_ate', { withTimezone: true }),
    conteudo: text('conteudo'),
    created_at: createdAt(),
  },
  (t) => [
    index('envios_email_servico_idx').on(t.servico_id, t.created_at),
    // One unfinished sending per service: a double click cannot send twice.
    uniqueIndex('envios_email_em_andamento_idx')
      .on(t.servico_id)
      .where(sql`${t.pendentes} is not null`),
  ],
)

// ---- dashboard read model: maintained by triggers, never written by the app ----

/**
 * One row per service with what the global dashboard filters and sorts on: the search words
 * (client name, service type and protocol, lower-case and without accents, plus every tail of
 * the protocol's digits), the category of its type and whether its status is 'Arquivado'.
 * Triggers on servicos, clientes, tipos_servicos and status keep it in step (migrations 0003 and
 * 0007), so a page is an index range scan.
 */
export const servicosPainel = pgTable(
  'servicos_painel',
  {
    servico_id: uuid('servico_id')
      .primaryKey()
      .references(() => servicos.id, { onDelete: 'cascade' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull(),
    termos: tsvector('termos').notNull(),
    categoria_id: uuid('categoria_id'),
    status_id: uuid('status_id'),
    arquivado: boolean('arquivado').notNull(),
    vigencia_fim: date('vigencia_fim'),
    /** Client documents waiting for review (kept by the triggers of migration 0008). */
    documentos_em_analise: integer('documentos_em_analise').notNull().default(0),
    /** "Processo no órgão": its agency and stage (kept by the triggers on processos). */
    orgao_id: uuid('orgao_id'),
    etapa: text('etapa', { enum: ETAPAS }),
  },
  (t) => [
    index('servicos_painel_em_analise_idx')
      .on(t.created_at, t.servico_id)
      .where(sql`${t.documentos_em_analise} > 0`),
    index('servicos_painel_created_idx').on(t.created_at, t.servico_id),
    index('servicos_painel_status_created_idx').on(t.status_id, t.created_at, t.servico_id),
    index('servicos_painel_categoria_created_idx').on(t.categoria_id, t.created_at, t.servico_id),
    index('servicos_painel_orgao_created_idx').on(t.orgao_id, t.created_at, t.servico_id),
    index('servicos_painel_etapa_created_idx').on(t.etapa, t.created_at, t.servico_id),
    index('servicos_painel_vigencia_idx')
      .on(t.vigencia_fim, t.servico_id, t.categoria_id, t.status_id)
      .where(sql`${t.arquivado} = false`),
    // A short pending list (64 kB, migration 0017): a search reads all of it.
    index('servicos_painel_termos_idx').using('gin', t.termos).with({ gin_pending_list_limit: 64 }),
    // Each word beginning with a letter tagged with the row's month of creation ('202511.silva',
    // migration 0042): a search in many services reads only its newest months' lists.
    index('servicos_painel_termos_mes_idx')
      .using('gin', sql`portal_termos_mes(${t.termos}, ${t.created_at})`)
      .with({ gin_pending_list_limit: 64 }),
  ],
)

/**
 * The calendar's "Prazo para renovação" of each service whose type has a lead time: its end
 * date minus that lead time, kept by the triggers of migration 0033 (on servicos and
 * tipos_servicos), so a period's renewal deadlines are one index range read in date order.
 */
export const servicosPrazos = pgTable(
  'servicos_prazos',
  {
    servico_id: uuid('servico_id')
      .primaryKey()
      .references(() => servicos.id, { onDelete: 'cascade' }),
    prazo_renovacao: date('prazo_renovacao').notNull(),
  },
  (t) => [index('servicos_prazos_renovacao_idx').on(t.prazo_renovacao, t.servico_id)],
)

/**
 * The "Calendário de prazos" read model: one row per event (a licence's end, its renewal
 * deadline, an open aviso, an unanswered exigência, an entrega still to deliver; `chave` is the
 * item's id) with what the answer shows and its service's client, type and status, kept by the
 * statement triggers of migration 0037 from those sources (never written by the app), so a
 * period is one range of an index in the answer's order.
 */
export const calendarioEventos = pgTable(
  'calendario_eventos',
  {
    tipo: text('tipo').notNull(),
    chave: uuid('chave').notNull(),
    data: date('data').notNull(),
    titulo: text('titulo').notNull(),
    servico_id: uuid('servico_id').notNull(),
    cliente_id: uuid('cliente_id').notNull(),
    tipo_servico_id: uuid('tipo_servico_id').notNull(),
    status_id: uuid('status_id'),
    /** "Licença de Operação (2026-000012)": the type's name and the protocol. */
    servico: text('servico').notNull(),
    /** The client's name. */
    cliente: text('cliente').notNull(),
    /** Shown to the client (an aviso's or a condicionante's visibility; the others are). */
    visivel: boolean('visivel').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tipo, t.chave] }),
    // Migration 0037 makes it INCLUDE the columns the office's answer reads (index-only).
    index('calendario_eventos_data_idx').on(t.data, t.tipo, t.chave),
    index('calendario_eventos_cliente_idx').on(t.cliente_id, t.data, t.tipo, t.chave),
    index('calendario_eventos_servico_idx').on(t.servico_id),
  ],
)

/**
 * The number of the Calendário's events by day, kind, service status and visibility, kept by
 * statement triggers on `calendario_eventos` in the writing transaction (migration 0038): the
 * month's grid of the whole office sums a few hundred of these instead of counting thousands of
 * events. Rows that fall to 0 stay (a sum reads them as nothing).
 */
export const calendarioContagem = pgTable(
  'calendario_contagem',
  {
    data: date('data').notNull(),
    tipo: text('tipo').notNull(),
    status_id: uuid('status_id'),
    visivel: boolean('visivel').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [
    unique('calendario_contagem_chave')
      .on(t.data, t.tipo, t.status_id, t.visivel)
      .nullsNotDistinct(),
  ],
)

/**
 * The dashboard's data version, in 16 parts so concurrent writers rarely wait on each other:
 * every statement that changes servicos_painel adds one to its part, in its own transaction.
 * The sum is a snapshot's version: a search total counted once is reused until it changes.
 */
export const servicosPainelVersao = pgTable('servicos_painel_versao', {
  parte: integer('parte').primaryKey(),
  versao: bigint('versao', { mode: 'number' }).notNull(),
})

/**
 * Every word of the dashboard search that begins with a letter and the number of
 * services it is a word of (kept by the triggers of migration 0016; the column is in the "C"
 * collation, so a prefix is a range of the primary key). A typed prefix becomes its words.
 */
export const buscaPalavras = pgTable('busca_palavras', {
  palavra: text('palavra').primaryKey(),
  servicos: integer('servicos').notNull(),
})

/**
 * The dashboard search's words of a word that begins with a letter right before one that begins
 * with a digit ('prt.2025': the first word, '.', the second one's first four digits; migration
 * 0047), each with the number of services it is a word of, kept by the words' triggers apart from
 * `busca_palavras` (a typed letter prefix's range there never reads them: 'ambientais' before a
 * protocol's serial is 41,667 of them at 1,000,000 services). "C" collation, as there.
 */
export const buscaJuntas = pgTable('busca_juntas', {
  palavra: text('palavra').primaryKey(),
  servicos: integer('servicos').notNull(),
})

/**
 * The first three and four digits of the dashboard search's words that begin with a digit (a
 * protocol's numbers and their tails), each with the number of services that have a word with
 * that start (kept by the triggers of migration 0045): a search of three or four digits alone
 * reads its exact total here instead of counting its matches.
 */
export const buscaDigitos = pgTable('busca_digitos', {
  prefixo: text('prefixo').primaryKey(),
  servicos: integer('servicos').notNull(),
})

/**
 * The services that have a word beginning with each four digits of `busca_digitos`, in the
 * dashboard's order (kept by the same triggers, migration 0046): a search of four digits alone
 * reads its page here, ten entries of the key, however many services have those digits.
 */
export const buscaDigitosServicos = pgTable(
  'busca_digitos_servicos',
  {
    prefixo: text('prefixo').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull(),
    servico_id: uuid('servico_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.prefixo, t.created_at, t.servico_id] })],
)

/**
 * The same for the analysts' document search: every word that begins with a letter of the
 * documents with a file, and how many documents it is a word of (migration 0041).
 */
export const documentosPalavras = pgTable('documentos_palavras', {
  palavra: text('palavra').primaryKey(),
  documentos: integer('documentos').notNull(),
})

/**
 * Exact number of services per (category, status, month of creation): a typed page number. Read
 * newest month first on `mes` until the page's row is reached (migration 0039), so page 9000
 * reads a year of counts however many years there are.
 */
export const servicosContagemCriacao = pgTable(
  'servicos_contagem_criacao',
  {
    categoria_id: uuid('categoria_id'),
    status_id: uuid('status_id'),
    mes: timestamp('mes', { withTimezone: true }).notNull(),
    total: integer('total').notNull(),
  },
  (t) => [
    unique('servicos_contagem_criacao_chave')
      .on(t.categoria_id, t.status_id, t.mes)
      .nullsNotDistinct(),
    index('servicos_contagem_criacao_mes_idx').on(t.mes),
  ],
)

/**
 * Exact number of services per (UTC day of creation, category, status): a typed page number
 * skips, inside the month the per-month counts found, the days before its row (migration 0039),
 * so it walks at most one day's rows however many services there are.
 */
export const servicosContagemDia = pgTable(
  'servicos_contagem_dia',
  {
    dia: timestamp('dia', { withTimezone: true }).notNull(),
    categoria_id: uuid('categoria_id'),
    status_id: uuid('status_id'),
    total: integer('total').notNull(),
  },
  (t) => [
    unique('servicos_contagem_dia_chave').on(t.dia, t.categoria_id, t.status_id).nullsNotDistinct(),
  ],
)

/** Exact number of services per (category, status): the dashboard total without a date filter. */
export const servicosContagem = pgTable(
  'servicos_contagem',
  {
    categoria_id: uuid('categoria_id'),
    status_id: uuid('status_id'),
    total: integer('total').notNull(),
  },
  (t) => [unique('servicos_contagem_chave').on(t.categoria_id, t.status_id).nullsNotDistinct()],
)

/** Exact number of services per (category, status, archived, month of vigencia_fim): 'Próximos a vencer'. */
export const servicosContagemMes = pgTable(
  'servicos_contagem_mes',
  {
    categoria_id: uuid('categoria_id'),
    status_id: uuid('status_id'),
    arquivado: boolean('arquivado').notNull(),
    mes: date('mes'),
    total: integer('total').notNull(),
  },
  (t) => [
    unique('servicos_contagem_mes_chave')
      .on(t.categoria_id, t.status_id, t.arquivado, t.mes)
      .nullsNotDistinct(),
  ],
)

/**
 * Exact number of services per (agency, stage, waiting for review, category, status): the
 * totals of "Órgão", "Etapa no órgão" and 'Aguardando análise' (migration 0040).
 */
export const servicosContagemFiltros = pgTable(
  'servicos_contagem_filtros',
  {
    orgao_id: uuid('orgao_id'),
    etapa: text('etapa'),
    em_analise: boolean('em_analise').notNull(),
    categoria_id: uuid('categoria_id'),
    status_id: uuid('status_id'),
    total: integer('total').notNull(),
  },
  (t) => [
    unique('servicos_contagem_filtros_chave')
      .on(t.orgao_id, t.etapa, t.em_analise, t.categoria_id, t.status_id)
      .nullsNotDistinct(),
  ],
)

/**
 * Exact number of services not archived per (end date, category, status): the rest of the
 * current month of 'Próximos a vencer' (migration 0040; the months after it are in
 * `servicos_contagem_mes`).
 */
export const servicosContagemVigencia = pgTable(
  'servicos_contagem_vigencia',
  {
    dia: date('dia').notNull(),
    categoria_id: uuid('categoria_id'),
    status_id: uuid('status_id'),
    total: integer('total').notNull(),
  },
  (t) => [
    unique('servicos_contagem_vigencia_chave')
      .on(t.dia, t.categoria_id, t.status_id)
      .nullsNotDistinct(),
  ],
)

/**
 * "Dados da empresa": the consultancy's name and contact, one row (id 1), edited in the
 * admin profile and printed in every e-mail the portal sends.
 */
export const empresa = pgTable(
  'empresa',
  {
    id: integer('id').primaryKey().default(1),
    nome: text('nome').notNull(),
    email: text('email'),
    telefone: text('telefone'),
    /** The mobile number the firm answers on WhatsApp ("Fale com a consultoria"). */
    whatsapp: text('whatsapp'),
    endereco: text('endereco'),
    /** The encarregado (DPO) named on /privacidade, the contact for the client's rights. */
    encarregado_nome: text('encarregado_nome'),
    encarregado_email: text('encarregado_email'),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('empresa_uma_linha_check', sql`${t.id} = 1`)],
)

// ---- notifications ----

/**
 * One notification of one account: the bell's list. Written in the transaction of its event
 * (`db/notificacoes.ts`). `email_em` is when the e-mail of unread notifications took it (or
 * decided not to send it: the kind is turned off), so it is never sent twice.
 */
export const notificacoes = pgTable(
  'notificacoes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    tipo: text('tipo', { enum: TIPOS_NOTIFICACAO }).notNull(),
    titulo: text('titulo').notNull(),
    link: text('link').notNull(),
    /**
     * The document or aviso a client's notification tells about: it is shown (bell, count,
     * e-mail) only while that document or aviso is visible to the client, and goes with it.
     */
    documento_id: uuid('documento_id').references(() => servicosTiposDocumentos.id, {
      onDelete: 'cascade',
    }),
    aviso_id: uuid('aviso_id').references(() => avisos.id, { onDelete: 'cascade' }),
    /** The condicionante it tells the client about: shown only while it is visible to them. */
    condicionante_id: uuid('condicionante_id').references((): AnyPgColumn => condicionantes.id, {
      onDelete: 'cascade',
    }),
    created_at: createdAt(),
    read_at: timestamp('read_at', { withTimezone: true }),
    email_em: timestamp('email_em', { withTimezone: true }),
  },
  (t) => [
    index('notificacoes_user_created_idx').on(t.user_id, t.created_at),
    index('notificacoes_documento_idx')
      .on(t.documento_id)
      .where(sql`${t.documento_id} is not null`),
    index('notificacoes_aviso_idx')
      .on(t.aviso_id)
      .where(sql`${t.aviso_id} is not null`),
    index('notificacoes_condicionante_idx')
      .on(t.condicionante_id)
      .where(sql`${t.condicionante_id} is not null`),
    // The bell's unread count: one range of this partial index.
    index('notificacoes_nao_lidas_idx')
      .on(t.user_id)
      .where(sql`${t.read_at} is null`),
    // The e-mail job: unread notifications not yet taken, oldest first.
    index('notificacoes_email_pendente_idx')
      .on(t.created_at)
      .where(sql`${t.read_at} is null and ${t.email_em} is null`),
    check(
      'notificacoes_tipo_check',
      sql.raw(`tipo in (${TIPOS_NOTIFICACAO.map((k) => `'${k}'`).join(', ')})`),
    ),
  ],
)

/** The kinds whose e-mail an account turned off (Meus Dados, "Notificações"); on by default. */
export const notificacoesEmailDesligado = pgTable(
  'notificacoes_email_desligado',
  {
    user_id: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    tipo: text('tipo', { enum: TIPOS_NOTIFICACAO }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.tipo] })],
)

// ---- LGPD: consent, the client's requests, retention ----

/**
 * Each acceptance of the privacy notice and terms: the account, the notice's version
 * (`VERSAO_AVISO` in shared/schemas/conta.ts) and when. A new version asks again at sign-in.
 */
export const consentimentos = pgTable(
  'consentimentos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    versao: text('versao').notNull(),
    aceito_em: timestamp('aceito_em', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('consentimentos_user_versao_idx').on(t.user_id, t.versao)],
)

/**
 * A client's request to erase their data (LGPD art. 18, VI): answered within `prazo` (15 days,
 * art. 19). `pendente` until an administrator carries it out (`concluida`) or refuses it
 * (`recusada`, with `motivo`). The account is gone after erasure: `user_id` becomes null.
 */
export const solicitacoesLgpd = pgTable(
  'solicitacoes_lgpd',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    cliente_id: uuid('cliente_id').references(() => clientes.id, { onDelete: 'set null' }),
    user_id: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    pedido_em: timestamp('pedido_em', { withTimezone: true }).notNull().defaultNow(),
    prazo: timestamp('prazo', { withTimezone: true }).notNull(),
    estado: text('estado', { enum: ['pendente', 'concluida', 'recusada'] })
      .notNull()
      .default('pendente'),
    motivo: text('motivo'),
    decidido_por: text('decidido_por').references(() => user.id, { onDelete: 'set null' }),
    decidido_em: timestamp('decidido_em', { withTimezone: true }),
  },
  (t) => [
    check(
      'solicitacoes_lgpd_estado_check',
      sql`${t.estado} in ('pendente', 'concluida', 'recusada')`,
    ),
    index('solicitacoes_lgpd_estado_prazo_idx').on(t.estado, t.prazo),
    // One open request per account: asking twice does not make two.
    uniqueIndex('solicitacoes_lgpd_pendente_idx')
      .on(t.user_id)
      .where(sql`${t.estado} = 'pendente'`),
  ],
)

/**
 * How long to keep, one row (id 1; the defaults before an administrator saves):
 * audit events, e-mail sending history, expired sessions and unconfirmed accounts, in days.
 * The daily job (features/privacidade/retencao.ts) applies them.
 */
export const retencao = pgTable(
  'retencao',
  {
    id: integer('id').primaryKey().default(1),
    auditoria_dias: integer('auditoria_dias').notNull().default(1825),
    envios_email_dias: integer('envios_email_dias').notNull().default(1825),
    sessoes_dias: integer('sessoes_dias').notNull().default(30),
    contas_nao_confirmadas_dias: integer('contas_nao_confirmadas_dias').notNull().default(7),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('retencao_uma_linha_check', sql`${t.id} = 1`)],
)

/**
 * The audit trail. Append-only: a trigger of migration 0014 refuses UPDATE and DELETE
 * except through `auditoria_anonimizar` (erasure) and `auditoria_expurgar` (retention). No foreign
 * keys: an event outlives what it tells about. Written only by `recordAuditoria`
 * (`db/auditoria.ts`), in the transaction of the change.
 */
export const auditoria = pgTable(
  'auditoria',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    em: timestamp('em', { withTimezone: true }).notNull().defaultNow(),
    ator_id: text('ator_id'),
    /** The actor's e-mail as it was at the time (null: the system, e.g. the warnings job). */
    ator_email: text('ator_email'),
    ator_role: text('ator_role'),
    ip: text('ip'),
    user_agent: text('user_agent'),
    acao: text('acao', { enum: ACOES_AUDITORIA }).notNull(),
    entidade: text('entidade').notNull(),
    entidade_id: text('entidade_id'),
    /** How the entity was called at the time ("Maria Souza", "Licença de Operação (2026-000012)"). */
    rotulo: text('rotulo'),
    servico_id: uuid('servico_id'),
    cliente_id: uuid('cliente_id'),
    antes: jsonb('antes'),
    depois: jsonb('depois'),
    /** The words of the free-text filter (migration 0014: generated from the columns above). */
    termos: tsvector('termos').generatedAlwaysAs(
      sql`portal_auditoria_termos(ator_email, entidade_id, rotulo, antes, depois)`,
    ),
  },
  (t) => [
    index('auditoria_em_idx').on(t.em.desc(), t.id.desc()),
    index('auditoria_servico_idx')
      .on(t.servico_id, t.em.desc(), t.id.desc())
      .where(sql`${t.servico_id} is not null`),
    index('auditoria_cliente_idx')
      .on(t.cliente_id, t.em.desc(), t.id.desc())
      .where(sql`${t.cliente_id} is not null`),
    index('auditoria_ator_idx')
      .on(t.ator_id, t.em.desc(), t.id.desc())
      .where(sql`${t.ator_id} is not null`),
    index('auditoria_acao_idx').on(t.acao, t.em.desc(), t.id.desc()),
    index('auditoria_entidade_idx').on(t.entidade, t.em.desc(), t.id.desc()),
    index('auditoria_termos_idx').using('gin', t.termos).with({ gin_pending_list_limit: 64 }),
    check(
      'auditoria_acao_check',
      sql.raw(`acao in (${ACOES_AUDITORIA.map((k) => `'${k}'`).join(', ')})`),
    ),
  ],
)

// ---- condicionantes: the conditions of a licence and their due dates ----

/**
 * A condition of a licence (its "Item" and wording): "Com prazo" ('prazo', due dates from
 * `primeiro_prazo` every `periodicidade`, `intervalo_meses` for "A cada N meses") or "Contínua
 * (sem prazo)" ('continua', no due dates). `responsavel` is the side that fulfils it; a
 * condicionante not `visivel_cliente` never reaches the client.
 */
export const condicionantes = pgTable(
  'condicionantes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    servico_id: uuid('servico_id')
      .notNull()
      .references(() => servicos.id, { onDelete: 'cascade' }),
    item: text('item').notNull(),
    descricao: text('descricao').notNull(),
    tipo: text('tipo', { enum: ['prazo', 'continua'] }).notNull(),
    primeiro_prazo: date('primeiro_prazo'),
    periodicidade: text('periodicidade', {
      enum: ['unica', 'mensal', 'trimestral', 'semestral', 'anual', 'meses'],
    }),
    intervalo_meses: integer('intervalo_meses'),
    antecedencia_dias: integer('antecedencia_dias').notNull().default(30),
    responsavel: text('responsavel', { enum: ['cliente', 'consultoria'] }).notNull(),
    visivel_cliente: boolean('visivel_cliente').notNull().default(true),
    created_at: createdAt(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('condicionantes_servico_idx').on(t.servico_id, t.created_at),
    check('condicionantes_tipo_check', sql`${t.tipo} in ('prazo', 'continua')`),
    check('condicionantes_responsavel_check', sql`${t.responsavel} in ('cliente', 'consultoria')`),
    check(
      'condicionantes_periodicidade_check',
      sql`${t.periodicidade} in ('unica', 'mensal', 'trimestral', 'semestral', 'anual', 'meses')`,
    ),
  ],
)

/**
 * A due date of a condicionante (an "Entrega"), generated by the recurrence
 * (`condicionantes/recorrencia.ts`). `estado` is what its review decided: 'pendente' (then its
 * "Situação" reads the date: "No prazo", "Próxima" from `aviso_em` = the date minus the warning
 * days, "Atrasada" after it), 'em_analise', 'cumprida' or 'nao_se_aplica'. `servico_id`,
 * `cliente_id` and `responsavel` repeat the condicionante's so that the list across clients
 * filters and counts on one table. `avisado_proxima_em` / `avisado_atraso_em`: when the daily
 * job told of it entering its window / becoming late (once each).
 */
export const condicionantesEntregas = pgTable(
  'condicionantes_entregas',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    condicionante_id: uuid('condicionante_id')
      .notNull()
      .references(() => condicionantes.id, { onDelete: 'cascade' }),
    servico_id: uuid('servico_id')
      .notNull()
      .references(() => servicos.id, { onDelete: 'cascade' }),
    cliente_id: uuid('cliente_id')
      .notNull()
      .references(() => clientes.id, { onDelete: 'cascade' }),
    responsavel: text('responsavel', { enum: ['cliente', 'consultoria'] }).notNull(),
    data_prevista: date('data_prevista').notNull(),
    aviso_em: date('aviso_em').notNull(),
    estado: text('estado', { enum: ['pendente', 'em_analise', 'cumprida', 'nao_se_aplica'] })
      .notNull()
      .default('pendente'),
    protocolo_orgao: text('protocolo_orgao'),
    protocolado_em: date('protocolado_em'),
    avisado_proxima_em: timestamp('avisado_proxima_em', { withTimezone: true }),
    avisado_atraso_em: timestamp('avisado_atraso_em', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('condicionantes_entregas_data_idx').on(t.condicionante_id, t.data_prevista),
    index('condicionantes_entregas_servico_idx').on(t.servico_id, t.data_prevista),
    // The list across clients: oldest due first, and the same order within one client.
    index('condicionantes_entregas_prevista_idx').on(t.data_prevista, t.id),
    index('condicionantes_entregas_cliente_idx').on(t.cliente_id, t.data_prevista, t.id),
    // Pending ones by date (Atrasada / Próxima / No prazo and the menu's count). `aviso_em` last:
    // the order stays (data_prevista, id) and "No prazo" skips the entregas already in their
    // window inside the index (an index-only scan), not one heap row each.
    index('condicionantes_entregas_pendentes_idx')
      .on(t.data_prevista, t.id, t.aviso_em)
      .where(sql`${t.estado} = 'pendente'`),
    // The daily job: pending entregas not yet told of entering their window / being late.
    index('condicionantes_entregas_aviso_idx')
      .on(t.aviso_em)
      .where(sql`${t.estado} = 'pendente' and ${t.avisado_proxima_em} is null`),
    index('condicionantes_entregas_atraso_idx')
      .on(t.data_prevista)
      .where(sql`${t.estado} = 'pendente' and ${t.avisado_atraso_em} is null`),
    check(
      'condicionantes_entregas_estado_check',
      sql`${t.estado} in ('pendente', 'em_analise', 'cumprida', 'nao_se_aplica')`,
    ),
    check(
      'condicionantes_entregas_responsavel_check',
      sql`${t.responsavel} in ('cliente', 'consultoria')`,
    ),
  ],
)

/**
 * How many entregas share a (due date, warning date, estado, side): the count of the list across
 * clients and of the menu's late badge, summed over these few rows instead of counting the
 * entregas (their "Situação" reads only these columns). Kept by the trigger of migration 0028
 * (`condicionantes_entregas_contar`), never written by the app.
 */
export const condicionantesEntregasContagem = pgTable(
  'condicionantes_entregas_contagem',
  {
    data_prevista: date('data_prevista').notNull(),
    aviso_em: date('aviso_em').notNull(),
    estado: text('estado').notNull(),
    responsavel: text('responsavel').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.data_prevista, t.aviso_em, t.estado, t.responsavel] })],
)

// ---- Mensagens: the conversation of a service ----

/**
 * A message of a service's conversation ("Mensagens"). `lado` is the author's side; `autor_nome`
 * the name at the time (an erasure replaces a client's; the consultancy's stays). `interna`: the
 * consultancy's note among themselves, never read by the client. The author may edit (`editada_em`)
 * or delete it for 15 minutes (`mensagens.queries.ts`); every change is audited.
 */
export const mensagens = pgTable(
  'mensagens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    servico_id: uuid('servico_id')
      .notNull()
      .references(() => servicos.id, { onDelete: 'cascade' }),
    autor_id: text('autor_id').references(() => user.id, { onDelete: 'set null' }),
    autor_nome: text('autor_nome').notNull(),
    lado: text('lado', { enum: ['cliente', 'consultoria'] }).notNull(),
    texto: text('texto').notNull(),
    interna: boolean('interna').notNull().default(false),
    created_at: createdAt(),
    editada_em: timestamp('editada_em', { withTimezone: true }),
  },
  (t) => [
    // The thread's pages (newest first, keyset on (created_at, id)) and the unread counts.
    index('mensagens_servico_idx').on(t.servico_id, t.created_at.desc(), t.id.desc()),
    index('mensagens_autor_idx')
      .on(t.autor_id)
      .where(sql`${t.autor_id} is not null`),
    check('mensagens_lado_check', sql`${t.lado} in ('cliente', 'consultoria')`),
    // Empty only beside a file (the route requires one or the other).
    check('mensagens_texto_check', sql`char_length(${t.texto}) <= 5000`),
    check('mensagens_interna_check', sql`not ${t.interna} or ${t.lado} = 'consultoria'`),
  ],
)

/** Until when an account has read a service's messages (its unread count is what came after). */
export const mensagensLeituras = pgTable(
  'mensagens_leituras',
  {
    user_id: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    servico_id: uuid('servico_id')
      .notNull()
      .references(() => servicos.id, { onDelete: 'cascade' }),
    lida_em: timestamp('lida_em', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.user_id, t.servico_id] }),
    index('mensagens_leituras_servico_idx').on(t.servico_id),
  ],
)

/**
 * A file sent with a message, stored like a document's version (`storage/arquivos.ts`
 * `storeUpload`, the same limits and checks; a client's count in its quota, `storage/cota.ts`).
 * `caminho` is its storage key (`mensagens/{servicoId}/{timestamp}.{id}-{name}`): the sweep and
 * the backup know it by the column's name.
 */
export const mensagemAnexos = pgTable(
  'mensagem_anexos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    mensagem_id: uuid('mensagem_id')
      .notNull()
      .references(() => mensagens.id, { onDelete: 'cascade' }),
    caminho: text('caminho').notNull(),
    nome: text('nome').notNull(),
    tamanho: bigint('tamanho', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    created_at: createdAt(),
  },
  (t) => [
    index('mensagem_anexos_mensagem_idx').on(t.mensagem_id),
    index('mensagem_anexos_caminho_idx').on(t.caminho),
  ],
)

// ---- the process at the agency: the agencies, the process of a service, its stages, requests ----

const lista = (valores: readonly string[]) => sql.raw(valores.map((k) => `'${k}'`).join(', '))

/** "Órgãos ambientais": the catalogue of licensing agencies. */
export const orgaos = pgTable(
  'orgaos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sigla: text('sigla').notNull(),
    nome: text('nome').notNull(),
    esfera: text('esfera', { enum: ESFERAS }).notNull(),
    /** The state (none for a federal agency). */
    uf: text('uf'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('orgaos_sigla_chave_idx').on(nomeChave(t.sigla)),
    check('orgaos_esfera_check', sql`${t.esfera} in (${lista(ESFERAS)})`),
  ],
)

/**
 * "Processo no órgão" of a service (one per service): the agency, its process number, the
 * protocol, the current stage since when, the expected decision, and the "Responsável técnico".
 */
export const processos = pgTable(
  'processos',
  {
    servico_id: uuid('servico_id')
      .primaryKey()
      .references(() => servicos.id, { onDelete: 'cascade' }),
    orgao_id: uuid('orgao_id').references(() => orgaos.id, { onDelete: 'restrict' }),
    numero_processo: text('numero_processo'),
    data_protocolo: date('data_protocolo'),
    etapa: text('etapa', { enum: ETAPAS }).notNull(),
    etapa_desde: date('etapa_desde').notNull(),
    decisao_prevista: date('decisao_prevista'),
    /** The staff member responsible (an administrator's account). */
    responsavel_id: text('responsavel_id').references(() => user.id, { onDelete: 'set null' }),
    conselho: text('conselho', { enum: CONSELHOS }),
    registro: text('registro'),
    art: text('art'),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('processos_orgao_idx').on(t.orgao_id),
    check('processos_etapa_check', sql`${t.etapa} in (${lista(ETAPAS)})`),
    check('processos_conselho_check', sql`${t.conselho} in (${lista(CONSELHOS)})`),
  ],
)

/** "Andamento": each change of stage, dated, with its optional note for the client. */
export const processosAndamentos = pgTable(
  'processos_andamentos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    servico_id: uuid('servico_id')
      .notNull()
      .references(() => servicos.id, { onDelete: 'cascade' }),
    etapa: text('etapa', { enum: ETAPAS }).notNull(),
    data: date('data').notNull(),
    nota_cliente: text('nota_cliente'),
    created_at: createdAt(),
  },
  (t) => [
    index('processos_andamentos_servico_idx').on(t.servico_id, t.data, t.created_at),
    check('processos_andamentos_etapa_check', sql`${t.etapa} in (${lista(ETAPAS)})`),
  ],
)

/**
 * "Exigências do órgão": the agency's requests for complementary information. Its situation is
 * derived: 'Respondida' with `respondida_em`, else 'Vencida' once `prazo` passed, else 'Aberta'.
 */
export const exigencias = pgTable(
  'exigencias',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    servico_id: uuid('servico_id')
      .notNull()
      .references(() => servicos.id, { onDelete: 'cascade' }),
    descricao: text('descricao').notNull(),
    recebida_em: date('recebida_em').notNull(),
    prazo: date('prazo').notNull(),
    respondida_em: date('respondida_em'),
    protocolo_resposta: text('protocolo_resposta'),
    created_at: createdAt(),
  },
  (t) => [
    index('exigencias_servico_idx').on(t.servico_id, t.prazo),
    // The calendar: open requests by deadline (and id, its order).
    index('exigencias_abertas_prazo_idx')
      .on(t.prazo, t.id)
      .where(sql`${t.respondida_em} is null`),
  ],
)

/**
 * "Solicitar documentos ao cliente": the document types an exigência asks the client for. They
 * are required documents of its service (beside its type's rules) with the exigência's deadline
 * until it is answered.
 */
export const exigenciasDocumentos = pgTable(
  'exigencias_documentos',
  {
    exigencia_id: uuid('exigencia_id')
      .notNull()
      .references(() => exigencias.id, { onDelete: 'cascade' }),
    tipo_documento_id: uuid('tipo_documento_id')
      .notNull()
      .references(() => tiposDocumentos.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.exigencia_id, t.tipo_documento_id] })],
)

/**
 * "Assinar no meu calendário": an account's personal feed (`/api/calendario/{token}.ics`). Only
 * the SHA-256 of the token is kept (the link is shown once, when made); a new link replaces the
 * row, so the old one stops at once; the account's erasure removes it (cascade). `etag` and
 * `modificado_em` are the feed's last answer, so Last-Modified changes only with its content.
 */
export const calendarioAssinaturas = pgTable('calendario_assinaturas', {
  user_id: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  token_hash: text('token_hash').notNull().unique(),
  etag: text('etag'),
  modificado_em: timestamp('modificado_em', { withTimezone: true }).notNull().defaultNow(),
  created_at: createdAt(),
})

/**
 * The version of the business data (`db/versao-dados.ts`), one counter per group ('negocio'):
 * raised once per committing transaction that wrote a table a kept answer may read (the
 * statement triggers of migration 0036), in the same commit as the data.
 */
export const versoesDados = pgTable('versoes_dados', {
  grupo: text('grupo').primaryKey(),
  versao: bigint('versao', { mode: 'number' }).notNull(),
})

/**
 * A running transaction's "I wrote business data" (one row per transaction and group, its own
 * key, so writers never wait on each other here); its deferred trigger raises `versoes_dados`
 * at commit and removes the row. Empty between transactions.
 */
export const versoesPendentes = pgTable(
  'versoes_pendentes',
  {
    txid: bigint('txid', { mode: 'number' }).notNull(),
    grupo: text('grupo').notNull(),
  },
  (t) => [primaryKey({ columns: [t.txid, t.grupo] })],
)
