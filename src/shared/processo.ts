/**
 * The process of a licence at the agency (Processo no órgão): its stages, and the legal maximum
 * time of the agency's analysis by licence type (Lei 15.190/2025, art. 47), counted from the
 * protocol, the default of "Decisão prevista até".
 */

/** "Etapa" of the process, in the order it usually goes (stored as the key). */
export const ETAPAS = [
  'em_preparacao',
  'protocolado',
  'em_analise',
  'aguardando_informacoes',
  'vistoria',
  'deferido',
  'indeferido',
  'arquivado',
] as const
export type Etapa = (typeof ETAPAS)[number]

export const ROTULO_ETAPA: Record<Etapa, string> = {
  em_preparacao: 'Em preparação',
  protocolado: 'Protocolado',
  em_analise: 'Em análise técnica',
  aguardando_informacoes: 'Aguardando informações complementares',
  vistoria: 'Vistoria',
  deferido: 'Deferido',
  indeferido: 'Indeferido',
  arquivado: 'Arquivado',
}

/** "Esfera" of an agency. */
export const ESFERAS = ['Federal', 'Estadual', 'Municipal'] as const
export type Esfera = (typeof ESFERAS)[number]

/** The professional councils of a "Responsável técnico". */
export const CONSELHOS = ['CREA', 'CRBio', 'CRQ', 'CFT', 'CAU'] as const
export type Conselho = (typeof CONSELHOS)[number]

/** The licence types of Lei 15.190/2025, art. 5º (and the renewal of an LO, analysed as an LO). */
export const MODALIDADES = ['LP', 'LI', 'LO', 'LAU', 'LAC', 'LOC', 'LAE'] as const
export type Modalidade = (typeof MODALIDADES)[number]

/**
 * Maximum analysis time in months, Lei 15.190/2025, art. 47 (counted from the delivery of the
 * study and of the documents asked for): I — 10 months for an LP with EIA; II — 6 months for an
 * LP with other studies; III — 3 months for LI, LO, LOC and LAU; V — 12 months for the LAE. The
 * LAC is issued without a prior technical analysis, so it has none. The portal does not
 * know whether an LP needs an EIA: its default is the 6 months of the common case, and the
 * analyst changes the date of an LP with EIA (10 months, `LP_COM_EIA_MESES`).
 */
export const PRAZO_MAXIMO_ANALISE_MESES: Record<Modalidade, number | null> = {
  LP: 6,
  LI: 3,
  LO: 3,
  LOC: 3,
  LAU: 3,
  LAC: null,
  LAE: 12,
}
export const LP_COM_EIA_MESES = 10

const PALAVRAS: [RegExp, Modalidade][] = [
  [/\blicen[cç]a pr[eé]via\b/i, 'LP'],
  [/\blicen[cç]a de instala[cç][aã]o\b/i, 'LI'],
  [/\blicen[cç]a de opera[cç][aã]o corretiva\b/i, 'LOC'],
  [/\blicen[cç]a de opera[cç][aã]o\b/i, 'LO'],
  [/\blicen[cç]a ambiental [uú]nica\b/i, 'LAU'],
  [/\blicen[cç]a por ades[aã]o\b/i, 'LAC'],
  [/\blicen[cç]a ambiental especial\b/i, 'LAE'],
]

/**
 * The licence type a service type names: its acronym in parentheses ("Licença de Operação (LO)",
 * "Renovação de Licença de Operação (RLO)" is an LO) or its full name; null for anything else
 * (an outorga, a report).
 */
export function modalidadeDoTipo(tipo: string): Modalidade | null {
  const sigla = /\(([A-Z]{2,4})\)/.exec(tipo)?.[1]
  if (sigla === 'RLO') return 'LO'
  if (sigla && (MODALIDADES as readonly string[]).includes(sigla)) return sigla as Modalidade
  for (const [re, m] of PALAVRAS) if (re.test(tipo)) return m
  return null
}

/** 'yyyy-MM-dd' plus whole calendar months, the day kept or the month's last day (31/01 + 1 = 28/02). */
export function addMonths(isoDate: string, months: number): string {
  const [y, m, d] = isoDate.slice(0, 10).split('-').map(Number)
  const total = y * 12 + (m - 1) + months
  const ano = Math.floor(total / 12)
  const mes = (total % 12) + 1
  const ultimo = new Date(Date.UTC(ano, mes, 0)).getUTCDate()
  const dia = Math.min(d, ultimo)
  return `${String(ano).padStart(4, '0')}-${String(mes).padStart(2, '0')}-${String(dia).padStart(2, '0')}`
}

/**
 * The default "Decisão prevista até": the protocol date plus the legal maximum of the service
 * type's licence; null without a protocol date or for a type without a maximum.
 */
export function decisaoPrevistaPadrao(tipo: string, dataProtocolo: string | null): string | null {
  if (!dataProtocolo) return null
  const modalidade = modalidadeDoTipo(tipo)
  const meses = modalidade ? PRAZO_MAXIMO_ANALISE_MESES[modalidade] : null
  return meses ? addMonths(dataProtocolo, meses) : null
}

/** An exigência's "Situação": answered, or open until its deadline passes (the day itself is on time). */
export const SITUACOES_EXIGENCIA = ['aberta', 'respondida', 'vencida'] as const
export type SituacaoExigencia = (typeof SITUACOES_EXIGENCIA)[number]
export const ROTULO_SITUACAO_EXIGENCIA: Record<SituacaoExigencia, string> = {
  aberta: 'Aberta',
  respondida: 'Respondida',
  vencida: 'Vencida',
}

export function situacaoExigencia(
  e: { prazo: string; respondida_em: string | null },
  hoje: string,
): SituacaoExigencia {
  if (e.respondida_em) return 'respondida'
  return e.prazo < hoje ? 'vencida' : 'aberta'
}
