import type { FastifyRequest } from 'fastify'
import type { Origem } from '../../db/auditoria.ts'
import { HttpError } from '../../errors.ts'
import { isAdminActor, type Actor } from '../../policy.ts'
import { keyStamp, storeUploads, type FileDeps } from '../../storage/arquivos.ts'
import { receiveUploads } from '../../storage/upload.ts'
import { ADMIN_UPLOAD_EXTENSIONS, CLIENT_UPLOAD_EXTENSIONS } from '#shared/arquivos.ts'
import type { Entrega } from '#shared/schemas/condicionantes.ts'
import {
  COMENTARIO_LONGO,
  MAX_ARQUIVOS_EVIDENCIA,
  MAX_COMENTARIO_EVIDENCIA,
} from '#shared/condicionantes.ts'
import { evidenciaKey } from '#shared/schemas/documentos.ts'
import { getEntrega } from './condicionantes.queries.ts'
import {
  addEvidencias,
  assertAceitaEvidencia,
  EVIDENCIA_DA_CONSULTORIA,
  getEntregaAlvo,
} from './evidencias.queries.ts'

// "Enviar evidência" of an entrega: one or more files and a comment, received, checked and
// stored as the documents' uploads are (`storage/upload.ts`, `storeUploads`), then recorded as
// versions waiting for review (`addEvidencias`).

const TIPO_ARQUIVO_ADMIN = 'Apenas arquivos PDF, DOC, DOCX, JPG e PNG são permitidos.'

/**
 * A client sends evidence of an entrega of its own service when the condicionante is visible to
 * them and theirs to fulfil; the consultancy sends it for any. The entrega is checked before the
 * files are read; a client's files stay within `cotaMb`.
 */
export async function enviarEvidencia(
  deps: FileDeps & { tmpDir: string },
  p: {
    request: FastifyRequest
    actor: Actor
    servicoId: string
    entregaId: string
    cotaMb: number
    origem: Origem
  },
): Promise<Entrega> {
  const cliente = !isAdminActor(p.actor)
  const alvo = await getEntregaAlvo(deps.db, p.servicoId, p.entregaId, { cliente })
  if (cliente && alvo.responsavel !== 'cliente') throw new HttpError(403, EVIDENCIA_DA_CONSULTORIA)
  assertAceitaEvidencia(alvo)
  const files = await receiveUploads(p.request, {
    tmpDir: deps.tmpDir,
    allowed: cliente ? CLIENT_UPLOAD_EXTENSIONS : ADMIN_UPLOAD_EXTENSIONS,
    typeMessage: cliente ? undefined : TIPO_ARQUIVO_ADMIN,
    maxFiles: MAX_ARQUIVOS_EVIDENCIA,
  })
  try {
    const comentario = files[0].fields.comentario?.trim() || null
    if (comentario && comentario.length > MAX_COMENTARIO_EVIDENCIA)
      throw new HttpError(400, COMENTARIO_LONGO, 'comentario')
    const arquivos = files.map((file) => ({
      file,
      key: evidenciaKey({
        servicoId: p.servicoId,
        entregaId: p.entregaId,
        ...keyStamp(),
        safeName: file.safeName,
      }),
    }))
    await storeUploads(deps, arquivos, (tx) =>
      addEvidencias(tx, {
        servicoId: p.servicoId,
        entregaId: p.entregaId,
        cliente,
        userId: p.actor.userId,
        comentario,
        arquivos: arquivos.map(({ file, key }) => ({
          caminho: key,
          tamanho: file.size,
          sha256: file.sha256,
        })),
        cotaClienteMb: cliente ? p.cotaMb : undefined,
        origem: p.origem,
      }),
    )
    return await getEntrega(deps.db, p.servicoId, p.entregaId)
  } finally {
    await Promise.all(files.map((f) => f.discard()))
  }
}
