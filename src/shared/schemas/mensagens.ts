import { z } from 'zod'
import { MENSAGEM_MAX } from '../mensagens.ts'
import { texto } from './common.ts'

export const MENSAGEM_OBRIGATORIA = 'Escreva a mensagem.'
export const MENSAGEM_LONGA = `A mensagem deve ter no máximo ${MENSAGEM_MAX.toLocaleString('pt-BR')} caracteres.`

const textoMensagem = texto(MENSAGEM_OBRIGATORIA, { multiline: true })
  .trim()
  .min(1, MENSAGEM_OBRIGATORIA)
  .max(MENSAGEM_MAX, MENSAGEM_LONGA)

/** A new message. `interna`: the consultancy's note, never shown to the client (admins only). */
export const MensagemCreateSchema = z.object({
  texto: textoMensagem,
  interna: z.boolean('Informe se a mensagem é interna.').optional(),
})
export type MensagemCreate = z.infer<typeof MensagemCreateSchema>

/** The form's rule when a file goes with the message: the text may stay empty. */
export const MensagemComArquivoSchema = z.object({
  texto: texto(MENSAGEM_OBRIGATORIA, { multiline: true }).trim().max(MENSAGEM_MAX, MENSAGEM_LONGA),
  interna: z.boolean('Informe se a mensagem é interna.').optional(),
})

/** Editing one's own message (within the 15 minutes). */
export const MensagemUpdateSchema = z.object({ texto: textoMensagem })
export type MensagemUpdate = z.infer<typeof MensagemUpdateSchema>

const vazio = (v: unknown) => (v === '' || v === null ? undefined : v)
/** `antes`: the cursor of the oldest message shown; the page brings the ones before it. */
export const MensagensQuerySchema = z.object({
  antes: z.preprocess(
    vazio,
    texto('Página inválida.')
      .max(200, 'Página inválida.')
      .regex(/^[A-Za-z0-9_-]+$/, 'Página inválida.')
      .optional(),
  ),
})

export const LADOS_MENSAGEM = ['cliente', 'consultoria'] as const
export type LadoMensagem = (typeof LADOS_MENSAGEM)[number]

/** A file sent with a message (one per message): its name as sent (cleaned) and its size. */
export const AnexoSchema = z.object({ id: z.string(), nome: z.string(), tamanho: z.number() })
export type Anexo = z.infer<typeof AnexoSchema>

/** The storage key of a message's file: `mensagens/{servicoId}/{timestamp}.{id}-{name}`. */
export const anexoKey = (p: {
  servicoId: string
  timestamp: number
  id: string
  safeName: string
}) => `mensagens/${p.servicoId}/${p.timestamp}.${p.id}-${p.safeName}`

/**
 * A message sent with a file is multipart (`arquivo` and the fields `texto`, `interna`): its
 * fields as text, checked with the JSON body's rules. Without text, the file is the message.
 */
export const MensagemComAnexoCamposSchema = z.object({
  texto: texto(MENSAGEM_OBRIGATORIA, { multiline: true })
    .trim()
    .max(MENSAGEM_MAX, MENSAGEM_LONGA)
    .optional(),
  interna: z
    .enum(['true', 'false'], 'Informe se a mensagem é interna.')
    .optional()
    .transform((v) => v === 'true'),
})

export const MensagemSchema = z.object({
  id: z.string(),
  servico_id: z.string(),
  autor_nome: z.string(),
  lado: z.enum(LADOS_MENSAGEM),
  texto: z.string(),
  interna: z.boolean(),
  created_at: z.string(),
  editada_em: z.string().nullable(),
  /** The reader wrote it and the 15 minutes have not passed: "Editar" and "Excluir". */
  editavel_ate: z.string().nullable(),
  anexos: z.array(AnexoSchema),
})
export type Mensagem = z.infer<typeof MensagemSchema>

/** A page of the thread: oldest to newest; `antes` pages upward (null: the first message is in). */
export const MensagensSchema = z.object({
  rows: z.array(MensagemSchema),
  antes: z.string().nullable(),
})
export type Mensagens = z.infer<typeof MensagensSchema>

/** The services whose unread counts a list asks for (its page): ids separated by commas. */
export const NaoLidasQuerySchema = z.object({
  servicos: texto('Informe os serviços.')
    .max(100 * 37, 'Serviços demais.')
    .transform((v) => v.split(',').filter(Boolean))
    .pipe(z.array(z.uuid('Serviço inválido.')).max(100, 'Serviços demais.')),
})

/** The unread messages of each service asked for that has any (the other side's, after the reader's last reading). */
export const NaoLidasSchema = z.array(z.object({ servico_id: z.string(), nao_lidas: z.number() }))
export type NaoLidas = z.infer<typeof NaoLidasSchema>
