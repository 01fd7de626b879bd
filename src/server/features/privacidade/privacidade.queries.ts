import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import { describeDevice } from '../../auth/device.ts'
import type { Db, DbOrTx, Tx } from '../../db/client.ts'
import { registrarAuditoria, type Origem } from '../../db/auditoria.ts'
import {
  auditoria,
  avisos,
  clientes,
  consentimentos,
  documentoVersoes,
  enviosEmail,
  notificacoes,
  retencao,
  servicos,
  servicosTiposDocumentos,
  session,
  solicitacoesLgpd,
  status,
  tiposDocumentos,
  tiposServicos,
  twoFactor,
  user,
  verification,
} from '../../db/schema.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { HttpError, notFound } from '../../errors.ts'
import { ownCliente, ownServicos, type Actor } from '../../policy.ts'
import { documentFiles } from '../../storage/arquivos.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'
import { arquivoDaChave } from '#shared/schemas/documentos.ts'
import {
  PRAZO_DIAS,
  RETENCAO_PADRAO,
  SOLICITACAO_DECIDIDA,
  SOLICITACAO_EXISTENTE,
  SOLICITACAO_NAO_ENCONTRADA,
  type MinhaSolicitacao,
  type Retencao,
  type Solicitacao,
  type SolicitacoesQuery,
} from '#shared/schemas/privacidade.ts'

const iso = (d: Date | null) => (d ? d.toISOString() : null)

// ---- "Baixar meus dados" ----

/** A document file of the export: where it is stored and its path inside the zip. */
export type ArquivoExportado = { caminho: string; nome_no_zip: string }

/**
 * Everything the portal holds about the actor (LGPD art. 18, II and V): the account, the client
 * record, the services with their dates, statuses, visible avisos and documents, the e-mails
 * sent about them, the notifications and the requests. `arquivos` are the document files the
 * client sent or was given (visible to them), each under `documentos/` in the zip.
 */
