// Per-term timings of the dashboard search on a database kept by the bench (while
// tuning): for each term, the first request (its count and its page) and the next ones (the page
// alone, the count reused), through the same query function the server runs.
//
//   BENCH_FILL_ONLY=1 BENCH_DB=portal_bench_x npm run bench -- --services 1000000
//   BENCH_DB=portal_bench_x npx tsx bench/busca-termos.ts [--more] [term ...]
//
// Without terms: the bench's 200 varied terms; `--more` adds other terms analysts type (whole and
// cut names, single letters, protocol fragments, three words), so tuning is not to the 200.
import { openDatabase } from '../src/server/db/client.ts'
import { listServicosPainel } from '../src/server/features/servicos/painel.queries.ts'
import { ServicosFiltroSchema } from '../src/shared/schemas/servicos.ts'
import { CATEGORIAS, EMPRESAS, FIRST, LAST, TIPOS, variedTerms } from './dados.ts'

const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const u = new URL(PG_URL)
u.pathname = `/${process.env.BENCH_DB ?? 'portal_bench'}`

function moreTerms() {
  const words = [...TIPOS, ...CATEGORIAS, ...EMPRESAS].flatMap((t) => t.split(' '))
  return [
    ...FIRST.slice(50),
    ...LAST.slice(50),
    ...LAST.slice(0, 20).map((l) => l.slice(0, 3)),
    ...FIRST.slice(0, 20).map((f) => f.slice(0, 2)),
    ...words.filter((w) => w.length > 3).map((w) => w.slice(0, 3)),
    ...'a b c m s 1 2 0'.split(' '),
    ...['2026', '0001', '00012', '123', '99999', 'prot', 'prot-0001', 'PROT-0123456', '12345'],
    ...['ltda', 'ltda sp', 'ana silva licen', 'maria', 'zzz', 'silva 2026', 'operacao sp'],
    ...FIRST.slice(0, 10).map((f, i) => `${f} ${LAST[(i * 11) % 60].slice(0, 4)}`),
    ...LAST.slice(0, 10).map((l, i) => `${l} ${EMPRESAS[i % 8]}`),
  ]
}

async function main() {
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'))
  const terms = args.length
    ? args
    : [...variedTerms(), ...(process.argv.includes('--more') ? moreTerms() : [])]
  const database = await openDatabase({ databaseUrl: u.toString() })
  const rows: { term: string; total: string; first: number; page: number }[] = []
  try {
    for (const term of terms) {
      const filtro = ServicosFiltroSchema.parse({ q: term })
      let t0 = performance.now()
      const p = await listServicosPainel(database.db, filtro)
      const first = performance.now() - t0
      let page = Infinity
      for (let i = 0; i < Number(process.env.REPEAT ?? 3); i++) {
        t0 = performance.now()
        await listServicosPainel(database.db, filtro)
        page = Math.min(page, performance.now() - t0)
      }
      const total = `${p.total}${p.total_limitado ? '+' : ''}`
      rows.push({ term, total, first, page })
      console.log(
        `${term.padEnd(28)} ${total.padStart(7)}  first ${first.toFixed(1).padStart(6)} ms  page ${page.toFixed(1).padStart(6)} ms`,
      )
    }
  } finally {
    await database.close()
  }
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b)
  const pct = (xs: number[], p: number) => sorted(xs)[Math.ceil((p / 100) * xs.length) - 1]
  for (const k of ['first', 'page'] as const) {
    const xs = rows.map((r) => r[k])
    console.log(
      `${k}: p50 ${pct(xs, 50).toFixed(1)} p95 ${pct(xs, 95).toFixed(1)} max ${pct(xs, 100).toFixed(1)} ms`,
    )
  }
  console.log('slowest first requests:')
  for (const r of [...rows].sort((a, b) => b.first - a.first).slice(0, 15))
    console.log(
      `  ${r.term} (${r.total}): first ${r.first.toFixed(1)} ms, page ${r.page.toFixed(1)} ms`,
    )
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
