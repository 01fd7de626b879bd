import { z } from 'zod'

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
})
export type AdminDocumento = z.infer<typeof AdminDocumentoSchema>

export const VisibilidadeSchema = z.object({
  visivel_usuario: z.boolean('Informe a visibilidade do documento.'),
})

/** SPEC §4: the badge of a required document. */
export function badgeExigido(doc: { status: string | null } | null): {
  label: 'Pendente' | 'Enviado' | 'Aprovado' | 'Rejeitado'
  destructive: boolean
} {
  if (!doc) return { label: 'Pendente', destructive: true }
  const nome = (doc.status ?? '').toLowerCase()
  if (nome.includes('aprovado')) return { label: 'Aprovado', destructive: false }
  if (nome.includes('rejeitado')) return { label: 'Rejeitado', destructive: true }
  return { label: 'Enviado', destructive: false }
}

/** SPEC §4: the badge of an administration document. */
export function badgeExtra(doc: { status: string | null }): {
  label: 'Disponível' | 'Aprovado' | 'Rejeitado'
  destructive: boolean
} {
  const nome = (doc.status ?? '').toLowerCase()
  if (nome.includes('aprovado')) return { label: 'Aprovado', destructive: false }
  if (nome.includes('rejeitado')) return { label: 'Rejeitado', destructive: true }
  return { label: 'Disponível', destructive: false }
}

/** SPEC §3: `userId/servicoId/tipoDocumentoId/timestamp-sanitizedFileName`. */
export function clientDocumentKey(p: {
  userId: string
  servicoId: string
  tipoDocumentoId: string
  timestamp: number
  safeName: string
}) {
  return `${p.userId}/${p.servicoId}/${p.tipoDocumentoId}/${p.timestamp}-${p.safeName}`
}

/** The file name shown to the client: the last key segment without its timestamp. */
export function arquivoDaChave(caminho: string): string {
  const last = caminho.split('/').pop() ?? caminho
  return last.replace(/^\d+-/, '')
}
