// `npm run bench`: the global services dashboard at 100,000 services.
//
// For each database (embedded PGlite, then PostgreSQL at 127.0.0.1:5432) it fills a fresh
// database with 20,000 clients and 100,000 services (with avisos and documents), starts the real
// server process on it, signs in as an admin over HTTP and drives GET /api/admin/servicos with
// autocannon in each case (the first five, 'Aguardando análise', the searches as analysts type
// them, protocols typed with their year as agencies write them, a typed page number and a varied
// case of 200 terms), at 4 connections (latency
// percentiles) and at 50 (requests/s). Each case's answer is checked first (total, page count, rows). Then 20
// connections write for 15 s and every maintained count is checked against the base tables.
// It prints one table and writes it to bench/RESULTS.md (`-- --services N`: RESULTS-N.md), with
// the first page's share of PostgreSQL alone on its statement (bench/pg-sozinho.ts) and, while
// running, the server's CPU per answer of each case.
// The same runs load the "Órgão" / "Etapa no órgão" filters (the fill gives seven services in ten
// a process) and the Calendário (issue 31): a month and the 366-day list of the admin's calendar
// over every service's end date, renewal date, open avisos and exigências, and the .ics feed of
// a client with 200 services (GET /api/calendario/{token}.ics); the same cases on a data set of
// their own, with condicionantes, are `BENCH_CASES=calendario` (bench/calendario.ts).
// The Auditoria screen has cases of its own (1,000 clients, 5,000 services, 200,000 events; run
// alone with BENCH_CASES=auditoria, written to RESULTS-auditoria.md). So has the admin menu
// "Condicionantes" (100,000 services, 500,000 entregas; first page and each filter; targets p95
// ≤ 15 ms on PostgreSQL, ≤ 50 ms on PGlite; BENCH_CASES=condicionantes, RESULTS-condicionantes.md;
// BENCH_COND_SERVICOS=N for a smaller scale).
// Whether each case is as fast at 1,000,000 services as at 100,000, on two databases filled
// earlier, both servers up and the case loaded on each in turns: BENCH_ESCALAS (bench/escalas.ts).
// Not part of `npm test`.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { openDatabase, type Db } from '../src/server/db/client.ts'
import { seedStatuses } from '../src/server/db/seed.ts'
import { resetTwoFactor } from '../src/server/scripts/admin-reset-2fa.ts'
import { ORGAOS } from '../src/server/scripts/demo-dados.ts'
import { today } from '../src/shared/datas.ts'
import type { Etapa } from '../src/shared/processo.ts'
import {
  benchCalendario,
  CALENDARIO_CASES,
  calendarioTable,
  checkCalendario,
  fillFeedClient,
  type CalendarioCase,
} from './calendario.ts'
import {
  ADMIN,
  addDaysIso,
  arr,
  buildServer,
  load,
  log,
  PG_DB_SUFFIX,
  PG_URL,
  ROOT,
  SECONDS,
  signIn,
  startBenchServer,
  type Row,
  tabela,
} from './comum.ts'
import { medirJob, type JobRow } from './avisos-job.ts'
import { benchEscalas, type Medido } from './escalas.ts'
import { primeiraPaginaSozinho } from './pg-sozinho.ts'
import { stopServer } from './servidor.ts'
import {
  CATEGORIAS,
  digitTerms,
  protocolTerms,
  DOCS,
  EMPRESAS,
  FIRST,
  LAST,
  TIPOS,
  UFS,
  variedTerms,
} from './dados.ts'

/** The first page's share of PostgreSQL alone: the median of the turns, and each turn. */
type Sozinho = { rps: number; tps: number; cpu: number; turnos: { rps: number; tps: number }[] }

// BENCH_DB: another database name, so two people tuning on one server do not drop each other's.
const PG_DB = process.env.BENCH_DB ?? `portal_bench${PG_DB_SUFFIX}`
// While tuning: BENCH_REUSE=1 runs on PostgreSQL's PG_DB as it is (kept by BENCH_FILL_ONLY or
// BENCH_KEEP: migrated, not filled, not dropped), and BENCH_CASE=varied,writes runs only the cases
// whose names contain one of those words (the writes case only when named), printing the table
// without writing a RESULTS file (BENCH_REUSE alone runs every case and writes it).
const REUSE = !!process.env.BENCH_REUSE
const CASE_FILTER = process.env.BENCH_CASE?.split(',').filter(Boolean)
const selected = (name: string) => !CASE_FILTER || CASE_FILTER.some((w) => name.includes(w))
// `npm run bench -- --services 1000000`: the same cases at another scale (one client per five services).
const servicosArg = process.argv.indexOf('--services')
const SERVICOS = servicosArg > 0 ? Number(process.argv[servicosArg + 1]) : 100_000
if (!Number.isInteger(SERVICOS) || SERVICOS < 1000)
  throw new Error('--services: a whole number >= 1000')
const CLIENTES = SERVICOS / 5
const SEARCH = 'Quintanilha'
// Page 4,000 by the next button and page 9,000 typed (fewer on a small trial run).
const PAGE_TARGET = Math.min(4000, Math.floor(SERVICOS / 25))
const TYPED_PAGE = Math.min(9000, Math.floor((SERVICOS / 10) * 0.9))
const WRITE_SECONDS = Number(process.env.BENCH_WRITE_SECONDS ?? 15)
const WRITERS = 20
/** What analysts type: each case is one search, run over and over. */
const SEARCHES = [
  { name: 'a word most services contain', q: 'licen' },
  { name: 'a two-letter word (a state)', q: 'sp' },
  { name: 'a common first name', q: 'ana' },
  { name: 'two words', q: 'silva licen' },
  { name: 'a protocol fragment', q: '4217' },
  // The start of a number, typed before the rest: thousands of services at 1,000,000, in runs
  // of numbers in a row (4210-4219, 42100-42199, ...), not spread as the services are.
  { name: "a protocol number's first digits", q: '421' },
  // A protocol with its year as copied from the agency's letter (half of the bench's services
  // have one: 2024, 2025 or 2026 in four formats, a sixth of all services per year).
  { name: 'a protocol with its year', q: 'PRT-2024-0001' },
  { name: 'a protocol year/number', q: '2024/0015' },
  { name: 'a protocol agency-year/number', q: 'IEMA-2026/0011' },
  { name: 'a protocol number/year', q: '0011/2026' },
  // A client's surname with a year, as analysts narrow a list ('Silva 2024'): a word in one
  // service in thirty with a number in a sixth of all services.
  { name: 'a surname with a year', q: 'silva 2024' },
]

/** "Órgão" and "Etapa no órgão" (issue 31), alone, together and with a broad search word. */
const PROCESSO_CASES: { name: string; sigla?: string; etapa?: Etapa; q?: string }[] = [
  { name: "Órgão 'CETESB'", sigla: 'CETESB' },
  { name: "Órgão 'IEMA' (one process in twenty)", sigla: 'IEMA' },
  { name: "Etapa 'Em análise técnica'", etapa: 'em_analise' },
  { name: "Órgão 'IBAMA' and Etapa 'Protocolado'", sigla: 'IBAMA', etapa: 'protocolado' },
  { name: "Órgão 'CETESB' with 'licen'", sigla: 'CETESB', q: 'licen' },
  { name: "Etapa 'Vistoria' with 'licen'", etapa: 'vistoria', q: 'licen' },
]

/** The analysts' document search (under the dashboard's search): GET /api/admin/documentos/busca. */
const DOC_SEARCHES = [
  { name: 'documents: a type half of them have', q: 'parecer' },
  { name: 'documents: a word of one file name in five', q: 'matricula' },
  { name: "documents: a file's number", q: 'certidao 4217' },
  { name: "documents: a type's two words", q: 'contrato social' },
  // Two common words (a type, a file name's word) in one document in ten, and two that no
  // document has together (each in a fifth of them): neither is counted by the GIN index's lists.
  { name: 'documents: two common words in one document in ten', q: 'laudo rg' },
  { name: 'documents: two common words never together', q: 'contrato laudo' },
]

type Case = {
  name: string
  url: string
  expect: { total: number; pages: number; firstIds?: string[]; limited?: boolean }
}

// ---- the data set ----

const VARIED = variedTerms()
const DIGITOS = digitTerms()
const PROTOCOLOS = protocolTerms()
/** The stages of the bench's processes, weighted (20): most in analysis, few decided. */
const ETAPAS_BENCH = [
  ...Array<Etapa>(2).fill('em_preparacao'),
  ...Array<Etapa>(3).fill('protocolado'),
  ...Array<Etapa>(6).fill('em_analise'),
  ...Array<Etapa>(3).fill('aguardando_informacoes'),
  'vistoria',
  ...Array<Etapa>(3).fill('deferido'),
  'indeferido',
  'arquivado',
] satisfies Etapa[]
/** The agencies by weight (the fill's first is the most frequent). */
const ORGAOS_PESO = [
  'CETESB',
  'IBAMA',
  'SEMAD/FEAM',
  'INEA',
  'IAT',
  'FEPAM',
  'IMA-SC',
  'IEMA',
  'SEMMAM Vitória',
]