export async function getExportacao(db: DbOrTx, actor: Actor) {
  const [conta] = await db
    .select({
      id: user.id,
      email: user.email,
      email_confirmado: user.emailVerified,
      criada_em: user.createdAt,
      verificacao_em_duas_etapas: user.twoFactorEnabled,
    })
    .from(user)
    .where(eq(user.id, actor.userId))
  const aceites = await db
    .select({ versao: consentimentos.versao, aceito_em: consentimentos.aceito_em })
    .from(consentimentos)
    .where(eq(consentimentos.user_id, actor.userId))
    .orderBy(consentimentos.aceito_em)
  const sessoes = await db
    .select({
      criada_em: session.createdAt,
      ultimo_uso: session.updatedAt,
      expira_em: session.expiresAt,
      ip: session.ipAddress,
      userAgent: session.userAgent,
    })
    .from(session)
    .where(eq(session.userId, actor.userId))
  const [cadastro] = await db
    .select({
      id: clientes.id,
      nome: clientes.nome,
      documento: clientes.documento,
      email: clientes.email,
      nascimento: clientes.nascimento,
      telefone: clientes.telefone,
      cep: clientes.cep,
      logradouro: clientes.logradouro,
      complemento: clientes.complemento,
      bairro: clientes.bairro,
      localidade: clientes.localidade,
      uf: clientes.uf,
      endereco: clientes.endereco,
      criado_em: clientes.created_at,
    })
    .from(clientes)
    .where(ownCliente(actor))
  const servicosRows = await db
    .select({
      id: servicos.id,
      protocolo: servicos.protocolo,
      tipo: tiposServicos.tipo,
      status: status.nome,
      vigencia_inicio: servicos.vigencia_inicio,
      vigencia_fim: servicos.vigencia_fim,
      detalhes: servicos.detalhes,
      criado_em: servicos.created_at,
    })
    .from(servicos)
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .leftJoin(status, eq(status.id, servicos.status_id))
    .where(ownServicos(actor))
    .orderBy(servicos.created_at, servicos.id)
  const ids = servicosRows.map((s) => s.id)
  const avisosRows = ids.length
    ? await db
        .select({
          servico_id: avisos.servico_id,
          texto: avisos.texto,
          data_limite: avisos.data_limite,
          resolvido: avisos.resolvido,
          criado_em: avisos.created_at,
        })
        .from(avisos)
        .where(and(inArray(avisos.servico_id, ids), eq(avisos.visivel_cliente, true)))
        .orderBy(avisos.created_at)
    : []
  const versoes = ids.length
    ? await db
        .select({
          id: documentoVersoes.id,
          servico_id: servicosTiposDocumentos.servico_id,
          tipo_documento: tiposDocumentos.tipo,
          enviado_por: documentoVersoes.enviado_por,
          caminho: documentoVersoes.caminho,
          tamanho: documentoVersoes.tamanho,
          sha256: documentoVersoes.sha256,
          enviado_em: documentoVersoes.created_at,
          atual: documentoVersoes.atual,
          estado: documentoVersoes.estado,
          motivo: documentoVersoes.motivo,
        })
        .from(documentoVersoes)
        .innerJoin(
          servicosTiposDocumentos,
          eq(servicosTiposDocumentos.id, documentoVersoes.documento_id),
        )
        .innerJoin(
          tiposDocumentos,
          eq(tiposDocumentos.id, servicosTiposDocumentos.tipo_documento_id),
        )
        .where(
          and(
            inArray(servicosTiposDocumentos.servico_id, ids),
            eq(servicosTiposDocumentos.visivel_usuario, true),
          ),
        )
        .orderBy(documentoVersoes.created_at, documentoVersoes.id)
    : []
  const envios = ids.length
    ? await db
        .select({
          servico_id: enviosEmail.servico_id,
          assunto: enviosEmail.assunto,
          enviado_em: enviosEmail.created_at,
          origem: enviosEmail.origem,
          destinatarios: enviosEmail.destinatarios,
        })
        .from(enviosEmail)
        .where(inArray(enviosEmail.servico_id, ids))
        .orderBy(enviosEmail.created_at)
    : []
  const avisosDoApp = await db
    .select({
      titulo: notificacoes.titulo,
      link: notificacoes.link,
      criada_em: notificacoes.created_at,
      lida_em: notificacoes.read_at,
    })
    .from(notificacoes)
    .where(eq(notificacoes.user_id, actor.userId))
    .orderBy(notificacoes.created_at)
  const pedidos = await listMinhasSolicitacoes(db, actor)
  // The audit events about them (their record, services or account): what happened and when,
  // which fields changed and the role that did it; not other people's e-mails or addresses,
  // nor the values of the consultancy's internal fields.
  const eventos = await db
    .select({
      em: auditoria.em,
      acao: auditoria.acao,
      entidade: auditoria.entidade,
      entidade_id: auditoria.entidade_id,
      servico_id: auditoria.servico_id,
      por: auditoria.ator_role,
      proprio: sql<boolean>`${auditoria.ator_id} = ${actor.userId}`,
      campos: sql<
        string[] | null
      >`(select array_agg(k order by k) from jsonb_object_keys(case when jsonb_typeof(${auditoria.depois}) = 'object' then ${auditoria.depois} end) k)`,
    })
    .from(auditoria)
    .where(
      sql`${auditoria.cliente_id} in (select ${clientes.id} from ${clientes} where ${ownCliente(actor)})
          or ${auditoria.ator_id} = ${actor.userId}
          or (${auditoria.entidade} = 'usuario' and ${auditoria.entidade_id} = ${actor.userId})`,
    )
    .orderBy(auditoria.em, auditoria.id)

  const proprios = new Set(
    [conta?.email, cadastro?.email].filter(Boolean).map((e) => e!.toLowerCase()),
  )
  const usados = new Set<string>()
  const arquivos: ArquivoExportado[] = []
  const documentos = versoes.map((v) => {
    const servico = servicosRows.find((s) => s.id === v.servico_id)
    const pasta = (servico?.protocolo ?? v.servico_id).replace(/[^\w.-]+/g, '_')
    const base = `documentos/${pasta}/${arquivoDaChave(v.caminho).replace(/[\\/]/g, '_')}`
    let nome = base
    for (let i = 2; usados.has(nome); i++) nome = base.replace(/(\.[^./]+)?$/, ` (${i})$1`)
    usados.add(nome)
    arquivos.push({ caminho: v.caminho, nome_no_zip: nome })
    return {
      servico_id: v.servico_id,
      tipo_documento: v.tipo_documento,
      enviado_por: v.enviado_por === 'cliente' ? 'cliente' : 'consultoria',
      enviado_em: iso(v.enviado_em),
      atual: v.atual,
      estado: v.estado,
      motivo: v.motivo,
      tamanho: v.tamanho,
      sha256: v.sha256,
      arquivo: nome,
    }
  })
  const dados = {
    gerado_em: new Date().toISOString(),
    conta: conta
      ? {
          ...conta,
          criada_em: iso(conta.criada_em),
          aceites: aceites.map((a) => ({ versao: a.versao, aceito_em: iso(a.aceito_em) })),
          sessoes: sessoes.map((s) => ({
            dispositivo: describeDevice(s.userAgent),
            ip: s.ip,
            criada_em: iso(s.criada_em),
            ultimo_uso: iso(s.ultimo_uso),
            expira_em: iso(s.expira_em),
          })),
        }
      : null,
    cadastro: cadastro ? { ...cadastro, criado_em: iso(cadastro.criado_em) } : null,
    servicos: servicosRows.map((s) => ({
      ...s,
      criado_em: iso(s.criado_em),
      avisos: avisosRows
        .filter((a) => a.servico_id === s.id)
        .map(({ servico_id: _, ...a }) => ({ ...a, criado_em: iso(a.criado_em) })),
      documentos: documentos
        .filter((d) => d.servico_id === s.id)
        .map(({ servico_id: _, ...d }) => d),
    })),
    // Only the client's own addresses: other recipients of a sending are not theirs to see.
    emails_enviados: envios.map((e) => ({
      servico_id: e.servico_id,
      assunto: e.assunto,
      enviado_em: iso(e.enviado_em),
      origem: e.origem,
      para: e.destinatarios.filter((d) => proprios.has(d.toLowerCase())),
    })),
    notificacoes: avisosDoApp.map((n) => ({
      ...n,
      criada_em: iso(n.criada_em),
      lida_em: iso(n.lida_em),
    })),
    solicitacoes_lgpd: pedidos,
    auditoria: eventos.map((e) => ({
      em: iso(e.em),
      acao: e.acao,
      entidade: e.entidade,
      entidade_id: e.entidade_id,
      servico_id: e.servico_id,
      por: e.proprio ? 'voce' : e.por === 'admin' ? 'consultoria' : (e.por ?? 'sistema'),
      campos_alterados: e.campos ?? [],
    })),
  }
  return { dados, arquivos }
}

