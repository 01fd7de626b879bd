import { addDays, daysBetween } from '#shared/datas.ts'
import { addMonths } from '#shared/processo.ts'
import type { Evento } from '#shared/schemas/calendario.ts'

// The periods the calendar asks for, and the list's groups: pure, tested in periodo.test.ts.

/** The month view of the month of `dia`: from the Sunday before its 1st to the Saturday after its end. */
export function periodoMes(dia: string) {
  const primeiro = `${dia.slice(0, 7)}-01`
  const ultimo = addDays(addMonths(primeiro, 1), -1)
  const semana = (iso: string) => new Date(`${iso}T12:00:00Z`).getUTCDay()
  return {
    de: addDays(primeiro, -semana(primeiro)),
    ate: addDays(ultimo, 6 - semana(ultimo)),
    primeiro,
    ultimo,
  }
}

/** The list view around `dia`: 90 days back, 275 ahead (366 days). */
export const periodoLista = (dia: string) => ({ de: addDays(dia, -90), ate: addDays(dia, 275) })

export const GRUPOS = ['Atrasados', 'Esta semana', 'Próximos 30 dias', 'Depois'] as const
export type Grupo = (typeof GRUPOS)[number]

/** "Atrasados" before today, "Esta semana" the next 7 days, then 30 days, then the rest. */
export function grupoDe(data: string, hoje: string): Grupo {
  const dias = daysBetween(hoje, data)
  if (dias < 0) return 'Atrasados'
  if (dias < 7) return 'Esta semana'
  if (dias <= 30) return 'Próximos 30 dias'
  return 'Depois'
}

export function agrupar(eventos: Evento[], hoje: string) {
  const grupos = new Map<Grupo, Evento[]>(GRUPOS.map((g) => [g, []]))
  for (const e of eventos) grupos.get(grupoDe(e.data, hoje))!.push(e)
  return grupos
}
