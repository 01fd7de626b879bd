import type { Origem } from '../../db/auditoria.ts'
import type { Actor } from '../../policy.ts'
import { keyStamp, storeUpload, type FileDeps } from '../../storage/arquivos.ts'
import type { ReceivedFile } from '../../storage/upload.ts'
import { ADMIN_UPLOAD_EXTENSIONS, CLIENT_UPLOAD_EXTENSIONS } from '#shared/arquivos.ts'
import { addDays, today } from '#shared/datas.ts'
import {
  adminDocumentKey,
  arquivoDaChave,
  clientDocumentKey,
  type AdminDocumento,
  type DocumentoEnviado,
} from '#shared/schemas/documentos.ts'
import { getDocumento, getTipoDocumentoEscolhido, getTipoExigido } from './documentos.queries.ts'
import { addVersao } from './versoes.queries.ts'

// An upload of a document's file (SPEC §6, §7): its type checked, the file received and stored
// under its key (SPEC §3), then its new version written; the other side is notified in that
// same transaction (`addVersao`).

/** How the route reads the request's one file (multipart), checked against `allowed`. */
export type ReceberArquivo = (opts: {
  allowed: readonly string[]
  typeMessage?: string
}) => Promise<ReceivedFile>

/** The service the file belongs to, already checked with `requireServico`. */
type Servico = { id: string; tipo_servico_id: string }

/** SPEC §9: the administration's uploads accept pdf, doc, docx, jpg, jpeg, png. */
const TIPO_ARQUIVO = 'Apenas arquivos PDF, DOC, DOCX, JPG e PNG são permitidos.'

/**
 * A client sends (or replaces) the file of a type its service requires: the type is checked
 * before the file is read (422), the client's documents stay within `cotaMb` (413), and the new
 * version waits for review.
 */
export async function enviarDocumentoDoCliente(
  deps: FileDeps,
  p: {
    actor: Actor
    servico: Servico
    tipoDocumentoId: string
    cotaMb: number
    origem: Origem
    receber: ReceberArquivo
  },
): Promise<DocumentoEnviado> {
  const { servico, tipoDocumentoId } = p
  const exigido = await getTipoExigido(deps.db, servico, tipoDocumentoId)
  const file = await p.receber({ allowed: CLIENT_UPLOAD_EXTENSIONS })
  try {
    const caminho = clientDocumentKey({
      userId: p.actor.userId,
      servicoId: servico.id,
      tipoDocumentoId,
      ...keyStamp(),
      safeName: file.safeName,
    })
    const arquivo = arquivoDaChave(caminho)
    const row = await storeUpload(deps, file, caminho, (tx) =>
      addVersao(tx, {
        servicoId: servico.id,
        tipoDocumentoId,
        tipo: exigido.tipo,
        caminho,
        visivel: true,
        enviadoPor: 'cliente',
        userId: p.actor.userId,
        tamanho: file.size,
        sha256: file.sha256,
        cotaClienteMb: p.cotaMb,
        origem: p.origem,
      }),
    )
    return {
      ...row,
      tipo: exigido.tipo,
      arquivo,
      status: null,
      estado: 'enviado' as const,
      motivo: null,
      reaproveitado: false,
      valido_ate: exigido.validade_dias === null ? null : addDays(today(), exigido.validade_dias),
    }
  } finally {
    await file.discard()
  }
}

/**
 * The consultancy uploads a document: its type (a form field) and the file are required; key
 * `{servicoId}/{timestamp}.{id}-{name}` (SPEC §3). It has one document per (service, type), apart
 * from the client's: a second upload of a type is its new version (the previous file is kept).
 * Visible to the client unless `visivel_usuario` is 'false'.
 */
export async function enviarDocumentoDaConsultoria(
  deps: FileDeps,
  p: { actor: Actor; servico: Servico; origem: Origem; receber: ReceberArquivo },
): Promise<AdminDocumento> {
  const { servico } = p
  const file = await p.receber({ allowed: ADMIN_UPLOAD_EXTENSIONS, typeMessage: TIPO_ARQUIVO })
  try {
    const tipo = await getTipoDocumentoEscolhido(deps.db, file.fields.tipo_documento_id)
    const caminho = adminDocumentKey({
      servicoId: servico.id,
      ...keyStamp(),
      safeName: file.safeName,
    })
    const row = await storeUpload(deps, file, caminho, (tx) =>
      addVersao(tx, {
        servicoId: servico.id,
        tipoDocumentoId: tipo.id,
        tipo: tipo.tipo,
        caminho,
        visivel:
          file.fields.visivel_usuario === undefined
            ? true
            : file.fields.visivel_usuario !== 'false',
        enviadoPor: 'admin',
        userId: p.actor.userId,
        tamanho: file.size,
        sha256: file.sha256,
        origem: p.origem,
      }),
    )
    return await getDocumento(deps.db, row.id)
  } finally {
    await file.discard()
  }
}
