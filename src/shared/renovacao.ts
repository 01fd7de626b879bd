import { addDays, daysBetween, formatDate, today } from './datas.ts'
import { diasBadge, type BadgeVariant } from './dias-restantes.ts'

/**
 * The renewal deadline of a licence (LC 140/2011, art. 14, §4º): a renewal filed at least
 * `antecedencia` days before the end of the validity keeps the licence valid until the agency
 * decides. The deadline is the end date minus the service type's "Antecedência para renovação
 * (dias)", counted in calendar days.
 */
export const SITUACOES_RENOVACAO = [
  /** No lead time, no end date, or a lead time longer than the validity. */
  'sem_prazo',
  /** Not filed yet, the deadline not passed (the deadline day itself is still on time). */
  'pendente',
  /** Filed on or before the deadline: the validity is extended. */
  'no_prazo',
  /** Filed after the deadline. */
  'fora_do_prazo',
  /** The deadline passed without a protocol. */
  'prazo_perdido',
] as const
export type SituacaoRenovacao = (typeof SITUACOES_RENOVACAO)[number]

/**
 * 'yyyy-MM-dd' by which the renewal must be filed, or null: without a lead time or an end date,
 * or when the lead time is longer than the validity (the deadline would come before the start).
 */
export function prazoRenovacao(v: {
  vigencia_inicio?: string | null
  vigencia_fim: string | null
  antecedencia: number | null
}): string | null {
  if (!v.vigencia_fim || !v.antecedencia) return null
  const prazo = addDays(v.vigencia_fim.slice(0, 10), -v.antecedencia)
  if (v.vigencia_inicio && prazo < v.vigencia_inicio.slice(0, 10)) return null
  return prazo
}

export type Renovacao = {
  prazo: string | null
  /** Calendar days from today to the deadline (negative once it passed); null without one. */
  dias: number | null
  situacao: SituacaoRenovacao
}

/** The deadline, the days left to it and where the renewal stands on `hoje`. */
export function situacaoRenovacao(
  v: {
    vigencia_inicio?: string | null
    vigencia_fim: string | null
    antecedencia: number | null
    data_protocolo?: string | null
  },
  hoje: string = today(),
): Renovacao {
  const prazo = prazoRenovacao(v)
  if (!prazo) return { prazo: null, dias: null, situacao: 'sem_prazo' }
  const dias = daysBetween(hoje, prazo)
  const situacao: SituacaoRenovacao = v.data_protocolo
    ? v.data_protocolo <= prazo
      ? 'no_prazo'
      : 'fora_do_prazo'
    : dias >= 0
      ? 'pendente'
      : 'prazo_perdido'
  return { prazo, dias, situacao }
}

export const FORA_DO_PRAZO = 'Renovação fora do prazo legal'

/**
 * The badge beside "Protocolar a renovação até …": the days left in the colours of Dias
 * Restantes while it is pending, "Renovação fora do prazo legal" (red) once late.
 */
export function renovacaoBadge(r: Renovacao): { label: string; variant: BadgeVariant } | null {
  switch (r.situacao) {
    case 'pendente':
      return diasBadge(r.dias!)
    case 'fora_do_prazo':
    case 'prazo_perdido':
      return { label: FORA_DO_PRAZO, variant: 'destructive' }
    case 'no_prazo':
      return { label: 'Protocolada no prazo', variant: 'default' }
    case 'sem_prazo':
      return null
  }
}

/**
 * The day the client may start asking for the renewal ("Solicitar renovação"): the lead-time
 * window opens `antecedencia` days before the deadline (an operating licence with 120 days: 240
 * days before its end), so the consultancy has the lead time to prepare it; it stays open after
 * the deadline (a late renewal is still a renewal). Null without a deadline.
 */
export function inicioSolicitacao(v: {
  vigencia_inicio?: string | null
  vigencia_fim: string | null
  antecedencia: number | null
}): string | null {
  const prazo = prazoRenovacao(v)
  return prazo ? addDays(prazo, -v.antecedencia!) : null
}

/** The next service's description: "Renovação de {protocolo anterior}". */
export const descricaoRenovacao = (protocolo: string | null) =>
  `Renovação de ${protocolo ?? 'serviço sem protocolo'}`

/**
 * A document's validity as every list shows it: "Válido até {dd/MM/yyyy}" (its last valid day,
 * `valido_ate`) through that day, then "Vencido em {the next day}"; null when its type never
 * expires.
 */
export function validadeDocumento(
  validoAte: string | null,
  hoje: string = today(),
): { texto: string; vencido: boolean } | null {
  if (!validoAte) return null
  const vencido = hoje > validoAte
  return {
    texto: vencido
      ? `Vencido em ${formatDate(addDays(validoAte, 1))}`
      : `Válido até ${formatDate(validoAte)}`,
    vencido,
  }
}

/** How a version reused from the licence before shows. */
export const REAPROVEITADO = 'Reaproveitado da licença anterior'

/** "{n} documento(s) reaproveitado(s)" after a renewal. */
export const reaproveitados = (r: { documentos_reaproveitados: number }) =>
  r.documentos_reaproveitados === 1
    ? '1 documento reaproveitado da licença anterior.'
    : `${r.documentos_reaproveitados} documentos reaproveitados da licença anterior.`
