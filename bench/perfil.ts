// `node scripts/run-ts.mjs bench/perfil.ts <file.cpuprofile> [--top N] [--from 0.5]`: where a server's CPU went,
// from a profile taken under load (`BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' npm run bench`).
// Prints the self time by package (or the project's own file) and the top functions, each as a
// share of the sampled time (idle excluded). Not part of `npm test`.
import { readFileSync } from 'node:fs'

type Node = {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] }

const file = process.argv[2]
if (!file) throw new Error('usage: bench/perfil.ts <file.cpuprofile> [--top N]')
const topArg = process.argv.indexOf('--top')
const TOP = topArg > 0 ? Number(process.argv[topArg + 1]) : 25
// `--from 0.5`: only the samples of the profile's second half (the start-up's module loading left out).
const fromArg = process.argv.indexOf('--from')
const FROM = fromArg > 0 ? Number(process.argv[fromArg + 1]) : 0
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile

const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const self = new Map<number, number>()
const span = profile.timeDeltas.reduce((a, b) => a + b, 0)
let at = 0
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0
  if (at >= span * FROM) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0))
})

/** A frame's owner: the npm package, the project's file, or V8/Node's own work. */
function owner(url: string): string {
  if (!url) return '(V8 / native)'
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)
  if (pkg) return pkg[1]
  if (url.startsWith('node:')) return url
  const own = url.match(/(src|dist)\/.*$/)
  return own ? own[0] : url
}

const IDLE = new Set(['(idle)', '(program)', '(garbage collector)'])
let busy = 0
const byOwner = new Map<string, number>()
const byFunction = new Map<string, number>()
let gc = 0
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame
  if (functionName === '(garbage collector)') gc += us
  if (IDLE.has(functionName)) continue
  busy += us
  const o = owner(url)
  byOwner.set(o, (byOwner.get(o) ?? 0) + us)
  const f = `${functionName || '(anonymous)'} ${o}:${lineNumber + 1}`
  byFunction.set(f, (byFunction.get(f) ?? 0) + us)
}
const pct = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)} %`
const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms`
console.log(`sampled busy time ${ms(busy)} (garbage collector besides: ${ms(gc)})\n`)
console.log('self time by owner')
for (const [o, us] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, TOP))
  console.log(`${pct(us)} ${ms(us)}  ${o}`)
console.log('\nself time by function')
for (const [f, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP))
  console.log(`${pct(us)} ${ms(us)}  ${f}`)
