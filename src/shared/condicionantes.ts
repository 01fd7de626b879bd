// A licence's conditions (condicionantes): their kinds, periodicities, sides and an entrega's
// situations, with their labels. No zod: the client's screens show them at first load.

export const TIPOS_CONDICIONANTE = ['prazo', 'continua'] as const
export const ROTULO_TIPO: Record<(typeof TIPOS_CONDICIONANTE)[number], string> = {
  prazo: 'Com prazo',
  continua: 'Contínua (sem prazo)',
}

export const PERIODICIDADES = [
  'unica',
  'mensal',
  'trimestral',
  'semestral',
  'anual',
  'meses',
] as const
export type Periodicidade = (typeof PERIODICIDADES)[number]
export const ROTULO_PERIODICIDADE: Record<Periodicidade, string> = {
  unica: 'Única',
  mensal: 'Mensal',
  trimestral: 'Trimestral',
  semestral: 'Semestral',
  anual: 'Anual',
  meses: 'A cada N meses',
}
/** The months between two due dates (null: "Única", one due date). */
export const MESES_PERIODICIDADE: Record<Periodicidade, number | null> = {
  unica: null,
  mensal: 1,
  trimestral: 3,
  semestral: 6,
  anual: 12,
  meses: null,
}

export const RESPONSAVEIS = ['cliente', 'consultoria'] as const
export type Responsavel = (typeof RESPONSAVEIS)[number]
export const ROTULO_RESPONSAVEL: Record<Responsavel, string> = {
  cliente: 'Cliente',
  consultoria: 'Consultoria',
}

/** What is stored of an entrega's review; the date-dependent situations are derived from it. */
export const ESTADOS_ENTREGA = ['pendente', 'em_analise', 'cumprida', 'nao_se_aplica'] as const
export type EstadoEntrega = (typeof ESTADOS_ENTREGA)[number]

/** An entrega's "Situação": a pending one reads its date (no prazo, próxima, atrasada). */
export const SITUACOES_ENTREGA = [
  'no_prazo',
  'proxima',
  'atrasada',
  'em_analise',
  'cumprida',
  'nao_se_aplica',
] as const
export type SituacaoEntrega = (typeof SITUACOES_ENTREGA)[number]
export const ROTULO_SITUACAO: Record<SituacaoEntrega, string> = {
  no_prazo: 'No prazo',
  proxima: 'Próxima',
  atrasada: 'Atrasada',
  em_analise: 'Em análise',
  cumprida: 'Cumprida',
  nao_se_aplica: 'Não se aplica',
}

/** How many files one "Enviar evidência" takes, and its comment's length. */
export const MAX_ARQUIVOS_EVIDENCIA = 5
export const MAX_COMENTARIO_EVIDENCIA = 2000
export const COMENTARIO_LONGO = 'O comentário deve ter no máximo 2000 caracteres.'

/** An evidence file's review state, as the screens say it. */
export const ROTULO_EVIDENCIA: Record<string, string> = {
  enviado: 'Em análise',
  aprovado: 'Aprovada',
  rejeitado: 'Rejeitada',
  substituido: 'Substituída',
}
