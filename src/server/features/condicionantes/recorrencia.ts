import rrule from 'rrule'
import { addDays } from '#shared/datas.ts'
import { type CondicionanteDados } from '#shared/schemas/condicionantes.ts'
import { MESES_PERIODICIDADE } from '#shared/condicionantes.ts'

// The due dates (entregas) of a condicionante, by rrule (RFC 5545): every N months from the first
// due date, up to the licence's end. A day the month lacks (the 31st, the 30th in February) falls
// on the month's last day: BYMONTHDAY of the day and the shorter days before it, BYSETPOS=-1 (the
// last of them the month has).

// rrule is CommonJS: its named exports do not load under Node's ESM (tsx or the server build).
const { RRule } = rrule

/** Without an end date, due dates are generated this many years ahead of the first. */
export const ANOS_SEM_VIGENCIA = 5

const utc = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d))
}
const iso = (d: Date) => d.toISOString().slice(0, 10)

/**
 * The due dates of a condicionante ('yyyy-MM-dd', ascending): none for a continuous one, the
 * first one for "Única", else every `meses` months up to `fim` (the licence's end; without one,
 * `ANOS_SEM_VIGENCIA` years). The first due date is always one, even after the end.
 */
export function datasEntregas(
  c: Pick<CondicionanteDados, 'tipo' | 'primeiro_prazo' | 'periodicidade' | 'intervalo_meses'>,
  fim: string | null,
): string[] {
  if (c.tipo !== 'prazo' || !c.primeiro_prazo || !c.periodicidade) return []
  const meses =
    c.periodicidade === 'meses' ? c.intervalo_meses : MESES_PERIODICIDADE[c.periodicidade]
  if (!meses) return [c.primeiro_prazo]
  const inicio = utc(c.primeiro_prazo)
  const dia = inicio.getUTCDate()
  const ate = fim ?? addDays(c.primeiro_prazo, ANOS_SEM_VIGENCIA * 366)
  if (ate <= c.primeiro_prazo) return [c.primeiro_prazo]
  const dias = Array.from({ length: Math.max(dia - 27, 1) }, (_, i) => Math.min(dia, 28) + i)
  const regra = new RRule({
    freq: RRule.MONTHLY,
    interval: meses,
    dtstart: inicio,
    bymonthday: dias,
    bysetpos: dias.length > 1 ? [-1] : undefined,
    until: utc(ate),
  })
  return regra.all().map(iso)
}
