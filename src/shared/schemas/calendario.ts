import { z } from 'zod'
import { daysBetween } from '../datas.ts'
import { dataField } from './common.ts'

// "Calendário de prazos": every deadline of the services in the actor's scope, between two days.

/**
 * The kinds of event, each a source of its own (`calendario.queries.ts`). Another kind (the
 * licence's "Condicionantes") is one more entry here and one more branch of the query.
 */
export const TIPOS_EVENTO = [
  'vencimento',
  'renovacao',
  'aviso',
  'exigencia',
  'condicionante',
] as const
export type TipoEvento = (typeof TIPOS_EVENTO)[number]

export const ROTULO_EVENTO: Record<TipoEvento, string> = {
  vencimento: 'Vencimento da licença',
  renovacao: 'Prazo para renovação',
  aviso: 'Avisos',
  exigencia: 'Exigências do órgão',
  condicionante: 'Condicionantes',
}

/** The views and the longest range each may ask for (days, both ends included). */
export const VISTAS = { mes: 62, lista: 366 } as const
export type Vista = keyof typeof VISTAS

export const PERIODO_INVALIDO = 'Informe um período válido (de/até no formato aaaa-mm-dd).'
export const PERIODO_INVERTIDO = 'A data final deve ser igual ou posterior à inicial.'
export const periodoLongo = (vista: Vista) =>
  vista === 'mes'
    ? 'O período do mês deve ter no máximo 62 dias.'
    : 'O período da lista deve ter no máximo 366 dias.'

const vazio = (v: unknown) => (v === '' ? undefined : v)
const umId = (message: string) => z.preprocess(vazio, z.uuid(message).optional())

/** `GET /api/calendario?de=&ate=&vista=` and the administrator's filters. */
export const CalendarioQuerySchema = z
  .object(
    {
      de: dataField(PERIODO_INVALIDO),
      ate: dataField(PERIODO_INVALIDO),
      vista: z.enum(['mes', 'lista'], { error: 'Visualização inválida.' }).default('mes'),
      cliente_id: umId('Cliente inválido.'),
      categoria_id: umId('Categoria inválida.'),
      status_id: umId('Status inválido.'),
      /** The kinds shown (the chips not pressed off): all when absent. */
      tipos: z.preprocess(
        (v) =>
          v === undefined || v === ''
            ? undefined
            : (Array.isArray(v) ? v : [v]).flatMap((t) =>
                typeof t === 'string' ? t.split(',') : [t],
              ),
        z
          .array(z.enum(TIPOS_EVENTO, { error: 'Tipo de prazo inválido.' }))
          // In one order, once each: the same kinds are the same question (and kept answer).
          .transform((tipos) => TIPOS_EVENTO.filter((t) => tipos.includes(t)))
          .optional(),
      ),
    },
    { error: PERIODO_INVALIDO },
  )
  .superRefine((q, ctx) => {
    if (q.ate < q.de) ctx.addIssue({ code: 'custom', path: ['ate'], message: PERIODO_INVERTIDO })
    else if (daysBetween(q.de, q.ate) + 1 > VISTAS[q.vista])
      ctx.addIssue({ code: 'custom', path: ['ate'], message: periodoLongo(q.vista) })
  })
export type CalendarioQuery = z.infer<typeof CalendarioQuerySchema>

export const EventoSchema = z.object({
  /** Stable across reads: the kind and its source's id ("aviso:…"), the feed's UID too. */
  id: z.string(),
  tipo: z.enum(TIPOS_EVENTO),
  data: z.string(),
  titulo: z.string(),
  servico_id: z.string(),
  /** "Licença de Operação (2026-000012)". */
  servico: z.string(),
  cliente: z.string(),
})
export type Evento = z.infer<typeof EventoSchema>

/** At most this many events per answer (the oldest first); `truncado` says more were left out. */
export const MAX_EVENTOS = 1000

/**
 * The month's grid shows at most this many events a day (the first by kind), and its total: a day
 * with more shows one fewer and "+N mais", which opens the day's whole list.
 */
export const POR_DIA = 3

/** "Assinar no meu calendário": whether the account has a link, and the link right after it is made. */
export const AssinaturaSchema = z.object({
  existe: z.boolean(),
  criada_em: z.string().nullable(),
  /** Only in the answer that made it: the token is kept as a hash and cannot be shown again. */
  url: z.string().nullable(),
})
export type Assinatura = z.infer<typeof AssinaturaSchema>

/** The feed: 90 days back to 400 ahead. */
export const FEED_DIAS_ANTES = 90
export const FEED_DIAS_DEPOIS = 400

export const CalendarioSchema = z.object({
  eventos: z.array(EventoSchema),
  truncado: z.boolean(),
  /**
   * The month (`vista=mes`): each day's number of events (days without any left out), of which
   * `eventos` holds the first `POR_DIA`.
   */
  dias: z.record(z.string(), z.number()).optional(),
})
export type Calendario = z.infer<typeof CalendarioSchema>