/** Fills an empty, migrated database (INSERT ... SELECT generate_series: seconds, not minutes). */
async function fill(db: Db) {
  const run = (q: string) => db.execute(sql.raw(q))
  await run(`INSERT INTO categorias (nome) SELECT unnest(${arr(CATEGORIAS)})`)
  // Three types in five have a renewal lead time (the calendar's "Prazo para renovação").
  await run(`INSERT INTO tipos_servicos (tipo, categoria_id, validade, antecedencia_renovacao)
    SELECT t.tipo || ' - ' || c.nome, c.id, 365 + 30 * t.n, CASE WHEN t.n % 5 < 3 THEN 120 END
    FROM categorias c, unnest(${arr(TIPOS)}) WITH ORDINALITY AS t(tipo, n)`)
  await run(`INSERT INTO tipos_documentos (tipo) SELECT unnest(${arr(DOCS)})`)
  await run(`INSERT INTO tipos_servicos_tipos_documentos (tipo_servico_id, tipo_documento_id)
    SELECT ts.id, td.id FROM tipos_servicos ts, tipos_documentos td WHERE td.tipo IN ('RG', 'CPF', 'ART')`)
  // One client in 300 carries the surname searched for: a search that matches a few hundred services.
  await run(`INSERT INTO clientes (nome, documento, email, created_at)
    SELECT CASE WHEN g % 5 = 3
             THEN (${arr(LAST)})[1 + (g / 5) % 60] || ' ' || (${arr(EMPRESAS)})[1 + (g / 7) % 8] ||
                  ' Ltda - ' || (${arr(UFS)})[1 + (g / 3) % 20]
             ELSE (${arr(FIRST)})[1 + g % 60] || ' ' || (${arr(LAST)})[1 + (g / 60) % 60] ||
                  CASE WHEN g % 300 = 7 THEN ' ${SEARCH}' ELSE ' ' || (${arr(LAST)})[1 + (g / 13) % 60] END
           END,
           lpad(g::text, 11, '0'), 'cliente' || g || '@bench.test', now() - (g || ' minutes')::interval
    FROM generate_series(1, ${CLIENTES}) g`)
  await run(`CREATE TEMP TABLE bench_refs AS SELECT
      (SELECT array_agg(id ORDER BY documento) FROM clientes) AS clientes,
      (SELECT array_agg(id ORDER BY tipo) FROM tipos_servicos) AS tipos,
      (SELECT array_agg(id ORDER BY created_at) FROM status) AS status,
      (SELECT id FROM status WHERE nome = 'Em renovação') AS em_renovacao`)
  // Six statuses with uneven weights, and 10% 'Em renovação' (a renewal filed on time: not
  // expiring, so outside 'Próximos a vencer', its read-model row without an end date); validity
  // windows spread over 2022-2029; newest first by created_at. Protocols: half 'PROT-0004217',
  // half with their year as agencies write them ('PRT-2024-0001', '2024/0015', 'IEMA-2026/0011',
  // '0011/2026'; each year a sixth of all services, numbered per format and year).
  // In statements of 100,000 rows: the read model's triggers work per statement, and one of a
  // million rows spends minutes in their transition tables.
  for (let from = 1; from <= SERVICOS; from += 100_000) {
    await run(`INSERT INTO servicos (cliente_id, tipo_servico_id, status_id, protocolo, vigencia_inicio, vigencia_fim,
      detalhes, visualizado_admin, created_at)
    SELECT r.clientes[1 + g % ${CLIENTES}], r.tipos[1 + (g * 7) % 40],
           CASE WHEN g % 10 = 3 THEN r.em_renovacao
                ELSE r.status[CASE WHEN g % 10 < 4 THEN 1 WHEN g % 10 < 6 THEN 2 WHEN g % 10 < 7 THEN 3
                                   WHEN g % 10 < 8 THEN 4 WHEN g % 10 < 9 THEN 5 ELSE 6 END] END,
           CASE WHEN g % 2 = 0 THEN 'PROT-' || lpad(g::text, 7, '0')
                ELSE (ARRAY['PRT-' || pr.ano || '-' || pr.seq, pr.ano || '/' || pr.seq,
                            'IEMA-' || pr.ano || '/' || pr.seq, pr.seq || '/' || pr.ano])[1 + (g / 2) % 4] END,
           date '2022-01-01' + (g * 37) % 2000,
           date '2022-01-01' + (g * 37) % 2000 + 365 + (g % 400),
           'Histórico do serviço ' || g, g % 4 <> 0,
           timestamptz '2026-01-01 00:00:00+00' - (g * 317 || ' seconds')::interval
    FROM generate_series(${from}, ${Math.min(SERVICOS, from + 99_999)}) g, bench_refs r,
      LATERAL (SELECT (2024 + (g / 8) % 3)::text AS ano,
                      lpad((g / 24 + 1)::text, greatest(4, length((g / 24 + 1)::text)), '0') AS seq) pr`)
    if (SERVICOS > 100_000)
      log(`  ${Math.min(SERVICOS, from + 99_999).toLocaleString('en-US')} services`)
  }
  log('  avisos')
  await run(`INSERT INTO avisos (servico_id, texto, data_limite, resolvido)
    SELECT s.id, 'Aviso ' || k || ' do serviço ' || s.protocolo, s.vigencia_fim - 30 * k, k = 2
    FROM (SELECT id, protocolo, vigencia_fim, row_number() OVER () AS n FROM servicos) s, generate_series(1, 2) k
    WHERE s.n % 3 = 0`)
  // The process at the agency (issue 31): seven services in ten have one, at the nine agencies
  // of the demo seed with uneven weights (CETESB 5 in 20, IBAMA 4, SEMAD/FEAM 3, INEA and IAT 2,
  // the others 1; one in 20 with no agency yet) and over the eight stages (most in analysis).
  // The agency's requests: the processes waiting for complementary information have one open
  // exigência each, and one process in six an answered one; deadlines spread over 2025-2026.
  log('  processes')
  await run(`INSERT INTO orgaos (sigla, nome, esfera, uf)
    SELECT * FROM unnest(${arr(ORGAOS.map((o) => o.sigla))}, ${arr(ORGAOS.map((o) => o.nome))},
                         ${arr(ORGAOS.map((o) => o.esfera))}, ${arr(ORGAOS.map((o) => o.uf ?? ''))})`)
  await run(`UPDATE orgaos SET uf = NULL WHERE uf = ''`)
  // The read model's agency and stage are then written in one statement with the read model's
  // word and count triggers off (these columns are neither words nor counted): a statement that
  // changes 70,000 of its rows spends a minute in them otherwise.
  await run('ALTER TABLE processos DISABLE TRIGGER processos_painel_ins')
  await run(`INSERT INTO processos (servico_id, orgao_id, numero_processo, data_protocolo, etapa, etapa_desde)
    SELECT s.id,
           CASE WHEN s.n % 20 = 0 THEN NULL
                ELSE o.ids[(ARRAY[1,1,1,1,1,2,2,2,2,3,3,3,4,4,5,5,6,7,8,9])[1 + (s.n / 3) % 20]] END,
           'PROC-' || lpad(s.n::text, 7, '0'), date '2025-01-01' + (s.n % 600)::int,
           (${arr(ETAPAS_BENCH)})[1 + (s.n / 7) % 20],
           date '2025-01-01' + (s.n % 600)::int + (s.n % 90)::int
    FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM servicos) s,
         (SELECT array_agg(id ORDER BY array_position(${arr(ORGAOS_PESO)}, sigla)) AS ids FROM orgaos) o
    WHERE s.n % 10 < 7`)
  await run('ALTER TABLE processos ENABLE TRIGGER processos_painel_ins')
  await run('ALTER TABLE servicos_painel DISABLE TRIGGER servicos_painel_palavras_upd')
  await run('ALTER TABLE servicos_painel DISABLE TRIGGER servicos_painel_contagem_upd')
  await run('SELECT servicos_painel_processo(ARRAY(SELECT servico_id FROM processos ORDER BY 1))')
  await run('ALTER TABLE servicos_painel ENABLE TRIGGER servicos_painel_palavras_upd')
  await run('ALTER TABLE servicos_painel ENABLE TRIGGER servicos_painel_contagem_upd')
  await run(`INSERT INTO exigencias (servico_id, descricao, recebida_em, prazo, respondida_em, protocolo_resposta)
    SELECT p.servico_id, 'Apresentar complementação do estudo ambiental (item ' || p.n % 9 || ')',
           date '2025-01-01' + (p.n * 13 % 700)::int - 30, date '2025-01-01' + (p.n * 13 % 700)::int,
           CASE WHEN p.etapa <> 'aguardando_informacoes' THEN date '2025-01-01' + (p.n * 13 % 700)::int - 5 END,
           CASE WHEN p.etapa <> 'aguardando_informacoes' THEN 'RESP-' || p.n END
    FROM (SELECT servico_id, etapa, row_number() OVER (ORDER BY servico_id) AS n FROM processos) p
    WHERE p.etapa = 'aguardando_informacoes' OR p.n % 6 = 0`)
  // The calendar feed's client (issue 31): 200 services, their deadlines and a subscribed feed.
  log('  the feed client')
  await fillFeedClient(run)
  // Documents: the client's RG and the consultancy's Parecer Técnico, one version
  // each; one client document in 25 waits for review ('Aguardando análise').
  log('  documents')
  await run('ALTER TABLE servicos_tipos_documentos DISABLE TRIGGER servicos_tipos_documentos_busca')
  await run(`INSERT INTO servicos_tipos_documentos (servico_id, tipo_documento_id, tipo_documento, visivel_usuario, enviado_por)
    SELECT s.id, td.id, td.tipo, td.tipo <> 'Parecer Técnico',
           CASE WHEN td.tipo = 'RG' THEN 'cliente' ELSE 'admin' END
    FROM (SELECT id, row_number() OVER () AS n FROM servicos) s
    JOIN tipos_documentos td ON td.tipo IN ('RG', 'Parecer Técnico')
    WHERE s.n % 2 = 0`)
  await run('ALTER TABLE servicos_tipos_documentos ENABLE TRIGGER servicos_tipos_documentos_busca')
  log('  document versions')
  // The trigger that recounts 'Aguardando análise' per statement spends minutes on a million-row
  // transition table: off for the fill, then one recount of the services with a document waiting
  // (as migration 0008 does). The 'Aguardando análise' case checks it against the base tables.
  await run('ALTER TABLE documento_versoes DISABLE TRIGGER documento_versoes_painel_ins')
  // The document search's words (migration 0026) likewise: per row off, then one refresh.
  await run('ALTER TABLE documento_versoes DISABLE TRIGGER documento_versoes_busca')
  await run(`INSERT INTO documento_versoes (documento_id, caminho, tamanho, enviado_por, estado, created_at)
    SELECT d.id, 'u/' || d.servico_id || '/' || d.tipo_documento_id || '/1700000000000-'
             || (ARRAY['contrato-social', 'matricula-do-imovel', 'certidao-negativa',
                       'alvara-de-funcionamento', 'laudo-tecnico'])[1 + d.n % 5] || '-' || d.n || '.pdf',
           100000,
           d.enviado_por,
           CASE WHEN d.enviado_por = 'admin' THEN NULL
                WHEN d.n % 25 = 0 THEN 'enviado' ELSE 'aprovado' END,
           timestamptz '2026-01-01 00:00:00+00' - (d.n || ' minutes')::interval
    FROM (SELECT *, row_number() OVER (ORDER BY servico_id) AS n FROM servicos_tipos_documentos) d`)
  await run('ALTER TABLE documento_versoes ENABLE TRIGGER documento_versoes_painel_ins')
  await run('ALTER TABLE documento_versoes ENABLE TRIGGER documento_versoes_busca')
  await run('SELECT documentos_busca_refresh(array(SELECT id FROM servicos_tipos_documentos))')
  // Fresh statistics first: without them, at 1,000,000 services the recount planned a scan of
  // every waiting version per service (it ran for minutes).
  await run('ANALYZE servicos_tipos_documentos, documento_versoes, servicos_painel')
  await run(`SELECT servicos_painel_em_analise(array(
    SELECT DISTINCT d.servico_id FROM documento_versoes v
    JOIN servicos_tipos_documentos d ON d.id = v.documento_id WHERE v.estado = 'enviado'))`)
  await run('DROP TABLE bench_refs')
}

