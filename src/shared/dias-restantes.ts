import { daysBetween, today } from './datas.ts'

export type BadgeVariant = 'default' | 'secondary' | 'destructive' | 'outline'

/** Lower-case without accents, for the name rules of SPEC §4. */
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim()

/** SPEC §4: a service whose status is 'Arquivado' (any case or accents). */
export const isArquivado = (statusNome: string | null | undefined) =>
  fold(statusNome ?? '') === 'arquivado'

/** The system status of a licence whose renewal was filed on time (LC 140/2011, art. 14, §4º). */
export const EM_RENOVACAO = 'Em renovação'
/** The system status of a licence whose renewal got its own validity. */
export const RENOVADA = 'Renovada'

/**
 * A licence that does not expire on its end date: its renewal was filed on time ('Em renovação':
 * valid until the agency decides) or its renewal got its validity ('Renovada'). Dias Restantes
 * reads "Prorrogada" / "Renovada", and it is never 'Próximos a vencer' (the read model's
 * `vigencia_fim` is null for it, migration 0027).
 */
export const naoVence = (statusNome: string | null | undefined) => {
  const f = fold(statusNome ?? '')
  return f === fold(EM_RENOVACAO) || f === fold(RENOVADA)
}

/**
 * SPEC §4: the ceiling of the days until vigencia_fim, i.e. calendar days from today (a service
 * ending today has 0 left, one that ended yesterday -1); 0 when the status is 'arquivado';
 * null without an end date or when it does not expire (`naoVence`).
 */
export function diasRestantes(
  vigenciaFim: string | null | undefined,
  statusNome: string | null | undefined,
  hoje: string = today(),
): number | null {
  if (isArquivado(statusNome)) return 0
  if (!vigenciaFim || naoVence(statusNome)) return null
  return daysBetween(hoje, vigenciaFim.slice(0, 10))
}

/** SPEC §4 and §9: the Dias Restantes badge (thresholds 5 and 15 days). */
export function diasRestantesBadge(
  vigenciaFim: string | null | undefined,
  statusNome: string | null | undefined,
  hoje: string = today(),
): { label: string; variant: BadgeVariant } {
  if (isArquivado(statusNome)) return { label: 'Arquivado', variant: 'outline' }
  if (fold(statusNome ?? '') === fold(EM_RENOVACAO))
    return { label: 'Prorrogada', variant: 'default' }
  if (fold(statusNome ?? '') === fold(RENOVADA)) return { label: 'Renovada', variant: 'outline' }
  const dias = diasRestantes(vigenciaFim, statusNome, hoje)
  if (dias === null) return { label: '-', variant: 'outline' }
  if (dias < 0) return { label: 'Vencido', variant: 'destructive' }
  return diasBadge(dias)
}

/**
 * The urgency of a number of days still ahead (0 or more): SPEC §4's thresholds of 5 and 15
 * days, the colours of Dias Restantes, also those of the renewal deadline (`renovacao.ts`).
 */
export function diasBadge(dias: number): { label: string; variant: BadgeVariant } {
  const label = dias === 1 ? '1 dia' : `${dias} dias`
  if (dias <= 5) return { label, variant: 'destructive' }
  if (dias <= 15) return { label, variant: 'secondary' }
  return { label, variant: 'outline' }
}

/** SPEC §4: the admin status badge, by the status name. */
export function adminStatusBadge(statusNome: string | null | undefined): {
  label: string
  variant: BadgeVariant
} {
  const nome = (statusNome ?? '').trim()
  if (!nome) return { label: 'Indefinido', variant: 'outline' }
  const f = fold(nome)
  if (f.includes('concluido') || f.includes('aprovado')) return { label: nome, variant: 'default' }
  if (f.includes('pendente') || f.includes('aguardando'))
    return { label: nome, variant: 'secondary' }
  if (f.includes('rejeitado') || f.includes('cancelado'))
    return { label: nome, variant: 'destructive' }
  return { label: nome, variant: 'outline' }
}
