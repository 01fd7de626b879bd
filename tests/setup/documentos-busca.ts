import { sql } from 'drizzle-orm'
import type { Db } from '../../src/server/db/client.ts'
import { createCliente, createServico, createTipoServico } from '../factories.ts'
import type { Actor } from './actors.ts'

// The analysts' document search's tests (`documentos/busca-documentos*.test.ts`): the request and
// the documents they search.

/** `GET /api/admin/documentos/busca?q=` as `actor`, page `page`. */
export const buscaDeDocumentos = (actor: Actor, q: string, page?: number) =>
  actor.inject({
    method: 'GET',
    url: `/api/admin/documentos/busca?q=${encodeURIComponent(q)}${page ? `&page=${page}` : ''}`,
  })

export const tipoDe = (r: { tipo: string }) => r.tipo

/** A service of a new client named `nome`. */
export async function servicoDe(db: Db, nome: string) {
  const cliente = await createCliente(db, { nome })
  const tipo = await createTipoServico(db)
  return createServico(db, { cliente_id: cliente.id, tipo_servico_id: tipo.id })
}

/**
 * `n` documents of one service, each of its own type '<tipo> <i>', its file 'ficha-<i>.pdf' sent
 * at minute i × `passo` of 2026 (the newest is the n-th); in SQL, the triggers per row, or, `lote`
 * (thousands, on a database of the test's own), their words written once at the end, as the
 * bench fills its data.
 */
export async function fichas(db: Db, tipo: string, n: number, { passo = 1, lote = false } = {}) {
  const servico = await servicoDe(db, 'Cliente Muitos')
  const gatilhos = async (acao: 'ENABLE' | 'DISABLE') => {
    await db.execute(
      sql.raw(
        `ALTER TABLE servicos_tipos_documentos ${acao} TRIGGER servicos_tipos_documentos_busca`,
      ),
    )
    await db.execute(
      sql.raw(`ALTER TABLE documento_versoes ${acao} TRIGGER documento_versoes_busca`),
    )
  }
  if (lote) await gatilhos('DISABLE')
  await db.execute(sql`INSERT INTO tipos_documentos (tipo)
    SELECT ${tipo} || ' ' || g FROM generate_series(1, ${n}::int) g`)
  await db.execute(sql`INSERT INTO servicos_tipos_documentos (servico_id, tipo_documento_id, enviado_por)
    SELECT ${servico.id}, id, 'admin' FROM tipos_documentos WHERE tipo LIKE ${`${tipo} %`}`)
  await db.execute(sql`INSERT INTO documento_versoes (documento_id, caminho, enviado_por, created_at)
    SELECT d.id, ${servico.id} || '/1767261600000-ficha-' || substring(t.tipo from '[0-9]+$') || '.pdf', 'admin',
           timestamptz '2026-01-01 00:00:00+00'
             + (substring(t.tipo from '[0-9]+$')::int * ${passo}::int || ' minutes')::interval
    FROM servicos_tipos_documentos d JOIN tipos_documentos t ON t.id = d.tipo_documento_id
    WHERE t.tipo LIKE ${`${tipo} %`}`)
  if (lote) {
    await gatilhos('ENABLE')
    await db.execute(sql`SELECT documentos_busca_refresh(array(
      SELECT id FROM servicos_tipos_documentos WHERE servico_id = ${servico.id}))`)
  }
  return servico
}