// ---- "Solicitar exclusão" ----

const minhaColunas = {
  id: solicitacoesLgpd.id,
  pedido_em: solicitacoesLgpd.pedido_em,
  prazo: solicitacoesLgpd.prazo,
  estado: solicitacoesLgpd.estado,
  motivo: solicitacoesLgpd.motivo,
}

const toMinha = (r: {
  id: string
  pedido_em: Date
  prazo: Date
  estado: MinhaSolicitacao['estado']
  motivo: string | null
}): MinhaSolicitacao => ({
  ...r,
  pedido_em: r.pedido_em.toISOString(),
  prazo: r.prazo.toISOString(),
})

/** The actor's own requests, newest first. */
export async function listMinhasSolicitacoes(db: DbOrTx, actor: Actor) {
  const rows = await db
    .select(minhaColunas)
    .from(solicitacoesLgpd)
    .where(eq(solicitacoesLgpd.user_id, actor.userId))
    .orderBy(desc(solicitacoesLgpd.pedido_em))
  return rows.map(toMinha)
}

/**
 * Records the actor's request to erase their data, due in 15 days (one open at a time), and its
 * audit event (entity `solicitacao_lgpd`, named by the client record) in the same transaction.
 */
export async function createSolicitacao(
  db: Db,
  actor: Actor,
  origem: Origem,
): Promise<MinhaSolicitacao> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(solicitacoesLgpd)
      .values({
        user_id: actor.userId,
        cliente_id: sql`(select ${clientes.id} from ${clientes} where ${ownCliente(actor)})`,
        prazo: sql`now() + make_interval(days => ${PRAZO_DIAS})`,
      })
      .onConflictDoNothing()
      .returning({ ...minhaColunas, cliente_id: solicitacoesLgpd.cliente_id })
    if (!row) throw new HttpError(409, SOLICITACAO_EXISTENTE)
    const { cliente_id, ...minha } = row
    await registrarAuditoria(tx, origem, {
      acao: 'criar',
      entidade: 'solicitacao_lgpd',
      entidade_id: row.id,
      rotulo: await titularDe(tx, cliente_id, actor.email),
      cliente_id,
      depois: { estado: row.estado, prazo: row.prazo },
    })
    return toMinha(minha)
  })
}

