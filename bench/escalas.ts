// `BENCH_ESCALAS=portal_bench_100k,portal_bench_1m npm run bench`: whether each case of the
// dashboard's bench is as fast at one scale as at the other. Measured one scale after the other,
// a case's p95 over 6 s moved by up to 1.8x between two runs of the same code on a 2-core
// machine, so that each run found a different handful of cases "slower at 1,000,000". Here both
// databases (filled earlier with BENCH_FILL_ONLY, read as they are) have their server up at once,
// and each case is loaded at 4 connections on one, then on the other, in turns: each scale's p95
// is the median of its turns, and the ratio compares the two medians. Written to
// bench/RESULTS-escalas.md (not with BENCH_CASE).
import { load, log, signIn, startBenchServer } from './comum.ts'
import { stopServer } from './servidor.ts'

/** A case as it is measured, its answer checked before and after the load. */
export type Medido = {
  name: string
  url: string | (() => string)
  /** Beside the name: the total and pages, 'events', 'each its own'. */
  total: string
  /** Checks the answer (the varied case: reads each term once) before the load. */
  antes: () => Promise<unknown>
  /** Checks the answer again after the load. */
  depois: () => Promise<unknown>
}

/** A database of one scale, ready for the server. */
export type Escala = { label: string; env: Record<string, string>; cleanup: () => Promise<void> }

type Medicao = { p95: number[]; errors: number; total: string }

const mediana = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/**
 * Each case, in turns over the scales (`turnos` times), at 4 connections; answers the table: per
 * case each scale's median p95 with its turns, and the ratio of the last scale's to the first's.
 */
export async function benchEscalas(
  main: string,
  escalas: Escala[],
  casos: (base: string, cookie: string, escala: Escala, pid: number) => Promise<Medido[]>,
  turnos = 3,
) {
  const servidores: { escala: Escala; base: string; cookie: string; casos: Medido[] }[] = []
  const paradas: (() => Promise<void>)[] = []
  try {
    for (const escala of escalas) {
      const { child, base } = await startBenchServer(main, escala.env)
      paradas.push(() => stopServer(child))
      const cookie = await signIn(base)
      servidores.push({
        escala,
        base,
        cookie,
        casos: await casos(base, cookie, escala, child.pid!),
      })
      log(`${escala.label}: server up`)
    }
    const linhas: { name: string; medicoes: Medicao[] }[] = []
    for (const [i, { name }] of servidores[0].casos.entries()) {
      const medicoes = servidores.map(() => ({ p95: [] as number[], errors: 0, total: '' }))
      for (const [j, s] of servidores.entries()) {
        await s.casos[i].antes()
        medicoes[j].total = s.casos[i].total
      }
      for (let turno = 0; turno < turnos; turno++)
        for (const [j, s] of servidores.entries()) {
          const r = await load(s.base, s.cookie, s.casos[i].url, 4)
          medicoes[j].p95.push(r.p95)
          medicoes[j].errors += r.errors
        }
      for (const s of servidores) await s.casos[i].depois()
      linhas.push({ name, medicoes })
      log(
        `${name} | ${medicoes.map((m, j) => `${escalas[j].label} p95 ${m.p95.join(' / ')} ms`).join(' | ')}`,
      )
    }
    return tabela(escalas, linhas, turnos)
  } finally {
    for (const parar of paradas) await parar()
    for (const escala of escalas) await escala.cleanup()
  }
}

function tabela(
  escalas: Escala[],
  linhas: { name: string; medicoes: Medicao[] }[],
  turnos: number,
) {
  const razoes = linhas.map(
    ({ medicoes }) => mediana(medicoes.at(-1)!.p95) / mediana(medicoes[0].p95),
  )
  const acima = razoes.filter((r) => r > 1.5).length
  return [
    `Each case at 4 connections, ${turnos} turns over ${escalas.map((e) => e.label).join(' and ')}, both servers up at once; a scale's p95 is its median turn's (each turn in brackets). ${new Date().toISOString().slice(0, 10)}.`,
    '',
    `| case | ${escalas.map((e) => `${e.label} p95 ms`).join(' | ')} | ratio | errors |`,
    `|---|${escalas.map(() => '---:|').join('')}---:|---:|`,
    ...linhas.map(
      ({ name, medicoes }, i) =>
        `| ${name} (${medicoes.map((m) => m.total).join(' ; ')}) | ${medicoes
          .map((m) => `${mediana(m.p95).toFixed(1)} (${m.p95.map((x) => x.toFixed(1)).join(', ')})`)
          .join(
            ' | ',
          )} | ${razoes[i] > 1.5 ? '**' : ''}x${razoes[i].toFixed(2)}${razoes[i] > 1.5 ? '**' : ''} | ${medicoes.reduce((s, m) => s + m.errors, 0)} |`,
    ),
    '',
    `${linhas.length - acima} of ${linhas.length} cases within 1.5x; the highest ratio x${Math.max(...razoes).toFixed(2)}.`,
  ].join('\n')
}
