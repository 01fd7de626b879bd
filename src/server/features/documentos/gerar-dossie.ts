import type { Readable } from 'node:stream'
import { recordLeitura, type Origem } from '../../db/auditoria.ts'
import type { DbOrTx } from '../../db/client.ts'
import { getEmpresa } from '../../mail/empresa.ts'
import type { Actor } from '../../policy.ts'
import { StorageNotFound, type Storage } from '../../storage/storage.ts'
import { zipStream } from '../../storage/zip.ts'
import { sanitizeFileName } from '#shared/arquivos.ts'
import { arquivoDaChave } from '#shared/schemas/documentos.ts'
import { indiceDossiePdf, TITULO_DOSSIE } from './dossie-pdf.ts'
import { getServicoDoDossie, listDocumentosDoDossie } from './dossie.queries.ts'

// "Dossiê do serviço": one zip, streamed, with every current approved document of the service in
// the actor's scope, one folder per document type, and the index PDF.

/**
 * A service's Histórico as its audience sees it, oldest first: the administration's, or with
 * `clienteUserId` the client's timeline. The auditoria feature reads it; app.ts hands it over.
 */
export type LerHistorico = (
  db: DbOrTx,
  servicoId: string,
  clienteUserId: string | null,
) => Promise<{ rows: { em: string; descricao: string }[]; mais: boolean }>

export const NOME_INDICE = 'indice.pdf'

/** A zip path's segment: letters, digits, dot, hyphen (`sanitizeFileName`), never a path. */
const segmento = (nome: string) => sanitizeFileName(nome.replace(/[\\/]/g, '_'))

/**
 * The documents' paths in the zip, `Tipo/arquivo.ext` with the original file name cleaned;
 * a path already taken (two files of the same name and type; case-insensitively) gets "-2",
 * "-3" before its extension.
 */
export function caminhosNoZip(docs: { tipo: string; caminho: string }[]): string[] {
  const usados = new Set([NOME_INDICE])
  return docs.map((d) => {
    const pasta = segmento(d.tipo)
    const arquivo = segmento(arquivoDaChave(d.caminho))
    const ponto = arquivo.lastIndexOf('.')
    const [base, ext] = ponto > 0 ? [arquivo.slice(0, ponto), arquivo.slice(ponto)] : [arquivo, '']
    let caminho = `${pasta}/${arquivo}`
    for (let n = 2; usados.has(caminho.toLowerCase()); n++) caminho = `${pasta}/${base}-${n}${ext}`
    usados.add(caminho.toLowerCase())
    return caminho
  })
}

/**
 * The dossier of a service (checked with `requireServico`): read, recorded in the audit trail
 * ("baixou o dossiê"), and answered as a zip stream with its file name. Nothing is read from the
 * storage until the reply pulls it.
 */
export async function gerarDossie(
  deps: { db: DbOrTx; storage: Storage; historico: LerHistorico },
  p: { actor: Actor; origem: Origem; servicoId: string },
): Promise<{ stream: Readable; fileName: string }> {
  const { db } = deps
  const paraCliente = p.actor.role !== 'admin'
  const [servico, documentos, historico, empresa] = await Promise.all([
    getServicoDoDossie(db, p.servicoId),
    listDocumentosDoDossie(db, p.actor, p.servicoId),
    deps.historico(db, p.servicoId, paraCliente ? p.actor.userId : null),
    getEmpresa(db),
  ])
  const caminhos = caminhosNoZip(documentos)
  const comCaminho = documentos.map((d, i) => ({ ...d, caminho_no_zip: caminhos[i] }))
  await recordLeitura(db, p.origem, {
    acao: 'download',
    entidade: 'servico',
    entidade_id: servico.id,
    rotulo: `${servico.tipo}${servico.protocolo ? ` (${servico.protocolo})` : ''}`,
    servico_id: servico.id,
    cliente_id: servico.cliente_id,
    depois: { documentos: documentos.length },
  })
  // The documents first, each opened at its turn; the index last, so it can say which stored
  // file was missing (left out of the zip, as "Baixar Todos" leaves it out).
  const ausentes = new Set<string>()
  const stream = zipStream([
    ...comCaminho.map((d) => ({
      nome: d.caminho_no_zip,
      mtime: new Date(d.enviado_em),
      abrir: async () => {
        try {
          return await deps.storage.get(d.caminho)
        } catch (err) {
          if (!(err instanceof StorageNotFound)) throw err
          ausentes.add(d.id)
          return null
        }
      },
    })),
    {
      nome: NOME_INDICE,
      comprimir: true,
      abrir: () =>
        indiceDossiePdf({
          empresa,
          servico,
          documentos: comCaminho.map((d) => ({ ...d, ausente: ausentes.has(d.id) })),
          historico,
          paraCliente,
        }),
    },
  ])
  const fileName = `${TITULO_DOSSIE} ${servico.tipo} ${servico.protocolo ?? ''}`
    .trim()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-zA-Z0-9._-]+/g, '_')
  return { stream, fileName: `${fileName}.zip` }
}