/** How a request's events name its titular: the client record's name, else the account's e-mail. */
async function titularDe(tx: DbOrTx, clienteId: string | null, email: string | null) {
  const [c] = clienteId
    ? await tx.select({ nome: clientes.nome }).from(clientes).where(eq(clientes.id, clienteId))
    : []
  return c?.nome ?? email
}

// ---- the administrators' list ----

const solicitacaoColunas = {
  ...minhaColunas,
  cliente_id: solicitacoesLgpd.cliente_id,
  cliente_nome: clientes.nome,
  email: sql<string | null>`coalesce(${user.email}, ${clientes.email})`,
  decidido_por: sql<
    string | null
  >`(select u.email from "user" u where u.id = ${solicitacoesLgpd.decidido_por})`,
  decidido_em: solicitacoesLgpd.decidido_em,
}

type SolicitacaoRow = {
  id: string
  pedido_em: Date
  prazo: Date
  estado: Solicitacao['estado']
  motivo: string | null
  cliente_id: string | null
  cliente_nome: string | null
  email: string | null
  decidido_por: string | null
  decidido_em: Date | null
}

const toSolicitacao = (r: SolicitacaoRow): Solicitacao => ({
  ...toMinha(r),
  cliente_id: r.cliente_id,
  cliente_nome: r.cliente_nome,
  email: r.email,
  decidido_por: r.decidido_por,
  decidido_em: iso(r.decidido_em),
})

/** "Solicitações LGPD": the open requests by deadline (or all, newest first), paged in SQL. */
export async function listSolicitacoes(db: DbOrTx, query: SolicitacoesQuery) {
  const where: SQL | undefined =
    query.estado === 'todas' ? undefined : eq(solicitacoesLgpd.estado, query.estado)
  const page = query.page ?? 1
  const rows = await db
    .select(solicitacaoColunas)
    .from(solicitacoesLgpd)
    .leftJoin(clientes, eq(clientes.id, solicitacoesLgpd.cliente_id))
    .leftJoin(user, eq(user.id, solicitacoesLgpd.user_id))
    .where(where)
    .orderBy(
      ...(query.estado === 'pendente'
        ? [solicitacoesLgpd.prazo, solicitacoesLgpd.id]
        : [desc(solicitacoesLgpd.pedido_em), desc(solicitacoesLgpd.id)]),
    )
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE)
  const [{ total }] = await db.select({ total: count() }).from(solicitacoesLgpd).where(where)
  return { rows: rows.map(toSolicitacao), total, page, page_size: PAGE_SIZE }
}

export async function getSolicitacao(db: DbOrTx, id: string): Promise<Solicitacao> {
  const [row] = await db
    .select(solicitacaoColunas)
    .from(solicitacoesLgpd)
    .leftJoin(clientes, eq(clientes.id, solicitacoesLgpd.cliente_id))
    .leftJoin(user, eq(user.id, solicitacoesLgpd.user_id))
    .where(eq(solicitacoesLgpd.id, id))
  if (!row) throw notFound(SOLICITACAO_NAO_ENCONTRADA)
  return toSolicitacao(row)
}

/** Locks an open request for its decision; a decided one is a 409. */
async function lockPendente(tx: Tx, id: string) {
  const [row] = await tx
    .select({
      id: solicitacoesLgpd.id,
      estado: solicitacoesLgpd.estado,
      user_id: solicitacoesLgpd.user_id,
      cliente_id: solicitacoesLgpd.cliente_id,
    })
    .from(solicitacoesLgpd)
    .where(eq(solicitacoesLgpd.id, id))
    .for('update')
  if (!row) throw notFound(SOLICITACAO_NAO_ENCONTRADA)
  if (row.estado !== 'pendente') throw new HttpError(409, SOLICITACAO_DECIDIDA)
  return row
}

/**
 * Refuses an open request with its reason, recording the decision (state before and after, the
 * reason) in the same transaction; answers who to tell (the account's e-mail).
 */
