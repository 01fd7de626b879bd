import { and, eq, inArray, sql, type SQL } from 'drizzle-orm'
import type { Tx } from '../../db/client.ts'
import { recordAuditoria, type Origem } from '../../db/auditoria.ts'
import {
  avisos,
  clientes,
  notificacoes,
  servicos,
  servicosTiposDocumentos,
  session,
  solicitacoesLgpd,
  twoFactor,
  user,
  verification,
  mensagens,
} from '../../db/schema.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { getMarca } from '../../mail/empresa.ts'
import type { Mailer } from '../../mail/mailer.ts'
import { deleteWithFiles, documentFiles, type FileDeps } from '../../storage/arquivos.ts'
import { emailExclusaoConcluida } from './emails.ts'
import { getSolicitacao, lockPendente } from './privacidade.queries.ts'

/** How a client's message reads after the erasure of its author. */
export const AUTOR_ANONIMO = 'Cliente (dados excluídos)'
import type { Solicitacao } from '#shared/schemas/privacidade.ts'

type Deps = FileDeps & {
  mailer: Mailer
  appUrl: string
  log: FileDeps['log'] & { info: (obj: object, msg: string) => void }
}

/**
 * Carries out an erasure request (LGPD art. 18, VI): one transaction removes and anonymises the
 * titular's data (`excluirDados`) with its audit events, the stored files go after the commit,
 * and the titular is told by e-mail (a failure to send is logged, the erasure stands). Answers
 * the request as the administrators' list shows it.
 */
export async function concluirSolicitacao(
  deps: Deps,
  id: string,
  origem: Origem,
): Promise<Solicitacao> {
  const { email } = await deleteWithFiles(deps, async (tx) => {
    const { keys, email } = await excluirDados(tx, id, origem)
    return { result: { email }, keys }
  })
  deps.log.info({ solicitacao: id }, 'LGPD erasure carried out')
  if (email)
    await deps.mailer
      .send({ to: email, ...emailExclusaoConcluida(await getMarca(deps.db, deps.appUrl)) })
      .catch((err) => deps.log.error({ err }, 'LGPD erasure e-mail failed'))
  return getSolicitacao(deps.db, id)
}

/** A regular expression (PostgreSQL ARE) that finds `value` in a text, ignoring case. */
const literal = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** CPF/CNPJ digits with or without their punctuation ("529.982.247-25" or "52998224725"). */
const documentoPattern = (documento: string) =>
  documento
    .split('')
    .map((c) => literal(c))
    .join('[./ -]?')

/**
 * The erasure itself, in the caller's transaction: removes the account (its sessions,
 * credentials, second factor, devices, notifications and consents go with it), the documents of
 * the client's services (answers their stored keys, removed after the commit by
 * `deleteWithFiles`), and anonymises the client record and what is kept of its services: the
 * licences' history, which environmental law requires the consultancy to keep.
 */
