import { z } from 'zod'
import { pageOf, requiredText } from './common.ts'

/**
 * The review of a client's document version. `enviado` waits for review ("Em
 * análise"); `substituido`: a newer version came before any review. The consultancy's own
 * documents are never reviewed (null). `vencido`: an approved file whose type's "Validade do
 * documento (dias)" ended while its service was open (the daily job): 'Pendente' again, to send
 * a new one.
 */
export const ESTADOS = ['enviado', 'aprovado', 'rejeitado', 'substituido', 'vencido'] as const
export type Estado = (typeof ESTADOS)[number]
const EstadoSchema = z.enum(ESTADOS).nullable()

/** `PUT /api/servicos/:id/documentos/:tipoDocumentoId`. */
export const UploadParamsSchema = z.object({
  id: z.uuid('Identificador inválido.'),
  tipoDocumentoId: z.uuid('Identificador inválido.'),
})

/** A stored document as the client sees it (no storage key: `arquivo` is the file's name). */
export const DocumentoEnviadoSchema = z.object({
  id: z.string(),
  tipo_documento_id: z.string(),
  tipo: z.string(),
  arquivo: z.string(),
  data_envio: z.string(),
  status: z.string().nullable(),
  estado: EstadoSchema,
  motivo: z.string().nullable(),
  /** "Reaproveitado da licença anterior": reused by a renewal (the same stored file). */
  reaproveitado: z.boolean(),
  /** The file's last valid day ("Válido até" / "Vencido em"); null: its type never expires. */
  valido_ate: z.string().nullable(),
})
export type DocumentoEnviado = z.infer<typeof DocumentoEnviadoSchema>

/** SPEC §2 "Documents screen of a service (client)". */
export const DocumentosServicoSchema = z.object({
  servico: z.object({ id: z.string(), tipo_servico: z.string(), protocolo: z.string().nullable() }),
  /** Required types of the service type (ordered by name), each with its uploaded record. */
  exigidos: z.array(
    z.object({
      tipo_documento_id: z.string(),
      tipo: z.string(),
      /** Asked for by an agency's request still open: send it by this day. */
      prazo: z.string().nullable(),
      documento: DocumentoEnviadoSchema.nullable(),
    }),
  ),
  /** Administration-provided documents: types that are not required (SPEC §3 'extra'). */
  extras: z.array(DocumentoEnviadoSchema),
})
export type DocumentosServico = z.infer<typeof DocumentosServicoSchema>

/** A document of a service as the administration sees it (hidden ones too; no storage path). */
export const AdminDocumentoSchema = z.object({
  id: z.string(),
  tipo_documento_id: z.string(),
  tipo: z.string(),
  extensao: z.string(),
  data_envio: z.string(),
  visivel_usuario: z.boolean(),
  status_nome: z.string().nullable(),
  /** SPEC §3: provided by the administration (its type is not required by the service type). */
  extra: z.boolean(),
  /** Whose document it is (the client's required documents are reviewed). */
  enviado_por: z.enum(['admin', 'cliente']),
  estado: EstadoSchema,
  motivo: z.string().nullable(),
  versoes: z.number(),
  reaproveitado: z.boolean(),
  valido_ate: z.string().nullable(),
})
export type AdminDocumento = z.infer<typeof AdminDocumentoSchema>

/** One version of a document ("Histórico"), newest first; the first is the current. */
export const DocumentoVersaoSchema = z.object({
  id: z.string(),
  data_envio: z.string(),
  enviado_por: z.enum(['admin', 'cliente']),
  /** Who sent it (the account's name; null once the account is gone). */
  autor: z.string().nullable(),
  tamanho: z.number().nullable(),
  extensao: z.string(),
  estado: EstadoSchema,
  motivo: z.string().nullable(),
  atual: z.boolean(),
})
export type DocumentoVersao = z.infer<typeof DocumentoVersaoSchema>

export const VersaoParamsSchema = z.object({
  id: z.uuid('Identificador inválido.'),
  versaoId: z.uuid('Identificador inválido.'),
})

