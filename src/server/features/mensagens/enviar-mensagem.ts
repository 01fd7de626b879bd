import type { Origem } from '../../db/auditoria.ts'
import type { Actor } from '../../policy.ts'
import { keyStamp, storeUpload, type FileDeps } from '../../storage/arquivos.ts'
import type { ReceivedFile } from '../../storage/upload.ts'
import { ADMIN_UPLOAD_EXTENSIONS, CLIENT_UPLOAD_EXTENSIONS } from '#shared/arquivos.ts'
import { anexoKey, MensagemComAnexoCamposSchema } from '#shared/schemas/mensagens.ts'
import { createMensagem } from './mensagens.queries.ts'

/** How the route reads the request's one file (multipart), checked against `allowed`. */
export type ReceberArquivo = (opts: {
  allowed: readonly string[]
  typeMessage?: string
}) => Promise<ReceivedFile>

const TIPO_ARQUIVO_ADMIN = 'Apenas arquivos PDF, DOC, DOCX, JPG e PNG são permitidos.'

/**
 * A message sent with a file (a photo from the phone, a PDF): the file received with the
 * documents' limits and checks (5 MB, its type by its first bytes: a client's PDF, JPG or PNG,
 * the consultancy's also DOC and DOCX), stored under its own key, then the message and its file
 * written in one transaction (`storeUpload`: a failure removes the stored file), a client's
 * within its storage quota.
 */
export async function enviarMensagem(
  deps: FileDeps,
  p: {
    actor: Actor
    servicoId: string
    cotaMb: number
    origem: Origem
    receber: ReceberArquivo
  },
) {
  const consultoria = p.actor.role === 'admin'
  const file = await p.receber(
    consultoria
      ? { allowed: ADMIN_UPLOAD_EXTENSIONS, typeMessage: TIPO_ARQUIVO_ADMIN }
      : { allowed: CLIENT_UPLOAD_EXTENSIONS },
  )
  try {
    const campos = MensagemComAnexoCamposSchema.parse(file.fields)
    const caminho = anexoKey({ servicoId: p.servicoId, ...keyStamp(), safeName: file.safeName })
    return await storeUpload(deps, file, caminho, (tx) =>
      createMensagem(
        tx,
        p.actor,
        p.servicoId,
        { texto: campos.texto ?? '', interna: campos.interna },
        p.origem,
        {
          caminho,
          nome: file.safeName,
          tamanho: file.size,
          sha256: file.sha256,
          cotaMb: p.cotaMb,
        },
      ),
    )
  } finally {
    await file.discard()
  }
}