async function excluirDados(tx: Tx, id: string, origem: Origem) {
  const adminId = origem.ator_id
  const row = await lockPendente(tx, id)
  const [conta] = row.user_id
    ? await tx.select({ email: user.email }).from(user).where(eq(user.id, row.user_id))
    : []
  const [cliente] = row.cliente_id
    ? await tx.select().from(clientes).where(eq(clientes.id, row.cliente_id))
    : []
  const deServicos = cliente
    ? inArray(
        servicosTiposDocumentos.servico_id,
        tx.select({ id: servicos.id }).from(servicos).where(eq(servicos.cliente_id, cliente.id)),
      )
    : sql`false`
  const keys = await documentFiles(tx, deServicos)
  await tx.delete(servicosTiposDocumentos).where(deServicos)
  // The files of the services' messages go like their documents; the client's messages keep
  // their place in the conversation without their author (the consultancy's keep theirs).
  if (cliente) {
    const anexos = await rawRows<{ caminho: string }>(
      tx,
      sql`delete from mensagem_anexos a using mensagens m, servicos s
      where m.id = a.mensagem_id and s.id = m.servico_id and s.cliente_id = ${cliente.id}
      returning a.caminho`,
    )
    keys.push(...anexos.map((a) => a.caminho))
    await tx.execute(sql`
      update mensagens set autor_nome = ${AUTOR_ANONIMO}, autor_id = null
      where lado = 'cliente'
        and servico_id in (select id from servicos where cliente_id = ${cliente.id})`)
  }

  // Every personal value of the titular, as patterns: free texts of the records kept lose them.
  const emails = [...new Set([conta?.email, cliente?.email].filter((v): v is string => Boolean(v)))]
  const patterns = [
    ...emails.map(literal),
    ...(cliente ? [documentoPattern(cliente.documento), literal(cliente.nome)] : []),
    ...(cliente?.telefone ? [literal(cliente.telefone)] : []),
  ].filter((p) => p.length >= 3)
  const pattern = patterns.length ? `(${patterns.join('|')})` : null
  const scrub = (column: SQL | { name: string }) =>
    sql`regexp_replace(${column}, ${pattern}, '[dado removido]', 'gi')`
  if (cliente && pattern) {
    const doCliente = eq(servicos.cliente_id, cliente.id)
    const ids = tx.select({ id: servicos.id }).from(servicos).where(doCliente)
    await tx
      .update(servicos)
      .set({
        emails_interessados: null,
        emails_tecnicos: null,
        detalhes: scrub(servicos.detalhes),
        anotacoes: scrub(servicos.anotacoes),
        notificacao: scrub(servicos.notificacao),
      })
      .where(doCliente)
    await tx
      .update(avisos)
      .set({ texto: scrub(avisos.texto) })
      .where(and(inArray(avisos.servico_id, ids), sql`${avisos.texto} ~* ${pattern}`))
    // The condicionantes and their entregas are a legal record: kept, their texts without the
    // titular's values.
    await tx.execute(sql`
      update condicionantes set
        item = regexp_replace(item, ${pattern}, '[dado removido]', 'gi'),
        descricao = regexp_replace(descricao, ${pattern}, '[dado removido]', 'gi')
      where servico_id in (select id from servicos where cliente_id = ${cliente.id})
        and (item ~* ${pattern} or descricao ~* ${pattern})`)
    await tx.execute(sql`
      update condicionantes_entregas set
        protocolo_orgao = regexp_replace(protocolo_orgao, ${pattern}, '[dado removido]', 'gi')
      where cliente_id = ${cliente.id} and protocolo_orgao ~* ${pattern}`)
    // The evidence sent for the entregas is kept (the record of fulfilment); its comment is the
    // client's free text.
    await tx.execute(sql`
      update documento_versoes v set
        comentario = regexp_replace(v.comentario, ${pattern}, '[dado removido]', 'gi')
      from condicionantes_entregas e
      where e.id = v.entrega_id and e.cliente_id = ${cliente.id} and v.comentario ~* ${pattern}`)
    await tx
      .update(mensagens)
      .set({ texto: scrub(mensagens.texto) })
      .where(and(inArray(mensagens.servico_id, ids), sql`${mensagens.texto} ~* ${pattern}`))
    // The sending history keeps its dates and counts, not the addresses or the subject's values.
    await tx.execute(sql`
      update envios_email set
        assunto = regexp_replace(assunto, ${pattern}, '[dado removido]', 'gi'),
        erro = regexp_replace(erro, ${pattern}, '[dado removido]', 'gi'),
        destinatarios = array(select case when d ~* ${pattern} then '[dado removido]' else d end
                              from unnest(destinatarios) d),
        pendentes = case when pendentes is null then null else
                      array(select case when d ~* ${pattern} then '[dado removido]' else d end
                            from unnest(pendentes) d) end
      where servico_id in (select id from servicos where cliente_id = ${cliente.id})`)
  }
  if (pattern) {
    // Other accounts' notifications that named the titular (the administrators' bell).
    await tx
      .update(notificacoes)
      .set({ titulo: scrub(notificacoes.titulo) })
      .where(sql`${notificacoes.titulo} ~* ${pattern}`)
    // Pending e-mail links (confirmation, reset) that name the address.
    await tx
      .delete(verification)
      .where(
        sql`${verification.identifier} ~* ${pattern} or ${verification.value} ~* ${pattern}${
          row.user_id ? sql` or ${verification.value} = ${row.user_id}` : sql``
        }`,
      )
  }
  if (cliente) {
    await tx
      .update(clientes)
      .set({
        nome: 'Titular excluído',
        documento: sql`'EXCLUIDO-' || ${clientes.id}::text`,
        email: sql`'excluido-' || ${clientes.id}::text || '@titular-excluido.invalid'`,
        nascimento: null,
        telefone: null,
        cep: null,
        logradouro: null,
        complemento: null,
        bairro: null,
        localidade: null,
        uf: null,
        endereco: null,
        user_id: null,
      })
      .where(eq(clientes.id, cliente.id))
  }
  // The audit trail keeps its events (ids, actions, times) without the personal values: those
  // about the titular, and any other that names them (a failed sign-in's typed e-mail).
  await tx.execute(
    sql`select auditoria_anonimizar(${row.cliente_id}::uuid, ${row.user_id}::text, ${pattern}::text)`,
  )
  await recordAuditoria(tx, origem, {
    acao: 'anonimizar',
    entidade: 'cliente',
    entidade_id: row.cliente_id,
    cliente_id: row.cliente_id,
    depois: { solicitacao_id: id },
  })
  if (row.user_id) {
    await tx.delete(twoFactor).where(eq(twoFactor.userId, row.user_id))
    await tx.delete(session).where(eq(session.userId, row.user_id))
    await tx.delete(user).where(eq(user.id, row.user_id))
  }
  await tx
    .update(solicitacoesLgpd)
    .set({ estado: 'concluida', decidido_por: adminId, decidido_em: sql`now()` })
    .where(eq(solicitacoesLgpd.id, id))
  // Written after the anonymisation: the decision stays whole, and names nobody.
  await recordAuditoria(tx, origem, {
    acao: 'alterar',
    entidade: 'solicitacao_lgpd',
    entidade_id: id,
    cliente_id: row.cliente_id,
    antes: { estado: row.estado },
    depois: { estado: 'concluida' },
  })
  return { keys, email: conta?.email ?? cliente?.email ?? null }
}