/** The expected answers, computed from the base tables (not from the dashboard's read model). */
async function expectations(db: Db) {
  const one = async <T>(q: string) =>
    ((await db.execute(sql.raw(q))) as unknown as { rows: T[] }).rows
  const hoje = today()
  const [st] = await one<{ id: string }>(`SELECT id FROM status WHERE nome = 'Aguardando cliente'`)
  const [{ n: all }] = await one<{ n: number }>(`SELECT count(*)::int AS n FROM servicos`)
  const [{ n: search }] = await one<{ n: number }>(`SELECT count(*)::int AS n FROM servicos s
    JOIN clientes c ON c.id = s.cliente_id JOIN tipos_servicos t ON t.id = s.tipo_servico_id
    WHERE unaccent(c.nome) ILIKE '%${SEARCH}%' OR unaccent(t.tipo) ILIKE '%${SEARCH}%' OR s.protocolo ILIKE '%${SEARCH}%'`)
  const [{ n: byStatus }] = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM servicos WHERE status_id = '${st.id}'`,
  )
  const [{ n: proximos }] = await one<{ n: number }>(`SELECT count(*)::int AS n FROM servicos s
    LEFT JOIN status st ON st.id = s.status_id
    WHERE lower(coalesce(st.nome, '')) NOT IN ('arquivado', 'em renovação', 'renovada')
      AND s.vigencia_fim >= '${hoje}'`)
  const [{ n: emAnalise }] = await one<{ n: number }>(`SELECT count(DISTINCT d.servico_id)::int AS n
    FROM servicos_tipos_documentos d JOIN documento_versoes v ON v.documento_id = d.id
    WHERE v.estado = 'enviado'`)
  const page = await one<{ id: string }>(`SELECT id FROM servicos ORDER BY created_at DESC, id DESC
    OFFSET ${(PAGE_TARGET - 1) * 10} LIMIT 10`)
  const typed = await one<{ id: string }>(`SELECT id FROM servicos ORDER BY created_at DESC, id DESC
    OFFSET ${(TYPED_PAGE - 1) * 10} LIMIT 10`)
  const first = await one<{ id: string }>(
    `SELECT id FROM servicos ORDER BY created_at DESC, id DESC LIMIT 10`,
  )
  const pages = (n: number) => Math.max(1, Math.ceil(n / 10))
  const searches: Record<
    string,
    { total: number; pages: number; firstIds: string[]; limited: boolean }
  > = {}
  for (const { q } of SEARCHES) {
    const ids = await searchIds(db, q)
    const total = Math.min(ids.length, 10_000)
    searches[q] = {
      total,
      pages: pages(total),
      firstIds: ids.slice(0, 10),
      limited: ids.length > 10_000,
    }
  }
  const documentos: Record<string, { total: number; firstIds: string[] }> = {}
  for (const { q } of DOC_SEARCHES) {
    const ids = await documentoIds(db, q)
    documentos[q] = { total: Math.min(ids.length, 1001), firstIds: ids.slice(0, 10) }
  }
  // The agency and stage filters from the base tables (processos), not from the read model.
  const siglas = new Map(
    (await one<{ sigla: string; id: string }>(`SELECT sigla, id FROM orgaos`)).map((r) => [
      r.sigla,
      r.id,
    ]),
  )
  const processo: Record<string, { url: string; expect: Case['expect'] }> = {}
  for (const c of PROCESSO_CASES) {
    const conds = [
      c.sigla ? `p.orgao_id = '${siglas.get(c.sigla)}'` : '',
      c.etapa ? `p.etapa = '${c.etapa}'` : '',
    ].filter(Boolean)
    let ids = (
      await one<{ id: string }>(`SELECT s.id FROM servicos s JOIN processos p ON p.servico_id = s.id
        WHERE ${conds.join(' AND ')} ORDER BY s.created_at DESC, s.id DESC`)
    ).map((r) => r.id)
    if (c.q) {
      const found = new Set(await searchIds(db, c.q))
      ids = ids.filter((id) => found.has(id))
    }
    // A search's total stops at 10,000 ("mais de 10.000"); an agency's or a stage's is exact.
    const limited = !!c.q && ids.length > 10_000
    const total = limited ? 10_000 : ids.length
    const url = new URLSearchParams()
    if (c.q) url.set('q', c.q)
    if (c.sigla) url.set('orgao_id', siglas.get(c.sigla)!)
    if (c.etapa) url.set('etapa', c.etapa)
    processo[c.name] = {
      url: `/api/admin/servicos?${url}`,
      expect: {
        total,
        pages: pages(total),
        firstIds: ids.slice(0, 10),
        limited,
      },
    }
  }
  const sample = async (sqlText: string) => (await one<{ id: string }>(sqlText)).map((r) => r.id)
  return {
    processo,
    documentos,
    statusId: st.id,
    all: { total: all, pages: pages(all), firstIds: first.map((r) => r.id) },
    search: { total: search, pages: pages(search) },
    byStatus: { total: byStatus, pages: pages(byStatus) },
    proximos: { total: proximos, pages: pages(proximos) },
    emAnalise: { total: emAnalise, pages: pages(emAnalise) },
    page4000: { total: all, pages: pages(all), firstIds: page.map((r) => r.id) },
    typed: { total: all, pages: pages(all), firstIds: typed.map((r) => r.id) },
    searches,
    // For the writes case.
    servicos: await sample(`SELECT id FROM servicos ORDER BY random() LIMIT 2000`),
    clientes: await sample(`SELECT id FROM clientes ORDER BY random() LIMIT 200`),
    tipos: await sample(`SELECT id FROM tipos_servicos`),
    status: await sample(`SELECT id FROM status`),
  }
}

/**
 * The services a search should find, newest first, from the base tables with the rule stated in
 * docs/search.md (not from the dashboard's read model): every word begins a word of the client's
 * name, the type or the protocol (accents and case ignored), or is a run of the protocol's digits.
 */
async function searchIds(db: Db, q: string) {
  // A word with punctuation inside ('PRT-2024-0001'): its parts begin words in a row.
  const words = q
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.split(/[^a-z0-9]+/).filter(Boolean))
    .filter((parts) => parts.length)
  const texto = `lower(unaccent(c.nome || ' ' || t.tipo || ' ' || coalesce(s.protocolo, '')))`
  const conds = words.map(([w, ...rest]) =>
    rest.length
      ? `${texto} ~ '(^|[^a-z0-9])${[w, ...rest].join('[a-z0-9]*[^a-z0-9]+')}'`
      : `(${texto} ~ '(^|[^a-z0-9])${w}'
      ${/^\d+$/.test(w) ? `OR EXISTS (SELECT 1 FROM regexp_split_to_table(coalesce(s.protocolo, ''), '[^0-9]+') d WHERE length(d) > 2 AND strpos(d, '${w}') > 0)` : ''})`,
  )
  const res = (await db.execute(
    sql.raw(`SELECT s.id FROM servicos s JOIN clientes c ON c.id = s.cliente_id
      JOIN tipos_servicos t ON t.id = s.tipo_servico_id
      WHERE ${conds.join(' AND ')} ORDER BY s.created_at DESC, s.id DESC`),
  )) as unknown as { rows: { id: string }[] }
  return res.rows.map((r) => r.id)
}

/**
 * The documents a document search should find, newest file first, from the base tables with the
 * rule of docs/search.md (every word begins a word of the type or of the current file's name
 * without its extension), not from the words the triggers keep.
 */
async function documentoIds(db: Db, q: string) {
  const words = q
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
  const texto = `lower(unaccent(td.tipo || ' ' || regexp_replace(regexp_replace(v.caminho, '^.*/[0-9]+-', ''), '\\.[a-z0-9]+$', '')))`
  const res = (await db.execute(
    sql.raw(`SELECT d.id FROM servicos_tipos_documentos d
      JOIN documento_versoes v ON v.documento_id = d.id AND v.atual
      JOIN tipos_documentos td ON td.id = d.tipo_documento_id
      WHERE ${words.map((w) => `${texto} ~ '(^|[^a-z0-9])${w}'`).join(' AND ')}
      ORDER BY v.created_at DESC, d.id DESC`),
  )) as unknown as { rows: { id: string }[] }
  return res.rows.map((r) => r.id)
}

// ---- the server process ----

/** Peak resident memory of a process (kernel's high-water mark), in MB. */
const peakMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return Math.round(kb / 1024)
}

/** CPU time (user + system) a process has used, in ms (/proc, clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const campos = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(campos[11]) + Number(campos[12])) * 10
}

const residentMb = (pid: number) =>
  Math.round(
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
  )

type Pagina = {
  rows: { id: string }[]
  total: number
  total_limitado?: boolean
  page: number
  pages: number
  next: string | null
}

async function getPage(base: string, cookie: string, url: string): Promise<Pagina> {
  const res = await fetch(`${base}${url}`, { headers: { cookie } })
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as Pagina
}

function check(c: Case, got: Pagina) {
  const { total, pages, firstIds, limited = false } = c.expect
  if (got.total !== total || got.pages !== pages || Boolean(got.total_limitado) !== limited)
    throw new Error(
      `${c.name}: expected total ${total}${limited ? '+' : ''} / ${pages} pages, got ${got.total}${got.total_limitado ? '+' : ''} / ${got.pages}`,
    )
  if (got.rows.length !== Math.min(10, total)) throw new Error(`${c.name}: ${got.rows.length} rows`)
  if (firstIds && JSON.stringify(got.rows.map((r) => r.id)) !== JSON.stringify(firstIds))
    throw new Error(`${c.name}: rows differ from the expected page`)
}

type DocumentosCase = {
  name: string
  url: string
  expect?: undefined
  documentos: { total: number; firstIds: string[] }
}

/** A document search's first page against the base tables: its total (up to 1,001) and rows. */
function checkDocumentos(c: DocumentosCase, got: Pagina) {
  if (got.total !== c.documentos.total)
    throw new Error(`${c.name}: expected total ${c.documentos.total}, got ${got.total}`)
  if (JSON.stringify(got.rows.map((r) => r.id)) !== JSON.stringify(c.documentos.firstIds))
    throw new Error(`${c.name}: rows differ from the expected page`)
}

/** Walks the next-page button from page 1 to PAGE_TARGET, as the screen does; returns that URL. */
async function walkToPage(base: string, cookie: string) {
  let url = '/api/admin/servicos'
  let page = await getPage(base, cookie, url)
  for (let n = 2; n <= PAGE_TARGET; n++) {
    url = `/api/admin/servicos?page=${n}&after=${page.next}`
    page = await getPage(base, cookie, url)
  }
  return url
}

type Expect = Awaited<ReturnType<typeof expectations>>

/**
 * Writes as analysts make them, beside each other: WRITERS connections for WRITE_SECONDS, each
 * request one of: change a service's status (45%), change its end date (45%), add a service to a
 * client (5%), delete a service it added (5%). Returns writes/s and errors; the caller then checks
 * every maintained count against the base tables.
 */
async function writeLoad(base: string, cookie: string, exp: Expect) {
  const headers = { cookie, 'content-type': 'application/json', origin: base }
  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]
  const created: string[] = []
  let ok = 0
  let errors = 0
  const until = Date.now() + WRITE_SECONDS * 1000
  const day = (n: number) =>
    new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10)
  async function one() {
    const r = Math.random()
    let res: Response
    if (r < 0.45) {
      res = await fetch(`${base}/api/admin/servicos/${pick(exp.servicos)}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ status_id: pick(exp.status) }),
      })
    } else if (r < 0.9) {
      res = await fetch(`${base}/api/admin/servicos/${pick(exp.servicos)}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ vigencia_fim: day(1300 + Math.floor(Math.random() * 2000)) }),
      })
    } else if (r < 0.95 || !created.length) {
      res = await fetch(`${base}/api/admin/clientes/${pick(exp.clientes)}/servicos`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ tipo_servico_id: pick(exp.tipos), vigencia_inicio: day(700) }),
      })
      if (res.ok) created.push(((await res.json()) as { id: string }).id)
    } else {
      const id = created.splice(Math.floor(Math.random() * created.length), 1)[0]
      res = await fetch(`${base}/api/admin/servicos/${id}`, {
        method: 'DELETE',
        headers: { cookie, origin: base },
      })
    }
    if (res.ok) ok++
    else {
      errors++
      if (errors <= 3) console.error(`write ${res.status}: ${(await res.text()).slice(0, 200)}`)
    }
    if (!res.bodyUsed) await res.arrayBuffer()
  }
  const t0 = Date.now()
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (Date.now() < until) await one()
    }),
  )
  return { wps: ok / ((Date.now() - t0) / 1000), errors }
}

/**
 * Every maintained count (and the search's words, the digits' starts and their services,
 * migrations 0016, 0045 and 0046) against the base tables: 0 means exact.
 */
async function consistency(db: Db) {
  const res = (await db.execute(
    sql.raw(`SELECT
      (SELECT count(*) FROM servicos s LEFT JOIN servicos_painel p ON p.servico_id = s.id
        LEFT JOIN status st ON st.id = s.status_id
        WHERE p.servico_id IS NULL OR p.status_id IS DISTINCT FROM s.status_id
           OR p.vigencia_fim IS DISTINCT FROM CASE
             WHEN lower(coalesce(st.nome, '')) IN ('em renovação', 'renovada') THEN NULL
             ELSE s.vigencia_fim END) +
      (SELECT count(*) FROM servicos_painel p WHERE NOT EXISTS (SELECT 1 FROM servicos s WHERE s.id = p.servico_id)) +
      (SELECT count(*) FROM (
        (SELECT s.id, s.vigencia_fim - t.antecedencia_renovacao FROM servicos s
           JOIN tipos_servicos t ON t.id = s.tipo_servico_id
          WHERE s.vigencia_fim IS NOT NULL AND t.antecedencia_renovacao IS NOT NULL
         EXCEPT SELECT servico_id, prazo_renovacao FROM servicos_prazos)
        UNION ALL
        (SELECT servico_id, prazo_renovacao FROM servicos_prazos
         EXCEPT SELECT s.id, s.vigencia_fim - t.antecedencia_renovacao FROM servicos s
           JOIN tipos_servicos t ON t.id = s.tipo_servico_id)) prazos) +
      (SELECT count(*) FROM servicos_painel p LEFT JOIN processos pr ON pr.servico_id = p.servico_id
        WHERE (p.orgao_id, p.etapa) IS DISTINCT FROM (pr.orgao_id, pr.etapa)) +
      (SELECT count(*) FROM (
        (SELECT categoria_id, status_id, count(*)::int FROM servicos_painel GROUP BY 1, 2
         EXCEPT SELECT categoria_id, status_id, total FROM servicos_contagem WHERE total <> 0)
        UNION ALL
        (SELECT categoria_id, status_id, total FROM servicos_contagem WHERE total <> 0
         EXCEPT SELECT categoria_id, status_id, count(*)::int FROM servicos_painel GROUP BY 1, 2)) a) +
      (SELECT count(*) FROM (
        (SELECT categoria_id, status_id, arquivado, date_trunc('month', vigencia_fim)::date, count(*)::int FROM servicos_painel GROUP BY 1, 2, 3, 4
         EXCEPT SELECT categoria_id, status_id, arquivado, mes, total FROM servicos_contagem_mes WHERE total <> 0)
        UNION ALL
        (SELECT categoria_id, status_id, arquivado, mes, total FROM servicos_contagem_mes WHERE total <> 0
         EXCEPT SELECT categoria_id, status_id, arquivado, date_trunc('month', vigencia_fim)::date, count(*)::int FROM servicos_painel GROUP BY 1, 2, 3, 4)) b) +
      (SELECT count(*) FROM (
        (SELECT categoria_id, status_id, date_trunc('month', created_at, 'UTC'), count(*)::int FROM servicos_painel GROUP BY 1, 2, 3
         EXCEPT SELECT categoria_id, status_id, mes, total FROM servicos_contagem_criacao WHERE total <> 0)
        UNION ALL
        (SELECT categoria_id, status_id, mes, total FROM servicos_contagem_criacao WHERE total <> 0
         EXCEPT SELECT categoria_id, status_id, date_trunc('month', created_at, 'UTC'), count(*)::int FROM servicos_painel GROUP BY 1, 2, 3)) c) +
      (SELECT count(*) FROM (
        (SELECT date_trunc('day', created_at, 'UTC'), categoria_id, status_id, count(*)::int FROM servicos_painel GROUP BY 1, 2, 3
         EXCEPT SELECT dia, categoria_id, status_id, total FROM servicos_contagem_dia WHERE total <> 0)
        UNION ALL
        (SELECT dia, categoria_id, status_id, total FROM servicos_contagem_dia WHERE total <> 0
         EXCEPT SELECT date_trunc('day', created_at, 'UTC'), categoria_id, status_id, count(*)::int FROM servicos_painel GROUP BY 1, 2, 3)) e) +
      (SELECT count(*) FROM (
        (SELECT w COLLATE "C", count(*)::int FROM servicos_painel, unnest(tsvector_to_array(termos)) w WHERE w ~ '^[a-z]' GROUP BY w
         EXCEPT (SELECT palavra, servicos FROM busca_palavras WHERE servicos <> 0 AND strpos(palavra, '.') = 0
                 UNION ALL SELECT palavra, servicos FROM busca_juntas WHERE servicos <> 0 AND strpos(palavra, '.') > 0))
        UNION ALL
        ((SELECT palavra, servicos FROM busca_palavras WHERE servicos <> 0 AND strpos(palavra, '.') = 0
          UNION ALL SELECT palavra, servicos FROM busca_juntas WHERE servicos <> 0 AND strpos(palavra, '.') > 0)
         EXCEPT SELECT w COLLATE "C", count(*)::int FROM servicos_painel, unnest(tsvector_to_array(termos)) w WHERE w ~ '^[a-z]' GROUP BY w)) d) +
      (SELECT count(*) FROM (
        (SELECT d, count(*)::int FROM servicos_painel, unnest(busca_digitos_de(termos)) d GROUP BY d
         EXCEPT SELECT prefixo, servicos FROM busca_digitos WHERE servicos <> 0)
        UNION ALL
        (SELECT prefixo, servicos FROM busca_digitos WHERE servicos <> 0
         EXCEPT SELECT d, count(*)::int FROM servicos_painel, unnest(busca_digitos_de(termos)) d GROUP BY d)) g) +
      (SELECT count(*) FROM (
        (SELECT d, created_at, servico_id FROM servicos_painel, unnest(busca_digitos_de(termos)) d WHERE length(d) = 4
         EXCEPT ALL SELECT prefixo, created_at, servico_id FROM busca_digitos_servicos)
        UNION ALL
        (SELECT prefixo, created_at, servico_id FROM busca_digitos_servicos
         EXCEPT ALL SELECT d, created_at, servico_id FROM servicos_painel, unnest(busca_digitos_de(termos)) d WHERE length(d) = 4)) h) +
      (SELECT count(*) FROM (
        (SELECT orgao_id, etapa, documentos_em_analise > 0, categoria_id, status_id, count(*)::int FROM servicos_painel GROUP BY 1, 2, 3, 4, 5
         EXCEPT SELECT orgao_id, etapa, em_analise, categoria_id, status_id, total FROM servicos_contagem_filtros WHERE total <> 0)
        UNION ALL
        (SELECT orgao_id, etapa, em_analise, categoria_id, status_id, total FROM servicos_contagem_filtros WHERE total <> 0
         EXCEPT SELECT orgao_id, etapa, documentos_em_analise > 0, categoria_id, status_id, count(*)::int FROM servicos_painel GROUP BY 1, 2, 3, 4, 5)) f) +
      (SELECT count(*) FROM (
        (SELECT vigencia_fim, categoria_id, status_id, count(*)::int FROM servicos_painel WHERE NOT arquivado AND vigencia_fim IS NOT NULL GROUP BY 1, 2, 3
         EXCEPT SELECT dia, categoria_id, status_id, total FROM servicos_contagem_vigencia WHERE total <> 0)
        UNION ALL
        (SELECT dia, categoria_id, status_id, total FROM servicos_contagem_vigencia WHERE total <> 0
         EXCEPT SELECT vigencia_fim, categoria_id, status_id, count(*)::int FROM servicos_painel WHERE NOT arquivado AND vigencia_fim IS NOT NULL GROUP BY 1, 2, 3)) v) +
      (SELECT count(*) FROM (
        (SELECT w COLLATE "C", count(*)::int FROM servicos_tipos_documentos, unnest(tsvector_to_array(termos)) w WHERE enviado_em IS NOT NULL AND w ~ '^[a-z]' GROUP BY w
         EXCEPT SELECT palavra, documentos FROM documentos_palavras WHERE documentos <> 0)
        UNION ALL
        (SELECT palavra, documentos FROM documentos_palavras WHERE documentos <> 0
         EXCEPT SELECT w COLLATE "C", count(*)::int FROM servicos_tipos_documentos, unnest(tsvector_to_array(termos)) w WHERE enviado_em IS NOT NULL AND w ~ '^[a-z]' GROUP BY w)) w)
      AS wrong`),
  )) as unknown as { rows: { wrong: number | string }[] }
  return Number(res.rows[0].wrong)
}

/** The dashboard's cases (BENCH_CASE's) on a running server, each checked against `exp`. */
export async function casosDoPainel(
  base: string,
  cookie: string,
  exp: Expect,
  label: string,
  pid: number,
): Promise<Medido[]> {
  let pageUrl = ''
  if (selected(`page ${PAGE_TARGET} (next button)`)) {
    log(`${label}: walking the next-page button to page ${PAGE_TARGET}...`)
    const t0 = Date.now()
    pageUrl = await walkToPage(base, cookie)
    log(
      `${label}: resident ${residentMb(pid)} MB; reached page ${PAGE_TARGET} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    )
  }
  const searchUrl = (q: string) => `/api/admin/servicos?q=${encodeURIComponent(q)}`
  let next = 0
  let nextDigits = 0
  let nextProtocolo = 0
  const cases: (
    | Case
    | { name: string; url: () => string; expect?: undefined; novas?: boolean }
    | DocumentosCase
    | CalendarioCase
  )[] = [
    { name: 'first page', url: '/api/admin/servicos', expect: exp.all },
    { name: `search '${SEARCH}'`, url: searchUrl(SEARCH.toLowerCase()), expect: exp.search },
    {
      name: 'status filter',
      url: `/api/admin/servicos?status_id=${exp.statusId}`,
      expect: exp.byStatus,
    },
    { name: 'Próximos a vencer', url: '/api/admin/servicos?proximos=1', expect: exp.proximos },
    { name: `page ${PAGE_TARGET} (next button)`, url: pageUrl, expect: exp.page4000 },
    {
      name: 'Aguardando análise',
      url: '/api/admin/servicos?em_analise=1',
      expect: exp.emAnalise,
    },
    ...SEARCHES.map((c) => ({
      name: `${c.name} '${c.q}'`,
      url: searchUrl(c.q),
      expect: exp.searches[c.q],
    })),
    {
      name: `page ${TYPED_PAGE} typed (no position)`,
      url: `/api/admin/servicos?page=${TYPED_PAGE}`,
      expect: exp.typed,
    },
    {
      name: `varied: ${VARIED.length} terms, a new one each request`,
      url: () => searchUrl(VARIED[next++ % VARIED.length]),
    },
    {
      // Not read before the load: its first reading (the total) is what it measures.
      name: `digits: ${DIGITOS.length.toLocaleString('en-US')} fragments of three and four digits, a new one each request`,
      url: () => searchUrl(DIGITOS[nextDigits++ % DIGITOS.length]),
      novas: true,
    },
    {
      // The same: each request a protocol pasted that was not read before (its count, its page).
      name: `protocols: ${PROTOCOLOS.length.toLocaleString('en-US')} pasted with their year, a new one each request`,
      url: () => searchUrl(PROTOCOLOS[nextProtocolo++ % PROTOCOLOS.length]),
      novas: true,
    },
    ...PROCESSO_CASES.map((c) => ({ name: c.name, ...exp.processo[c.name] })),
    ...CALENDARIO_CASES.map((c): CalendarioCase => ({ ...c, calendario: true })),
    ...DOC_SEARCHES.map((c) => ({
      name: `${c.name} '${c.q}'`,
      url: `/api/admin/documentos/busca?q=${encodeURIComponent(c.q)}`,
      documentos: exp.documentos[c.q],
    })),
  ]
  const confere = async (c: (typeof cases)[number]) => {
    if ('documentos' in c) checkDocumentos(c, await getPage(base, cookie, c.url))
    else if (c.expect) check(c as Case, await getPage(base, cookie, c.url as string))
  }
  return cases
    .filter((x) => selected(x.name))
    .map((c) => {
      const total =
        'calendario' in c
          ? 'events'
          : 'documentos' in c
            ? `${Math.min(c.documentos.total, 1000).toLocaleString('en-US')}${c.documentos.total > 1000 ? '+' : ''}`
            : c.expect
              ? `${c.expect.total.toLocaleString('en-US')}${c.expect.limited ? '+' : ''} / ${c.expect.pages.toLocaleString('en-US')} p.`
              : 'each its own'
      return {
        name: c.name,
        url: c.url,
        total,
        antes: async () => {
          if ('calendario' in c) await checkCalendario(base, cookie, c)
          else if (c.expect || 'documentos' in c) await confere(c)
          else if (!('novas' in c))
            for (const term of VARIED) await getPage(base, cookie, searchUrl(term)) // answers 200
        },
        depois: () => confere(c),
      }
    })
}

