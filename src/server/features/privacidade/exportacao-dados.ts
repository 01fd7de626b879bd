import { and, eq, inArray, sql } from 'drizzle-orm'
import { describeDevice } from '../../auth/device.ts'
import type { DbOrTx } from '../../db/client.ts'
import { notificacaoVisivel } from '../../db/notificacoes.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import {
  auditoria,
  avisos,
  clientes,
  consentimentos,
  documentoVersoes,
  enviosEmail,
  mensagens,
  notificacoes,
  servicos,
  servicosTiposDocumentos,
  session,
  status,
  tiposDocumentos,
  tiposServicos,
  user,
} from '../../db/schema.ts'
import { ownCliente, ownServicos, type Actor } from '../../policy.ts'
import { iso, listMinhasSolicitacoes } from './privacidade.queries.ts'
import { arquivoDaChave } from '#shared/schemas/documentos.ts'

/** A document file of the export: where it is stored and its path inside the zip. */
export type ArquivoExportado = { caminho: string; nome_no_zip: string }

/**
 * Everything the portal holds about the actor (LGPD art. 18, II and V): the account, the client
 * record, the services with their dates, statuses, visible avisos, documents and condicionantes
 * (with their entregas), the e-mails
 * sent about them, the notifications and the requests. `arquivos` are the document files the
 * client sent or was given (visible to them), each under `documentos/` in the zip.
 */
