import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { RespostasGuardadas, type RespostaGuardada } from '../../respostas-guardadas.ts'
import { today } from '#shared/datas.ts'
import { pageOf } from '#shared/schemas/common.ts'
import { EntregaListadaSchema, type ListaEntregasFiltro } from '#shared/schemas/condicionantes.ts'
import { countAtrasadas, listEntregas } from './entregas-lista.queries.ts'

// The admin menu "Condicionantes" and its badge, kept by data version (respostas-guardadas.ts):
// every analyst opens the list and every admin page asks the badge, while entregas change far
// less often. Only administrators ask, and the list is the same for all of them (the office's);
// "Atrasada" depends on the day, so today's date in Brasília is part of the key.

/** A page is ~25 entregas with their evidence (~20 KB); the badge a few bytes. */
const respostas = new RespostasGuardadas(8_000_000)

export const ListaEntregasRespostaSchema = pageOf(EntregaListadaSchema)
export const ContagemAtrasadasSchema = z.object({ total: z.number() })

/**
 * `GET /api/admin/condicionantes`: the JSON the response schema would have written (encoded by
 * it, as fastify-type-provider-zod's serialiser does), kept per normalised query and day.
 */
export function respostaDaLista(db: Db, q: ListaEntregasFiltro): Promise<RespostaGuardada> {
  const hoje = today()
  const chave = JSON.stringify([
    'admin',
    'lista',
    hoje,
    q.situacao ?? null,
    q.cliente_id ?? null,
    q.responsavel ?? null,
    q.de ?? null,
    q.ate ?? null,
    q.page,
  ])
  return respostas.obter(db, chave, async () =>
    z.encode(ListaEntregasRespostaSchema, await listEntregas(db, q, hoje)),
  )
}

/** `GET /api/admin/condicionantes/contagem`: the menu's badge, the entregas late today. */
export function respostaDaContagem(db: Db): Promise<RespostaGuardada> {
  const hoje = today()
  return respostas.obter(db, JSON.stringify(['admin', 'contagem', hoje]), async () =>
    z.encode(ContagemAtrasadasSchema, { total: await countAtrasadas(db, hoje) }),
  )
}
