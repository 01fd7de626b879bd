import { differenceInCalendarDays, format, parseISO } from 'date-fns'
import { ptBR } from 'date-fns/locale'

/**
 * Dates (SPEC §9: dd/MM/yyyy, pt-BR). `date` columns travel as 'yyyy-MM-dd' strings and are read
 * as calendar days, never shifted by a time zone.
 */

/** 'yyyy-MM-dd' (or an ISO timestamp) as dd/MM/yyyy; a dash when empty. */
export function formatDate(value: string | Date | null | undefined, empty = '-'): string {
  if (!value) return empty
  const date = typeof value === 'string' ? parseISO(value) : value
  return Number.isNaN(date.getTime()) ? empty : format(date, 'dd/MM/yyyy', { locale: ptBR })
}

/** An instant as "dd/MM/yyyy às HH:mm" on Brasília's clock (America/Sao_Paulo). */
export function formatDateTime(value: string | Date | null | undefined, empty = '-'): string {
  if (!value) return empty
  const date = typeof value === 'string' ? parseISO(value) : value
  // Brasília's clock whatever the browser's zone, like the cards, Histórico and e-mails.
  return Number.isNaN(date.getTime()) ? empty : formatDateTimeIn(date).replace(' ', ' às ')
}

// Building an Intl.DateTimeFormat costs far more than using one; the dashboard asks for today on
// every request, so each time zone's formatter is built once.
const dayFormatters = new Map<string, Intl.DateTimeFormat>()

/** Today's calendar date in a time zone (default America/Sao_Paulo) as 'yyyy-MM-dd'. */
export function today(timeZone = 'America/Sao_Paulo', now = new Date()): string {
  // Read on every dashboard request: the day of the same second (days change on whole seconds)
  // is kept, by time zone (formatting cost 1 % of the server's CPU on the first page).
  const segundo = Math.floor(now.getTime() / 1000)
  const visto = diasPorSegundo.get(timeZone)
  if (visto?.segundo === segundo) return visto.dia
  const dia = formatDay(timeZone, now)
  diasPorSegundo.set(timeZone, { segundo, dia })
  return dia
}

const diasPorSegundo = new Map<string, { segundo: number; dia: string }>()

function formatDay(timeZone: string, now: Date): string {
  let formatter = dayFormatters.get(timeZone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    })
    dayFormatters.set(timeZone, formatter)
  }
  return formatter.format(now)
}

/** The dates the portal accepts anywhere (forms, queries, cursors): years 1900 to 2999. */
export const MIN_DATE = '1900-01-01'
export const MAX_DATE = '2999-12-31'

/**
 * The one date rule: a real calendar day written 'yyyy-MM-dd' between MIN_DATE and MAX_DATE.
 * (Year 0 or 10000, 2024-02-30 or a far year whose computed end overflows never reach SQL.)
 */
export function isIsoDate(v: string) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || v < MIN_DATE || v > MAX_DATE) return false
  const d = new Date(`${v}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v
}

const TIMESTAMP =
  /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(Z|[+-](\d{2})(?::?(\d{2}))?)?$/

/** An instant 'yyyy-MM-dd HH:mm:ss[.ffffff][±hh[:mm]|Z]' whose day follows the date rule. */
export function isIsoTimestamp(v: string) {
  const m = TIMESTAMP.exec(v)
  if (!m || !isIsoDate(m[1])) return false
  const [h, min, s, oh, om] = [m[2], m[3], m[4], m[7] ?? '0', m[8] ?? '0'].map(Number)
  return h <= 23 && min <= 59 && s <= 59 && oh <= 15 && om <= 59
}

/**
 * A date typed the Brazilian way, 'dd/MM/yyyy', as 'yyyy-MM-dd'; null when it is incomplete or
 * not a real day under the date rule (31/02/2024, 15/13/1985, year 1899).
 */
export function parseDataBr(text: string): string | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text.trim())
  if (!m) return null
  const iso = `${m[3]}-${m[2]}-${m[1]}`
  return isIsoDate(iso) ? iso : null
}

/** 'yyyy-MM-dd' plus `days` calendar days. */
export function addDays(isoDate: string, days: number): string {
  const [y, m, d] = isoDate.split('-').map(Number)
  const date = new Date(Date.UTC(y, m - 1, d + days))
  return date.toISOString().slice(0, 10)
}

/** Calendar days from `from` to `to` (both 'yyyy-MM-dd'); negative when `to` is past. */
export function daysBetween(from: string, to: string): number {
  return differenceInCalendarDays(parseISO(to), parseISO(from))
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/**
 * A validity in days as people say it: '90 dias' under a year; whole years as '6 anos'; the rest
 * after the years in months when it is a whole number of months ('1 ano e 6 meses'), else in
 * days ('1 ano e 11 dias'). A year is 365 days and a month 30, as validities are counted.
 */
export function formatValidade(dias: number): string {
  if (dias < 365) return plural(dias, 'dia', 'dias')
  const anos = Math.floor(dias / 365)
  const resto = dias - anos * 365
  const texto = plural(anos, 'ano', 'anos')
  if (resto === 0) return texto
  if (resto % 30 === 0) return `${texto} e ${plural(resto / 30, 'mês', 'meses')}`
  return `${texto} e ${plural(resto, 'dia', 'dias')}`
}

const dateTimeFormatters = new Map<string, Intl.DateTimeFormat>()

/** An instant as dd/MM/yyyy HH:mm on the clock of a time zone (default America/Sao_Paulo). */
export function formatDateTimeIn(value: Date, timeZone = 'America/Sao_Paulo'): string {
  let formatter = dateTimeFormatters.get(timeZone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    dateTimeFormatters.set(timeZone, formatter)
  }
  const part = Object.fromEntries(formatter.formatToParts(value).map((p) => [p.type, p.value]))
  return `${part.day}/${part.month}/${part.year} ${part.hour}:${part.minute}`
}