export async function getExportacao(db: DbOrTx, actor: Actor) {
  const conta = await contaDoTitular(db, actor)
  const cadastro = await cadastroDoTitular(db, actor)
  const servicosRows = await servicosDoTitular(db, actor)
  const ids = servicosRows.map((s) => s.id)
  const avisosRows = await avisosVisiveis(db, ids)
  const condicionantesRows = await condicionantesVisiveis(db, ids)
  const mensagensRows = await mensagensVisiveis(db, ids)
  const versoes = await versoesVisiveis(db, ids)
  const envios = await enviosDosServicos(db, ids)
  const avisosDoApp = await notificacoesDoTitular(db, actor)
  const pedidos = await listMinhasSolicitacoes(db, actor)
  const eventos = await eventosDoTitular(db, actor)

  const proprios = new Set(
    [conta?.email, cadastro?.email].filter(Boolean).map((e) => e!.toLowerCase()),
  )
  const { documentos, arquivos } = documentosNoZip(versoes, servicosRows)
  const dados = {
    gerado_em: new Date().toISOString(),
    conta,
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
      // Each entrega's evidence by its file's name (the files themselves stay with the consultancy).
      condicionantes: condicionantesRows
        .filter((c) => c.servico_id === s.id)
        .map(({ servico_id: _, ...c }) => ({
          ...c,
          entregas: c.entregas.map((e) => ({
            ...e,
            evidencias: e.evidencias.map(({ caminho, ...v }) => ({
              arquivo: arquivoDaChave(caminho),
              ...v,
            })),
          })),
        })),
      // The conversation as the client reads it (never the consultancy's internal messages).
      mensagens: mensagensRows
        .filter((m) => m.servico_id === s.id)
        .map(({ servico_id: _, ...m }) => ({ ...m, criada_em: iso(m.criada_em) })),
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

/** The account with its accepted notices and its sessions (device, address, dates). */
async function contaDoTitular(db: DbOrTx, actor: Actor) {
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
  if (!conta) return null
  return {
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
}

/** The client record linked to the account. */
async function cadastroDoTitular(db: DbOrTx, actor: Actor) {
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
  return cadastro
}

/** The client's services, oldest first, with their type and status by name. */
function servicosDoTitular(db: DbOrTx, actor: Actor) {
  return db
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
}

/** The condicionantes of those services the client may see, each with its entregas. */
async function condicionantesVisiveis(db: DbOrTx, ids: string[]) {
  if (!ids.length) return []
  return rawRows<{
    servico_id: string
    item: string
    descricao: string
    tipo: string
    periodicidade: string | null
    intervalo_meses: number | null
    responsavel: string
    entregas: {
      data_prevista: string
      estado: string
      protocolo_orgao: string | null
      protocolado_em: string | null
      evidencias: {
        caminho: string
        sha256: string | null
        enviado_em: string
        comentario: string | null
        estado: string | null
        motivo: string | null
      }[]
    }[]
  }>(
    db,
    sql`select c.servico_id, c.item, c.descricao, c.tipo, c.periodicidade, c.intervalo_meses,
               c.responsavel,
               coalesce((select json_agg(json_build_object(
                   'data_prevista', e.data_prevista, 'estado', e.estado,
                   'protocolo_orgao', e.protocolo_orgao, 'protocolado_em', e.protocolado_em,
                   'evidencias', coalesce((select json_agg(json_build_object(
                       'caminho', v.caminho,
                       'sha256', v.sha256, 'enviado_em', v.created_at,
                       'comentario', v.comentario, 'estado', v.estado, 'motivo', v.motivo)
                       order by v.created_at, v.id)
                     from documento_versoes v where v.entrega_id = e.id), '[]'))
                   order by e.data_prevista)
                 from condicionantes_entregas e where e.condicionante_id = c.id), '[]') as entregas
        from condicionantes c
        where c.servico_id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}) and c.visivel_cliente
        order by c.created_at, c.id`,
  )
}

/** The messages of those services the client may read, with the names of their files. */
async function mensagensVisiveis(db: DbOrTx, ids: string[]) {
  if (!ids.length) return []
  return db
    .select({
      servico_id: mensagens.servico_id,
      autor: mensagens.autor_nome,
      lado: mensagens.lado,
      texto: mensagens.texto,
      criada_em: mensagens.created_at,
      editada: sql<boolean>`${mensagens.editada_em} is not null`,
      arquivos: sql<string[]>`coalesce((select json_agg(a.nome order by a.created_at)
        from mensagem_anexos a where a.mensagem_id = "mensagens"."id"), '[]'::json)`,
    })
    .from(mensagens)
    .where(and(inArray(mensagens.servico_id, ids), eq(mensagens.interna, false)))
    .orderBy(mensagens.created_at, mensagens.id)
}

/** The avisos of those services the client may see. */
async function avisosVisiveis(db: DbOrTx, ids: string[]) {
  if (!ids.length) return []
  return db
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
}

/** Every version of the documents of those services the client may see (theirs or given). */
async function versoesVisiveis(db: DbOrTx, ids: string[]) {
  if (!ids.length) return []
  return db
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
    .innerJoin(tiposDocumentos, eq(tiposDocumentos.id, servicosTiposDocumentos.tipo_documento_id))
    .where(
      and(
        inArray(servicosTiposDocumentos.servico_id, ids),
        eq(servicosTiposDocumentos.visivel_usuario, true),
      ),
    )
    .orderBy(documentoVersoes.created_at, documentoVersoes.id)
}

/** The e-mails sent about those services. */
async function enviosDosServicos(db: DbOrTx, ids: string[]) {
  if (!ids.length) return []
  return db
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
}

/** The account's notifications (the bell). */
function notificacoesDoTitular(db: DbOrTx, actor: Actor) {
  return db
    .select({
      titulo: notificacoes.titulo,
      link: notificacoes.link,
      criada_em: notificacoes.created_at,
      lida_em: notificacoes.read_at,
    })
    .from(notificacoes)
    .where(and(eq(notificacoes.user_id, actor.userId), notificacaoVisivel()))
    .orderBy(notificacoes.created_at)
}

/**
 * The audit events about them (their record, services or account): what happened and when,
 * which fields changed and the role that did it; not other people's e-mails or addresses, nor
 * the values of the consultancy's internal fields.
 */
function eventosDoTitular(db: DbOrTx, actor: Actor) {
  return db
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
}

/**
 * Each version as the JSON lists it, and its file's path in the zip: one folder per service
 * (its protocol), the file's own name, " (2)", " (3)"… when two share it.
 */
function documentosNoZip(
  versoes: Awaited<ReturnType<typeof versoesVisiveis>>,
  servicosRows: { id: string; protocolo: string | null }[],
) {
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
  return { documentos, arquivos }
}