export async function recusarSolicitacao(tx: Tx, id: string, origem: Origem, motivo: string) {
  const row = await lockPendente(tx, id)
  const [conta] = row.user_id
    ? await tx.select({ email: user.email }).from(user).where(eq(user.id, row.user_id))
    : []
  await tx
    .update(solicitacoesLgpd)
    .set({ estado: 'recusada', motivo, decidido_por: origem.ator_id, decidido_em: sql`now()` })
    .where(eq(solicitacoesLgpd.id, id))
  await registrarAuditoria(tx, origem, {
    acao: 'alterar',
    entidade: 'solicitacao_lgpd',
    entidade_id: id,
    rotulo: await titularDe(tx, row.cliente_id, conta?.email ?? null),
    cliente_id: row.cliente_id,
    antes: { estado: row.estado },
    depois: { estado: 'recusada', motivo },
  })
  return { email: conta?.email ?? null }
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
 * Carries out an erasure (LGPD art. 18, VI) in the caller's transaction: removes the account
 * (its sessions, credentials, second factor, devices, notifications and consents go with it),
 * the documents of the client's services (answers their stored keys, removed after the commit by
 * `deleteWithFiles`), and anonymises the client record and what is kept of its services: the
 * licences' history, which environmental law requires the consultancy to keep.
 */
export async function concluirSolicitacao(tx: Tx, id: string, origem: Origem) {
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
  // The audit trail keeps its events (ids, actions, times) without the personal values.
  await tx.execute(sql`select auditoria_anonimizar(${row.cliente_id}::uuid, ${row.user_id}::text)`)
  await registrarAuditoria(tx, origem, {
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
  await registrarAuditoria(tx, origem, {
    acao: 'alterar',
    entidade: 'solicitacao_lgpd',
    entidade_id: id,
    cliente_id: row.cliente_id,
    antes: { estado: row.estado },
    depois: { estado: 'concluida' },
  })
  return { keys, email: conta?.email ?? cliente?.email ?? null }
}

// ---- retention ----

export async function getRetencao(db: DbOrTx): Promise<Retencao> {
  const [row] = await db
    .select({
      auditoria_dias: retencao.auditoria_dias,
      envios_email_dias: retencao.envios_email_dias,
      sessoes_dias: retencao.sessoes_dias,
      contas_nao_confirmadas_dias: retencao.contas_nao_confirmadas_dias,
    })
    .from(retencao)
  return row ?? RETENCAO_PADRAO
}

export async function updateRetencao(db: DbOrTx, body: Retencao): Promise<Retencao> {
  const [row] = await db
    .insert(retencao)
    .values({ id: 1, ...body })
    .onConflictDoUpdate({ target: retencao.id, set: { ...body, updated_at: sql`now()` } })
    .returning({
      auditoria_dias: retencao.auditoria_dias,
      envios_email_dias: retencao.envios_email_dias,
      sessoes_dias: retencao.sessoes_dias,
      contas_nao_confirmadas_dias: retencao.contas_nao_confirmadas_dias,
    })
  return row
}

/** What the daily job removed, by kind (logged). */
export type Expurgo = {
  sessoes: number
  contas_nao_confirmadas: number
  envios_email: number
  auditoria: number
}

/**
 * Applies the retention settings once: sessions expired more than `sessoes_dias` ago, accounts
 * never confirmed after `contas_nao_confirmadas_dias` (with no client record linked), and
 * e-mail sendings older than `envios_email_dias`, and audit events older than `auditoria_dias`
 * (through `auditoria_expurgar`, the only way to delete them).
 */
export async function expurgar(db: DbOrTx, agora = new Date()): Promise<Expurgo> {
  const r = await getRetencao(db)
  const antes = (dias: number) => new Date(agora.getTime() - dias * 86_400_000)
  const sessoes = await db
    .delete(session)
    .where(sql`${session.expiresAt} < ${antes(r.sessoes_dias)}`)
    .returning({ id: session.id })
  const contas = await db
    .delete(user)
    .where(
      sql`${user.emailVerified} = false and ${user.createdAt} < ${antes(r.contas_nao_confirmadas_dias)}
          and not exists (select 1 from ${clientes} where ${clientes.user_id} = ${user.id})`,
    )
    .returning({ id: user.id })
  const envios = await db
    .delete(enviosEmail)
    .where(
      sql`${enviosEmail.created_at} < ${antes(r.envios_email_dias)} and ${enviosEmail.pendentes} is null`,
    )
    .returning({ id: enviosEmail.id })
  const [auditados] = await rawRows<{ n: number }>(
    db,
    sql`select auditoria_expurgar(${antes(r.auditoria_dias)}) as n`,
  )
  return {
    sessoes: sessoes.length,
    contas_nao_confirmadas: contas.length,
    envios_email: envios.length,
    auditoria: auditados?.n ?? 0,
  }
}