/** The dialog "Rejeitar documento". */
export const RejeicaoSchema = z.object({
  motivo: requiredText('Informe o motivo da rejeição.', 1000, 'Use no máximo 1000 caracteres.', {
    multiline: true,
  }),
})
export type Rejeicao = z.infer<typeof RejeicaoSchema>

/** `POST /api/admin/documentos/:id/revisao`: approve, reject (with its reason) or reopen. */
export const RevisaoSchema = z.discriminatedUnion(
  'estado',
  [
    z.object({ estado: z.literal('aprovado') }),
    RejeicaoSchema.extend({ estado: z.literal('rejeitado') }),
    z.object({ estado: z.literal('enviado') }),
  ],
  { error: 'Informe a decisão: aprovado, rejeitado ou enviado.' },
)
export type Revisao = z.infer<typeof RevisaoSchema>

/** A document waiting for review, in the queue "Documentos para Análise". */
export const DocumentoEmAnaliseSchema = z.object({
  id: z.string(),
  servico_id: z.string(),
  cliente_nome: z.string(),
  tipo_servico: z.string(),
  protocolo: z.string().nullable(),
  tipo: z.string(),
  data_envio: z.string(),
  /** Its validity from this upload ("Válido até"); null when its type never expires. */
  valido_ate: z.string().nullable(),
})
export type DocumentoEmAnalise = z.infer<typeof DocumentoEmAnaliseSchema>
export const FilaDocumentosSchema = pageOf(DocumentoEmAnaliseSchema)

/**
 * A document found by the analysts' search (the dashboard's "Buscar" finds documents too): its
 * type and current file, whose side sent it and its review state, and its service.
 */
export const DocumentoEncontradoSchema = z.object({
  id: z.string(),
  servico_id: z.string(),
  cliente_nome: z.string(),
  tipo_servico: z.string(),
  protocolo: z.string().nullable(),
  tipo: z.string(),
  arquivo: z.string(),
  enviado_em: z.string(),
  enviado_por: z.enum(['admin', 'cliente']),
  estado: EstadoSchema,
})
export type DocumentoEncontrado = z.infer<typeof DocumentoEncontradoSchema>
export const DocumentosEncontradosSchema = pageOf(DocumentoEncontradoSchema)

export const ContagemSchema = z.object({ total: z.number() })

export const VisibilidadeSchema = z.object({
  visivel_usuario: z.boolean('Informe a visibilidade do documento.'),
})

/**
 * The last segment of a stored key: `timestamp.id-sanitizedFileName`. `id` is random per write
 * (`keyStamp` on the server), so two uploads of one file in the same millisecond never share a key.
 */
export type KeyStamp = { timestamp: number; id: string }
const storedName = (p: KeyStamp & { safeName: string }) => `${p.timestamp}.${p.id}-${p.safeName}`

/** SPEC §3: `userId/servicoId/tipoDocumentoId/timestamp.id-sanitizedFileName`. */
export function clientDocumentKey(
  p: KeyStamp & { userId: string; servicoId: string; tipoDocumentoId: string; safeName: string },
) {
  return `${p.userId}/${p.servicoId}/${p.tipoDocumentoId}/${storedName(p)}`
}

/** SPEC §3: the consultancy's `servicoId/timestamp.id-sanitizedFileName`. */
export function adminDocumentKey(p: KeyStamp & { servicoId: string; safeName: string }) {
  return `${p.servicoId}/${storedName(p)}`
}

/** An entrega's evidence file: `servicoId/condicionantes/entregaId/timestamp.id-sanitizedFileName`. */
export function evidenciaKey(
  p: KeyStamp & { servicoId: string; entregaId: string; safeName: string },
) {
  return `${p.servicoId}/condicionantes/${p.entregaId}/${storedName(p)}`
}

/**
 * The file name shown to the client: the last key segment without its timestamp and id (keys
 * written before the id was added are `timestamp-name`).
 */
export function arquivoDaChave(caminho: string): string {
  const last = caminho.split('/').pop() ?? caminho
  return last.replace(/^\d+(?:\.[0-9a-f]+)?-/, '')
}
