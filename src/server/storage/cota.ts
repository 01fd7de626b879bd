import { and, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '../db/client.ts'
import {
  condicionantesEntregas,
  documentoVersoes as versao,
  mensagemAnexos,
  mensagens,
  servicos,
  servicosTiposDocumentos as doc,
} from '../db/schema.ts'
import { HttpError } from '../errors.ts'

/**
 * A client's storage quota, the one rule for every file a client sends: every version it sent
 * that is kept (across its services, the replaced ones too: each is a file in storage), every
 * file it attached to a message, every evidence file of a condicionante it sent, plus this file stay within `cotaMb`. One upload of a client at a
 * time (a lock per client), so uploads sent at once cannot pass the quota together. The refusal
 * says how much is used ("Você usou X de Y"). Runs in the transaction that records the file.
 */
export async function assertCotaCliente(
  tx: DbOrTx,
  p: { servicoId: string; tamanho: number },
  cotaMb: number,
) {
  const [dono] = await tx
    .select({ cliente_id: servicos.cliente_id })
    .from(servicos)
    .where(eq(servicos.id, p.servicoId))
  // A service gone since the route checked it: the row write fails as it always did.
  if (!dono) return
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`armazenamento:${dono.cliente_id}`}, 0))`,
  )
  const [{ usado }] = await tx
    .select({ usado: sql<number>`coalesce(sum(${versao.tamanho}), 0)::float8` })
    .from(versao)
    .innerJoin(doc, eq(doc.id, versao.documento_id))
    .innerJoin(servicos, eq(servicos.id, doc.servico_id))
    // A renewal's reused version names a file already counted ("Reaproveitado"): no new bytes.
    .where(
      and(
        eq(servicos.cliente_id, dono.cliente_id),
        eq(doc.enviado_por, 'cliente'),
        eq(versao.reaproveitada, false),
      ),
    )
  const [{ anexos }] = await tx
    .select({ anexos: sql<number>`coalesce(sum(${mensagemAnexos.tamanho}), 0)::float8` })
    .from(mensagemAnexos)
    .innerJoin(mensagens, eq(mensagens.id, mensagemAnexos.mensagem_id))
    .innerJoin(servicos, eq(servicos.id, mensagens.servico_id))
    .where(and(eq(servicos.cliente_id, dono.cliente_id), eq(mensagens.lado, 'cliente')))
  // An entrega's evidence the client sent (`documento_versoes` with `entrega_id`).
  const [{ evidencias }] = await tx
    .select({ evidencias: sql<number>`coalesce(sum(${versao.tamanho}), 0)::float8` })
    .from(versao)
    .innerJoin(condicionantesEntregas, eq(condicionantesEntregas.id, versao.entrega_id))
    .where(
      and(
        eq(condicionantesEntregas.cliente_id, dono.cliente_id),
        eq(versao.enviado_por, 'cliente'),
      ),
    )
  const total = usado + anexos + evidencias
  if (total + p.tamanho > cotaMb * 1024 * 1024)
    throw new HttpError(
      413,
      `Limite de armazenamento atingido. Você usou ${megabytes(total)} de ${cotaMb} MB ` +
        `(as versões anteriores dos documentos também contam) e este arquivo tem ` +
        `${megabytes(p.tamanho)}.`,
    )
}

/** '0,6 MB', '12 MB': megabytes with at most one decimal, as Brazilians write them. */
const megabytes = (bytes: number) =>
  `${(bytes / (1024 * 1024)).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} MB`
