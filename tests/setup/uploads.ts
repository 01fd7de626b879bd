import { eq } from 'drizzle-orm'
import { documentoVersoes, servicosTiposDocumentos } from '../../src/server/db/schema.ts'
import type { Actor } from './actors.ts'
import { createRegra, createServico, createTipoDocumento, createTipoServico } from '../factories.ts'
import { multipart } from './helpers.ts'
import type { TestApp } from './test-app.ts'

/** A PDF of `size` bytes (its first bytes make it one). */
export const pdfOf = (size: number) =>
  Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(Math.max(0, size - 9), 0x20)])

/** A service of `owner` that requires one document type: where the client uploads. */
export async function servicoComExigencia(t: TestApp, owner: Actor) {
  const tipoServico = await createTipoServico(t.db)
  const tipoDocumento = await createTipoDocumento(t.db)
  await createRegra(t.db, tipoServico.id, tipoDocumento.id)
  const servico = await createServico(t.db, {
    cliente_id: owner.clienteId!,
    tipo_servico_id: tipoServico.id,
  })
  return {
    servico,
    tipoDocumento,
    /** The client's upload (PUT) of `content` as this service's required document. */
    upload: (content: Buffer, actor: Actor = owner) => {
      const body = multipart({ name: 'licenca.pdf', content })
      return actor.inject({
        method: 'PUT',
        url: `/api/servicos/${servico.id}/documentos/${tipoDocumento.id}`,
        ...body,
      })
    },
    /** The versions recorded for this service's documents. */
    versoes: () =>
      t.db
        .select({ id: documentoVersoes.id, caminho: documentoVersoes.caminho })
        .from(documentoVersoes)
        .innerJoin(
          servicosTiposDocumentos,
          eq(servicosTiposDocumentos.id, documentoVersoes.documento_id),
        )
        .where(eq(servicosTiposDocumentos.servico_id, servico.id)),
  }
}