async function benchDatabase(
  label: string,
  main: string,
  prepare: () => Promise<{
    env: Record<string, string>
    /** Opens the database after the server stopped and checks every maintained count. */
    verify: () => Promise<number>
    cleanup: () => Promise<void>
  }>,
) {
  const rows: Row[] = []
  const { env, verify, cleanup } = await prepare()
  let peak = 0
  let writes = { wps: 0, errors: 0, wrong: -1 }
  /** The first page at 50 connections and PostgreSQL alone on its statement, same run. */
  let sozinho: Sozinho | undefined
  try {
    const { child, base } = await startBenchServer(main, env)
    try {
      log(`${label}: server up, resident ${residentMb(child.pid!)} MB`)
      const cookie = await signIn(base)
      const exp = JSON.parse(env.BENCH_EXPECT) as Expect
      for (const c of await casosDoPainel(base, cookie, exp, label, child.pid!)) {
        await c.antes()
        const low = await load(base, cookie, c.url, 4)
        const cpu0 = cpuMs(child.pid!)
        const high = await load(base, cookie, c.url, 50)
        // The server's CPU per answer at 50 connections: what the machine's load hides least.
        const cpu = (cpuMs(child.pid!) - cpu0) / Math.max(1, high.rps * SECONDS)
        await c.depois()
        const row: Row = {
          db: label,
          case: `${c.name} (${c.total})`,
          p50: low.p50,
          p95: low.p95,
          p99: low.p99,
          rps: high.rps,
          errors: low.errors + high.errors,
        }
        rows.push(row)
        if (c.name === 'first page' && env.DATABASE_URL) {
          // The endpoint and PostgreSQL alone in turns, three times (the first turn's endpoint is
          // the row's): a 2-core machine's moments differ more than the two do, so the share is
          // the median turn's.
          const turnos: { rps: number; tps: number }[] = []
          for (let i = 0; i < 3; i++) {
            const rps = i ? (await load(base, cookie, c.url, 50)).rps : high.rps
            const tps = await primeiraPaginaSozinho(env.DATABASE_URL, 50, SECONDS)
            turnos.push({ rps, tps })
            log(
              `${label} | turn ${i + 1}: the endpoint ${Math.round(rps)} req/s, PostgreSQL alone ${Math.round(tps)}/s = ${Math.round((rps / tps) * 100)} %`,
            )
          }
          const mediana = [...turnos].sort((a, b) => a.rps / a.tps - b.rps / b.tps)[1]
          sozinho = { ...mediana, cpu, turnos }
        }
        log(
          `${label} | ${row.case} | p50 ${row.p50} p95 ${row.p95} p99 ${row.p99} ms | ${Math.round(row.rps)} req/s | errors ${row.errors} | server CPU ${cpu.toFixed(2)} ms/req`,
        )
      }
      peak = peakMb(child.pid!)
      if (CASE_FILTER && !CASE_FILTER.includes('writes')) return { rows, peak, writes, sozinho }
      log(`${label}: writes, ${WRITERS} connections for ${WRITE_SECONDS} s...`)
      const w = await writeLoad(base, cookie, exp)
      writes = { ...w, wrong: -1 }
    } finally {
      await stopServer(child)
    }
    writes.wrong = await verify()
    log(
      `${label} | writes ${Math.round(writes.wps)}/s, errors ${writes.errors}, maintained counts wrong ${writes.wrong}`,
    )
  } finally {
    await cleanup()
  }
  return { rows, peak, writes, sozinho }
}

