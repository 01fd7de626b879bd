import { desc, eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { avisos, avisosAutomaticos } from '../../db/schema.ts'
import { FOREIGN_KEY_VIOLATION, isPgError } from '../../db/sql-helpers.ts'
import { HttpError, notFound } from '../../errors.ts'
import { SERVICO_NAO_ENCONTRADO } from '../../policy.ts'
import type { Aviso, AvisoComOrigem, AvisoCreate } from '#shared/schemas/avisos.ts'

export const AVISO_NAO_ENCONTRADO = 'Aviso não encontrado.'

const toAviso = (row: typeof avisos.$inferSelect): Aviso => ({
  id: row.id,
  servico_id: row.servico_id,
  texto: row.texto,
  data_limite: row.data_limite,
  resolvido: row.resolvido,
  created_at: row.created_at.toISOString(),
})

/** SPEC §7: the avisos of a service, newest first, each with how it went out when automatic. */
export async function listAvisos(db: DbOrTx, servicoId: string): Promise<AvisoComOrigem[]> {
  const rows = await db
    .select({ aviso: avisos, automatico: avisosAutomaticos })
    .from(avisos)
    .leftJoin(avisosAutomaticos, eq(avisosAutomaticos.aviso_id, avisos.id))
    .where(eq(avisos.servico_id, servicoId))
    .orderBy(desc(avisos.created_at), desc(avisos.id))
  return rows.map(({ aviso, automatico: a }) => ({
    ...toAviso(aviso),
    automatico: a && {
      avisar: a.avisar,
      situacao: a.situacao,
      tentativas: a.tentativas,
      enviado_em: a.enviado_em?.toISOString() ?? null,
      ultimo_erro: a.ultimo_erro,
    },
  }))
}

/** A warning written by hand: open (not resolved). A service deleted meanwhile is a 404. */
export async function createAviso(db: DbOrTx, servicoId: string, body: AvisoCreate) {
  try {
    const [row] = await db
      .insert(avisos)
      .values({
        servico_id: servicoId,
        texto: body.texto,
        data_limite: body.data_limite,
        resolvido: false,
      })
      .returning()
    return toAviso(row)
  } catch (err) {
    if (isPgError(err, FOREIGN_KEY_VIOLATION)) throw notFound(SERVICO_NAO_ENCONTRADO)
    if (isPgError(err, '22008')) throw new HttpError(400, 'Informe uma data válida.', 'data_limite')
    throw err
  }
}

/** SPEC §4: resolve or reopen a warning. */
export async function updateAviso(db: DbOrTx, id: string, body: { resolvido: boolean }) {
  const [row] = await db
    .update(avisos)
    .set({ resolvido: body.resolvido })
    .where(eq(avisos.id, id))
    .returning()
  if (!row) throw notFound(AVISO_NAO_ENCONTRADO)
  return toAviso(row)
}

export async function deleteAviso(db: DbOrTx, id: string) {
  const [row] = await db.delete(avisos).where(eq(avisos.id, id)).returning({ id: avisos.id })
  if (!row) throw notFound(AVISO_NAO_ENCONTRADO)
}
