import { addDays, today } from '#shared/datas.ts'
import { repeatEvery } from '../../repeat-every.ts'
import {
  runAvisosAutomaticos,
  ultimoDiaConcluido,
  type AvisosJobDeps,
} from './avisos-automaticos.ts'

/** The hour (0-23) of an instant in a time zone. */
export function localHour(timeZone: string, now: Date): number {
  const hour = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    hourCycle: 'h23',
  }).format(now)
  return Number(hour)
}

/**
 * Whether the daily run is due at `now`: once the configured hour has come and today has no
 * completed run; at once (whatever the hour) when a whole day's run was missed, so a server that
 * was down at that hour catches up as soon as it starts.
 */
export function isExecucaoDue(
  opts: { hour: number; timeZone: string },
  ultimo: string | null,
  now: Date,
): boolean {
  const hoje = today(opts.timeZone, now)
  const horaChegou = localHour(opts.timeZone, now) >= opts.hour
  if (!ultimo) return horaChegou
  if (ultimo >= hoje) return false
  return horaChegou || ultimo < addDays(hoje, -1)
}

/**
 * Checks every minute (and once right away, at start-up) whether the day's run is due, and runs
 * it. The state lives in the database (`avisos_execucoes`), so every instance may run this: the
 * job's unique keys and leases keep the work single.
 */
export function startAvisosScheduler(
  deps: AvisosJobDeps & {
    hour: number
    timeZone: string
    intervalMs?: number
    now?: () => Date
  },
) {
  const now = deps.now ?? (() => new Date())
  return repeatEvery(
    async () => {
      const instante = now()
      if (!isExecucaoDue(deps, await ultimoDiaConcluido(deps.db), instante)) return
      await runAvisosAutomaticos(deps, {
        hoje: today(deps.timeZone, instante),
        origem: 'agendada',
      })
    },
    {
      intervalMs: deps.intervalMs ?? 60_000,
      log: deps.log,
      falha: 'automatic warnings run failed; tried again in a minute',
    },
  )
}