/**
 * A PostgreSQL database of the bench's (`nome`) for the server: filled anew, or read as it was
 * (`reusar`: filled earlier with BENCH_FILL_ONLY); its expectations, the check of its maintained
 * counts, and its cleanup.
 */
async function prepararPostgres(nome: string, reusar: boolean) {
  const admin = new pg.Client({ connectionString: PG_URL })
  await admin.connect()
  if (!reusar) {
    await admin.query(`DROP DATABASE IF EXISTS ${nome} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${nome}`)
  }
  const u = new URL(PG_URL)
  u.pathname = `/${nome}`
  log(`PostgreSQL: ${reusar ? 'reading' : 'filling'} ${nome}...`)
  const database = await openDatabase({ databaseUrl: u.toString() })
  await database.migrate()
  let exp: Expect
  if (reusar) {
    // The admin enrolled its second factor on the run that filled it: enrolled again now.
    await resetTwoFactor(database.db, ADMIN.email)
    exp = await expectations(database.db)
  } else {
    await seedStatuses(database.db)
    exp = await prepareDb(database.db)
  }
  await database.close()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'))
  return {
    env: { DATABASE_URL: u.toString(), DATA_DIR: dataDir, BENCH_EXPECT: JSON.stringify(exp) },
    verify: async () => {
      const db = await openDatabase({ databaseUrl: u.toString() })
      try {
        return await consistency(db.db)
      } finally {
        await db.close()
      }
    },
    cleanup: async () => {
      if (!process.env.BENCH_KEEP && !reusar)
        await admin.query(`DROP DATABASE IF EXISTS ${nome} WITH (FORCE)`)
      await admin.end()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

async function prepareDb(db: Db) {
  const t0 = Date.now()
  await fill(db)
  await db.execute(sql.raw('VACUUM ANALYZE'))
  const exp = await expectations(db)
  log(`data set ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  return exp
}

// ---- The Auditoria screen at one year of a busy consultancy ----

const AUD_CLIENTES = 1_000
const AUD_SERVICOS = 5_000
const AUD_EVENTOS = Number(process.env.BENCH_EVENTOS ?? 200_000)
const AUD_PG_DB = `portal_bench_auditoria${PG_DB_SUFFIX}`

/**
 * 1,000 clients, 5,000 services and 200,000 audit events over one year, the events in one
 * INSERT … SELECT generate_series with migration 0014's trigger in place (inserts are allowed).
 * Eight analysts; actions and entities mixed as the portal writes them.
 */
async function fillAuditoria(db: Db) {
  const run = (q: string) => db.execute(sql.raw(q))
  await run(`INSERT INTO categorias (nome) VALUES ('Licenciamento')`)
  await run(`INSERT INTO tipos_servicos (tipo, categoria_id, validade)
    SELECT t, (SELECT id FROM categorias LIMIT 1), 365 FROM unnest(${arr(TIPOS)}) t`)
  await run(`INSERT INTO clientes (nome, documento, email)
    SELECT (${arr(FIRST)})[1 + g % 60] || ' ' || (${arr(LAST)})[1 + (g / 60) % 60],
           lpad(g::text, 11, '0'), 'cliente' || g || '@bench.test'
    FROM generate_series(1, ${AUD_CLIENTES}) g`)
  await run(`INSERT INTO servicos (cliente_id, tipo_servico_id, status_id, protocolo, vigencia_inicio, vigencia_fim)
    SELECT (SELECT array_agg(id ORDER BY documento) FROM clientes)[1 + g % ${AUD_CLIENTES}],
           (SELECT array_agg(id ORDER BY tipo) FROM tipos_servicos)[1 + g % ${TIPOS.length}],
           (SELECT array_agg(id ORDER BY created_at) FROM status)[1 + g % 6],
           'PROT-' || lpad(g::text, 7, '0'), date '2025-01-01', date '2027-01-01'
    FROM generate_series(1, ${AUD_SERVICOS}) g`)
  await run(`CREATE TEMP TABLE bench_servicos AS
    SELECT row_number() OVER (ORDER BY s.protocolo) AS n, s.id, s.cliente_id,
           t.tipo || ' (' || s.protocolo || ')' AS rotulo
    FROM servicos s JOIN tipos_servicos t ON t.id = s.tipo_servico_id`)
  await run(
    `CREATE TEMP TABLE bench_status AS SELECT array_agg(id ORDER BY created_at) AS ids FROM status`,
  )
  await run(`INSERT INTO auditoria (em, ator_id, ator_email, ator_role, ip, user_agent, acao, entidade,
      entidade_id, rotulo, servico_id, cliente_id, antes, depois)
    SELECT timestamptz '2026-01-01 00:00:00+00' - (g * ${Math.floor((365 * 86400) / AUD_EVENTOS)} || ' seconds')::interval,
           'bench-analista-' || g % 8, 'analista' || g % 8 || '@bench.test', 'admin',
           '10.0.' || g % 250 || '.1', 'Mozilla/5.0 (bench)',
           (ARRAY['alterar','ler','criar','download','email','entrar','alterar','ler'])[1 + g % 8],
           CASE g % 8 WHEN 3 THEN 'documento' WHEN 5 THEN 'usuario' ELSE 'servico' END,
           s.id::text, s.rotulo, s.id, s.cliente_id,
           CASE WHEN g % 8 IN (0, 6) THEN jsonb_build_object('status_id', st.ids[1 + g % 6]) END,
           CASE WHEN g % 8 IN (0, 6) THEN jsonb_build_object('status_id', st.ids[1 + (g + 1) % 6]) END
    FROM generate_series(1, ${AUD_EVENTOS}) g
    JOIN bench_servicos s ON s.n = 1 + g % ${AUD_SERVICOS}
    CROSS JOIN bench_status st`)
  await run('DROP TABLE bench_servicos')
  await run('DROP TABLE bench_status')
  await run('VACUUM ANALYZE')
}

/** The cursor the screen would hold at `offset` rows down the unfiltered list (a deep page). */
async function cursorAt(db: Db, offset: number) {
  const r = (await db.execute(
    sql.raw(`SELECT to_char(em at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS chave, id::text AS id
     FROM auditoria ORDER BY em DESC, id DESC OFFSET ${offset} LIMIT 1`),
  )) as unknown as { rows: { chave: string; id: string }[] }
  const { chave, id } = r.rows[0]
  return Buffer.from(`${chave}|${id}`).toString('base64url')
}

/** The Auditoria cases on one database: each answer checked (200, a full page), then loaded. */
async function benchAuditoria(label: string, main: string, kind: 'pglite' | 'postgres') {
  const rows: Row[] = []
  let env: Record<string, string>
  let cleanup: () => Promise<void>
  let deep: string
  const t0 = Date.now()
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-aud-'))
    const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') })
    await database.migrate()
    await seedStatuses(database.db)
    await fillAuditoria(database.db)
    deep = await cursorAt(database.db, Math.floor(AUD_EVENTOS * 0.75))
    await database.close()
    env = { DATA_DIR: dataDir }
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true })
  } else {
    const admin = new pg.Client({ connectionString: PG_URL })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS ${AUD_PG_DB} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${AUD_PG_DB}`)
    const u = new URL(PG_URL)
    u.pathname = `/${AUD_PG_DB}`
    const database = await openDatabase({ databaseUrl: u.toString() })
    await database.migrate()
    await seedStatuses(database.db)
    await fillAuditoria(database.db)
    deep = await cursorAt(database.db, Math.floor(AUD_EVENTOS * 0.75))
    await database.close()
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-aud-'))
    env = { DATABASE_URL: u.toString(), DATA_DIR: dataDir }
    cleanup = async () => {
      if (!process.env.BENCH_KEEP)
        await admin.query(`DROP DATABASE IF EXISTS ${AUD_PG_DB} WITH (FORCE)`)
      await admin.end()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  log(
    `${label}: Auditoria data set (${AUD_EVENTOS.toLocaleString('en-US')} events) ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  )
  try {
    const { child, base } = await startBenchServer(main, env)
    try {
      const cookie = await signIn(base)
      const cases = [
        { name: 'Auditoria first page', url: '/api/admin/auditoria' },
        { name: 'Auditoria filtered: action download', url: '/api/admin/auditoria?acao=download' },
        {
          name: 'Auditoria filtered: entity documento, one month',
          url: '/api/admin/auditoria?entidade=documento&de=2025-06-01&ate=2025-06-30',
        },
        {
          name: 'Auditoria filtered: user analista3',
          url: '/api/admin/auditoria?usuario=analista3',
        },
        {
          name: `Auditoria deep keyset page (${Math.floor(AUD_EVENTOS * 0.75).toLocaleString('en-US')} rows down)`,
          url: `/api/admin/auditoria?page=${Math.floor(AUD_EVENTOS * 0.075)}&after=${deep}`,
        },
        { name: "Auditoria free text 'PROT-0000123'", url: '/api/admin/auditoria?q=PROT-0000123' },
        { name: "Auditoria free text 'analista3'", url: '/api/admin/auditoria?q=analista3' },
        {
          name: 'Auditoria CSV of one service (q)',
          url: '/api/admin/auditoria/csv?q=PROT-0000123',
        },
      ]
      for (const c of cases) {
        const res = await fetch(`${base}${c.url}`, { headers: { cookie } })
        const text = await res.text()
        if (!res.ok) throw new Error(`${c.name}: ${res.status} ${text}`)
        const got = c.url.includes('/csv') ? null : (JSON.parse(text) as Pagina)
        if (got && got.rows.length !== 10) throw new Error(`${c.name}: ${got.rows.length} rows`)
        const low = await load(base, cookie, c.url, 4)
        const total = got
          ? `${got.total.toLocaleString('en-US')}${got.total_limitado ? '+' : ''}`
          : 'CSV'
        const row: Row = {
          db: label,
          case: `${c.name} (${total})`,
          p50: low.p50,
          p95: low.p95,
          p99: low.p99,
          rps: low.rps,
          errors: low.errors,
        }
        rows.push(row)
        log(
          `${label} | ${row.case} | p50 ${row.p50} p95 ${row.p95} p99 ${row.p99} ms | errors ${row.errors}`,
        )
      }
    } finally {
      await stopServer(child)
    }
  } finally {
    await cleanup()
  }
  return rows
}

function auditoriaTable(rows: Row[]) {
  return tabela(
    `Auditoria endpoint \`GET /api/admin/auditoria\`, ${AUD_CLIENTES.toLocaleString('en-US')} clients, ${AUD_SERVICOS.toLocaleString('en-US')} services, ${AUD_EVENTOS.toLocaleString('en-US')} events, ${SECONDS} s per load at 4 connections, ${new Date().toISOString().slice(0, 10)}. Target: p95 < 50 ms on PostgreSQL.`,
    rows,
  )
}

// ---- The admin menu "Condicionantes" at 100,000 services and 500,000 entregas ----

const CND_SERVICOS = Number(process.env.BENCH_COND_SERVICOS ?? 100_000)
const CND_CLIENTES = Math.max(1, Math.floor(CND_SERVICOS / 5))
/** Five entregas per condicionante, one condicionante per service: 500,000 at the full scale. */
const CND_ENTREGAS = CND_SERVICOS * 5
const CND_PG_DB = `portal_bench_condicionantes${PG_DB_SUFFIX}`

/**
 * One client per five services, each service with one quarterly condicionante of five entregas
 * around today (late, in their window, ahead; some fulfilled, in review or "Não se aplica"). The
 * entregas go in one INSERT … SELECT with the count's trigger off, then the count table in one
 * grouped INSERT (what the trigger would have kept), then the trigger back on.
 */
async function fillCondicionantes(db: Db) {
  const run = (q: string) => db.execute(sql.raw(q))
  await run(`INSERT INTO categorias (nome) VALUES ('Licenciamento')`)
  await run(`INSERT INTO tipos_servicos (tipo, categoria_id, validade)
    SELECT t, (SELECT id FROM categorias LIMIT 1), 365 FROM unnest(${arr(TIPOS)}) t`)
  await run(`INSERT INTO clientes (nome, documento, email)
    SELECT (${arr(FIRST)})[1 + g % 60] || ' ' || (${arr(LAST)})[1 + (g / 60) % 60],
           lpad(g::text, 11, '0'), 'cliente' || g || '@bench.test'
    FROM generate_series(1, ${CND_CLIENTES}) g`)
  await run(`INSERT INTO servicos (cliente_id, tipo_servico_id, status_id, protocolo, vigencia_inicio, vigencia_fim)
    SELECT (SELECT array_agg(id ORDER BY documento) FROM clientes)[1 + g % ${CND_CLIENTES}],
           (SELECT array_agg(id ORDER BY tipo) FROM tipos_servicos)[1 + g % ${TIPOS.length}],
           (SELECT array_agg(id ORDER BY created_at) FROM status)[1 + g % 6],
           'PROT-' || lpad(g::text, 7, '0'), date '2024-01-01', date '2030-12-31'
    FROM generate_series(1, ${CND_SERVICOS}) g`)
  await run(`INSERT INTO condicionantes (servico_id, item, descricao, tipo, primeiro_prazo,
      periodicidade, antecedencia_dias, responsavel, visivel_cliente)
    SELECT s.id, (1 + n % 9) || '.' || (1 + n % 4), 'Apresentar relatório de monitoramento ' || n,
           'prazo', current_date - 400 + (n % 500)::int, 'trimestral', 30,
           CASE WHEN n % 3 = 0 THEN 'consultoria' ELSE 'cliente' END, n % 10 <> 0
    FROM (SELECT id, row_number() OVER (ORDER BY protocolo) AS n FROM servicos) s`)
  await run(
    'ALTER TABLE condicionantes_entregas DISABLE TRIGGER condicionantes_entregas_contagem_trg',
  )
  await run(`INSERT INTO condicionantes_entregas (condicionante_id, servico_id, cliente_id,
      responsavel, data_prevista, aviso_em, estado)
    SELECT c.id, c.servico_id, s.cliente_id, c.responsavel, d.d, d.d - 30,
           CASE WHEN d.d < current_date AND (k + hashtext(c.id::text)) % 4 = 0 THEN 'cumprida'
                WHEN (k + hashtext(c.id::text)) % 23 = 0 THEN 'em_analise'
                WHEN (k + hashtext(c.id::text)) % 41 = 0 THEN 'nao_se_aplica'
                ELSE 'pendente' END
    FROM condicionantes c JOIN servicos s ON s.id = c.servico_id
    CROSS JOIN generate_series(0, 4) k
    CROSS JOIN LATERAL (SELECT (c.primeiro_prazo + make_interval(months => 3 * k))::date AS d) d`)
  await run(`INSERT INTO condicionantes_entregas_contagem (data_prevista, aviso_em, estado, responsavel, n)
    SELECT data_prevista, aviso_em, estado, responsavel, count(*)::int
    FROM condicionantes_entregas GROUP BY 1, 2, 3, 4`)
  await run(
    'ALTER TABLE condicionantes_entregas ENABLE TRIGGER condicionantes_entregas_contagem_trg',
  )
  await run('VACUUM ANALYZE')
}

/** The "Condicionantes" cases on one database: each answer checked (200, a page), then loaded. */
async function benchCondicionantes(label: string, main: string, kind: 'pglite' | 'postgres') {
  const rows: Row[] = []
  let job: JobRow[] = []
  let env: Record<string, string>
  let reopen: () => ReturnType<typeof openDatabase>
  let cleanup: () => Promise<void>
  let clienteId: string
  const t0 = Date.now()
  const umCliente = async (db: Db) => {
    const r = (await db.execute(
      sql.raw(`SELECT cliente_id::text AS id FROM condicionantes_entregas LIMIT 1`),
    )) as unknown as { rows: { id: string }[] }
    return r.rows[0].id
  }
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-cond-'))
    const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') })
    await database.migrate()
    await seedStatuses(database.db)
    await fillCondicionantes(database.db)
    clienteId = await umCliente(database.db)
    await database.close()
    reopen = () => openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') })
    env = { DATA_DIR: dataDir }
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true })
  } else {
    const admin = new pg.Client({ connectionString: PG_URL })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS ${CND_PG_DB} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${CND_PG_DB}`)
    const u = new URL(PG_URL)
    u.pathname = `/${CND_PG_DB}`
    const database = await openDatabase({ databaseUrl: u.toString() })
    await database.migrate()
    await seedStatuses(database.db)
    await fillCondicionantes(database.db)
    clienteId = await umCliente(database.db)
    await database.close()
    reopen = () => openDatabase({ databaseUrl: u.toString() })
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-cond-'))
    env = { DATABASE_URL: u.toString(), DATA_DIR: dataDir }
    cleanup = async () => {
      if (!process.env.BENCH_KEEP)
        await admin.query(`DROP DATABASE IF EXISTS ${CND_PG_DB} WITH (FORCE)`)
      await admin.end()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  log(
    `${label}: Condicionantes data set (${CND_ENTREGAS.toLocaleString('en-US')} entregas) ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  )
  try {
    const { child, base } = await startBenchServer(main, env)
    try {
      const cookie = await signIn(base)
      const hoje = today()
      const mes = `de=${hoje}&ate=${addDaysIso(hoje, 30)}`
      const cases = [
        { name: 'Condicionantes first page', url: '/api/admin/condicionantes' },
        ...(['atrasada', 'proxima', 'no_prazo', 'em_analise', 'cumprida'] as const).map((s) => ({
          name: `Condicionantes Situação ${s}`,
          url: `/api/admin/condicionantes?situacao=${s}`,
        })),
        {
          name: 'Condicionantes Responsável consultoria',
          url: '/api/admin/condicionantes?responsavel=consultoria',
        },
        {
          name: 'Condicionantes one Cliente',
          url: `/api/admin/condicionantes?cliente_id=${clienteId}`,
        },
        { name: 'Condicionantes next 30 days', url: `/api/admin/condicionantes?${mes}` },
        {
          name: 'Condicionantes atrasada, cliente, last year',
          url: `/api/admin/condicionantes?situacao=atrasada&responsavel=cliente&de=${addDaysIso(hoje, -365)}&ate=${hoje}`,
        },
      ]
      // Warm-up: each case answered 40 times, 4 at a time, before any is measured (the JIT, the
      // pool's connections and their prepared statements, as in a server that has run a while;
      // otherwise the first case measured pays for it).
      for (const c of cases)
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            for (let k = 0; k < 10; k++)
              await (await fetch(`${base}${c.url}`, { headers: { cookie } })).arrayBuffer()
          }),
        )
      for (const c of cases) {
        const res = await fetch(`${base}${c.url}`, { headers: { cookie } })
        const text = await res.text()
        if (!res.ok) throw new Error(`${c.name}: ${res.status} ${text}`)
        const got = JSON.parse(text) as Pagina
        if (!got.rows.length) throw new Error(`${c.name}: no rows`)
        const low = await load(base, cookie, c.url, 4)
        const row: Row = {
          db: label,
          case: `${c.name} (${got.total.toLocaleString('en-US')})`,
          p50: low.p50,
          p95: low.p95,
          p99: low.p99,
          rps: low.rps,
          errors: low.errors,
        }
        rows.push(row)
        log(
          `${label} | ${row.case} | p50 ${row.p50} p95 ${row.p95} p99 ${row.p99} ms | errors ${row.errors}`,
        )
      }
      // The cases above are asked again and again, and answers are kept by data version (an
      // analyst going back to a filter, several analysts on the same list). This one is a list
      // never asked before at each request: a period starting a day later each time, a day longer
      // each time the starts come round (what an analyst moving through the periods, or a filter
      // nobody used since the last change, costs).
      let dia = 0
      const novo = await load(
        base,
        cookie,
        () => {
          const de = addDaysIso(hoje, -1500 + (dia % 3000))
          const dias = 30 + Math.floor(dia++ / 3000)
          return `/api/admin/condicionantes?de=${de}&ate=${addDaysIso(de, dias)}`
        },
        4,
      )
      rows.push({
        db: label,
        case: 'Condicionantes a period never asked before (30+ days)',
        ...novo,
      })
      log(`${label} | a period never asked before | p50 ${novo.p50} p95 ${novo.p95} ms`)
    } finally {
      await stopServer(child)
    }
    const database = await reopen()
    try {
      job = await medirJob(database.db, label, today())
    } finally {
      await database.close()
    }
    for (const r of job)
      log(`${label} | daily job, ${r.run} | ${r.seconds.toFixed(1)} s | ${r.told} warnings`)
  } finally {
    await cleanup()
  }
  return { rows, job }
}

/** The daily job's two runs over the same data set (target: under a minute). */
function jobTable(rows: JobRow[]) {
  return [
    'The daily warnings job over the same data set (`bench/avisos-job.ts`; target: under a minute):',
    '',
    '| database | run | seconds | warnings given | notifications written |',
    '|---|---|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.db} | ${r.run} | ${r.seconds.toFixed(1)} | ${r.told.toLocaleString('en-US')} | ${r.notified.toLocaleString('en-US')} |`,
    ),
  ].join('\n')
}

function condicionantesTable(rows: Row[]) {
  return tabela(
    `Condicionantes endpoint \`GET /api/admin/condicionantes\`, ${CND_SERVICOS.toLocaleString('en-US')} services, ${CND_ENTREGAS.toLocaleString('en-US')} entregas, ${SECONDS} s per load at 4 connections, ${new Date().toISOString().slice(0, 10)}. Target: p95 ≤ 15 ms on PostgreSQL, ≤ 50 ms on PGlite.`,
    rows,
  )
}

async function main() {
  log('building the server...')
  const mainJs = await buildServer()
  const results: {
    label: string
    rows: Row[]
    peak: number
    writes: { wps: number; errors: number; wrong: number }
    sozinho?: Sozinho
  }[] = []

  const only = process.env.BENCH_ONLY // 'pglite' | 'postgres' (while tuning)
  // BENCH_CASES=auditoria runs the Auditoria case alone (RESULTS-auditoria.md).
  const auditoriaRows: Row[] = []
  const runAuditoria = async () => {
    if (only !== 'postgres')
      auditoriaRows.push(...(await benchAuditoria('PGlite', mainJs, 'pglite')))
    if (only !== 'pglite')
      auditoriaRows.push(...(await benchAuditoria('PostgreSQL', mainJs, 'postgres')))
  }
  // BENCH_CASES=condicionantes runs the "Condicionantes" list case alone (RESULTS-condicionantes.md).
  if (process.env.BENCH_CASES === 'condicionantes') {
    const condRows: Row[] = []
    const jobRows: JobRow[] = []
    for (const [label, kind] of [
      ['PGlite', 'pglite'],
      ['PostgreSQL', 'postgres'],
    ] as const) {
      if (only && only !== kind) continue
      const { rows, job } = await benchCondicionantes(label, mainJs, kind)
      condRows.push(...rows)
      jobRows.push(...job)
    }
    const table = `${condicionantesTable(condRows)}\n\n${jobTable(jobRows)}`
    console.log(`\n${table}\n`)
    writeFileSync(
      path.join(ROOT, 'bench', 'RESULTS-condicionantes.md'),
      `# Condicionantes benchmark (last run)\n\n${table}\n`,
    )
    return
  }
  // BENCH_CASES=calendario runs the "Calendário" cases alone (RESULTS-calendario.md).
  if (process.env.BENCH_CASES === 'calendario') {
    const calRows: Row[] = []
    if (only !== 'postgres') calRows.push(...(await benchCalendario('PGlite', mainJs, 'pglite')))
    if (only !== 'pglite')
      calRows.push(...(await benchCalendario('PostgreSQL', mainJs, 'postgres')))
    const table = calendarioTable(calRows)
    console.log(`\n${table}\n`)
    if (!process.env.BENCH_REUSE)
      writeFileSync(
        path.join(ROOT, 'bench', 'RESULTS-calendario.md'),
        `# Calendário benchmark (last run)\n\n${table}\n`,
      )
    return
  }
  if (process.env.BENCH_CASES === 'auditoria') {
    await runAuditoria()
    const table = auditoriaTable(auditoriaRows)
    console.log(`\n${table}\n`)
    writeFileSync(
      path.join(ROOT, 'bench', 'RESULTS-auditoria.md'),
      `# Auditoria benchmark (last run)\n\n${table}\n`,
    )
    return
  }
  // BENCH_ESCALAS=a,b: every case in turns on two databases filled earlier (bench/escalas.ts).
  if (process.env.BENCH_ESCALAS) {
    const escalas = []
    for (const nome of process.env.BENCH_ESCALAS.split(','))
      escalas.push({ label: nome, ...(await prepararPostgres(nome, true)) })
    const table = await benchEscalas(mainJs, escalas, (base, cookie, escala, pid) =>
      casosDoPainel(base, cookie, JSON.parse(escala.env.BENCH_EXPECT) as Expect, escala.label, pid),
    )
    console.log(`\n${table}\n`)
    if (!CASE_FILTER)
      writeFileSync(
        path.join(ROOT, 'bench', 'RESULTS-escalas.md'),
        `# Dashboard benchmark, the two scales in turns (last run)\n\n${table}\n`,
      )
    return
  }
  if (process.env.BENCH_FILL_ONLY) {
    // While tuning: fill PostgreSQL's portal_bench, keep it, and stop (EXPLAIN it with psql).
    const admin = new pg.Client({ connectionString: PG_URL })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${PG_DB}`)
    await admin.end()
    const u = new URL(PG_URL)
    u.pathname = `/${PG_DB}`
    const database = await openDatabase({ databaseUrl: u.toString() })
    await database.migrate()
    await seedStatuses(database.db)
    await prepareDb(database.db)
    await database.close()
    return
  }
  // Embedded PGlite: the data is written before the server starts (one process per DATA_DIR).
  if (only !== 'postgres' && !REUSE) {
    const pglite = await benchDatabase('PGlite', mainJs, async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'))
      log(`PGlite: filling ${dataDir}...`)
      const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') })
      await database.migrate()
      await seedStatuses(database.db)
      const exp = await prepareDb(database.db)
      await database.close()
      return {
        env: { DATA_DIR: dataDir, BENCH_EXPECT: JSON.stringify(exp) },
        verify: async () => {
          const db = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') })
          try {
            return await consistency(db.db)
          } finally {
            await db.close()
          }
        },
        cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
      }
    })
    results.push({ label: 'PGlite', ...pglite })
  }
  if (only !== 'pglite') {
    const postgres = await benchDatabase('PostgreSQL', mainJs, () => prepararPostgres(PG_DB, REUSE))
    results.push({ label: 'PostgreSQL', ...postgres })
  }

  const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-')
  const lines = [
    `Dashboard endpoint \`GET /api/admin/servicos\`, ${CLIENTES.toLocaleString('en-US')} clients, ${SERVICOS.toLocaleString('en-US')} services, ${SECONDS} s per load, ${new Date().toISOString().slice(0, 10)}, ${(await import('node:os')).cpus().length} cores, load generator on the same machine.`,
    '',
    '| case (total / pages) | database | 4 conn. p50 ms | p95 ms | p99 ms | 50 conn. req/s | errors |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...results.flatMap((r) =>
      r.rows.map(
        (row) =>
          `| ${row.case} | ${row.db} | ${fmt(row.p50)} | ${fmt(row.p95)} | ${fmt(row.p99)} | ${Math.round(row.rps)} | ${row.errors} |`,
      ),
    ),
    '',
    ...results.map((r) => `Server peak memory (VmHWM) with ${r.label}: ${r.peak} MB`),
    ...results.flatMap(({ sozinho: s }) =>
      s
        ? [
            '',
            `First page at 50 connections: the endpoint ${Math.round(s.rps)} req/s; PostgreSQL alone, the same prepared statement over 50 connections in the same run (bench/pg-sozinho.ts), ${Math.round(s.tps)} statements/s: the endpoint at ${Math.round((s.rps / s.tps) * 100)} % of it (the median of three turns, endpoint / PostgreSQL alone: ${s.turnos.map((t) => `${Math.round(t.rps)} / ${Math.round(t.tps)}`).join(', ')}); the server's CPU ${s.cpu.toFixed(2)} ms per answer.`,
          ]
        : [],
    ),
    '',
    ...results.map(
      (r) =>
        `Writes with ${r.label} (${WRITERS} connections, ${WRITE_SECONDS} s: status and end date changes, services added and deleted): ${Math.round(r.writes.wps)} writes/s, ${r.writes.errors} errors; maintained counts and read-model rows not matching the base tables afterwards: ${r.writes.wrong}`,
    ),
  ]
  if (CASE_FILTER) {
    console.log(`\n${lines.join('\n')}\n`)
    return
  }
  // Every case on a database filled earlier (BENCH_FILL_ONLY: a 1,000,000-service fill takes
  // half an hour, measured later on a quiet machine): its table, without the Auditoria case.
  if (REUSE) lines.unshift(`On ${PG_DB}, filled earlier (BENCH_FILL_ONLY) and read as it was.`, '')
  else {
    await runAuditoria()
    lines.push('', auditoriaTable(auditoriaRows))
  }
  const table = lines.join('\n')
  console.log(`\n${table}\n`)
  const file = SERVICOS === 100_000 ? 'RESULTS.md' : `RESULTS-${SERVICOS}.md`
  writeFileSync(path.join(ROOT, 'bench', file), `# Dashboard benchmark (last run)\n\n${table}\n`)
  if (existsSync(path.join(ROOT, 'bench', file))) log(`table written to bench/${file}`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
