import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import type { Linha } from './auditoria.queries.ts'
import { formatDate, formatDateTime, isIsoTimestamp } from '#shared/datas.ts'
import { ROTULO_ETAPA, type Etapa } from '#shared/processo.ts'
import {
  ROTULO_ACAO,
  ROTULO_ENTIDADE,
  type AcaoAuditoria,
  type EntidadeAuditoria,
  type EventoAuditoriaItem,
} from '#shared/schemas/auditoria.ts'

/**
 * How an event reads in Portuguese ("Maria alterou Status de 'A' para 'B'"): the sentences of
 * the Auditoria screen and its CSV, of a service's Histórico and of the client's timeline, with
 * the catalogue ids they mention mapped to names at read time (`namesOf`).
 */

const CAMPO: Record<string, string> = {
  status_id: 'Status',
  protocolo: 'Protocolo',
  vigencia_inicio: 'Início da vigência',
  vigencia_fim: 'Fim da vigência',
  detalhes: 'Detalhes',
  anotacoes: 'Anotações',
  notificacao: 'Template de notificação',
  emails_interessados: 'E-mails interessados',
  emails_tecnicos: 'E-mails técnicos',
  tipo_servico_id: 'Tipo de serviço',
  tipo_documento_id: 'Tipo de documento',
  categoria_id: 'Categoria',
  nome: 'Nome',
  email: 'E-mail',
  documento: 'CPF/CNPJ',
  telefone: 'Telefone',
  celular: 'Celular',
  situacao: 'Situação',
  motivo: 'Motivo',
  visivel_cliente: 'Visível ao cliente',
  visivel_usuario: 'Visível ao cliente',
  oculto: 'Oculto',
  texto: 'Texto',
  data_limite: 'Data limite',
  concluido: 'Concluído',
  resolvido: 'Resolvido',
  role: 'Papel',
  ativo: 'Ativo',
  estado: 'Situação',
  prazo: 'Prazo',
  data_protocolo: 'Data do protocolo',
  numero_processo: 'Nº do processo no órgão',
  orgao_id: 'Órgão',
  etapa: 'Etapa',
  data: 'Data',
  nota_cliente: 'Nota para o cliente',
  decisao_prevista: 'Decisão prevista até',
  conselho: 'Conselho',
  registro: 'Nº de registro',
  art: 'Nº da ART/TRT',
  descricao: 'Descrição',
  recebida_em: 'Recebida em',
  respondida_em: 'Respondida em',
  protocolo_resposta: 'Protocolo da resposta',
  documentos_solicitados: 'Documentos solicitados',
  auditoria_dias: 'Registros de auditoria (dias)',
  envios_email_dias: 'Histórico de envios de e-mail (dias)',
  sessoes_dias: 'Sessões encerradas (dias)',
  contas_nao_confirmadas_dias: 'Contas não confirmadas (dias)',
  item: 'Item',
  tipo: 'Tipo',
  primeiro_prazo: 'Primeiro prazo',
  periodicidade: 'Periodicidade',
  intervalo_meses: 'A cada N meses',
  antecedencia_dias: 'Antecedência do aviso (dias)',
  responsavel: 'Responsável',
  protocolo_orgao: 'Nº do protocolo no órgão',
  protocolado_em: 'Protocolado em',
  arquivos: 'Arquivos da evidência',
  comentario: 'Comentário da evidência',
}

const SITUACAO: Record<string, string> = {
  enviado: 'Em análise',
  aprovado: 'Aprovado',
  rejeitado: 'Rejeitado',
  substituido: 'Substituído',
}

const ARTIGO: Record<string, string> = {
  servico: 'o serviço',
  cliente: 'o cliente',
  usuario: 'a conta',
  aviso: 'o aviso',
  documento: 'o documento',
  categoria: 'a categoria',
  status: 'o status',
  tipo_servico: 'o tipo de serviço',
  tipo_documento: 'o tipo de documento',
  regra_documento: 'a regra de documento',
  schedule: 'o schedule',
  empresa: 'os dados da empresa',
  solicitacao_lgpd: 'a solicitação LGPD',
  retencao: 'a retenção de dados',
  auditoria: 'a auditoria',
  renovacao: 'o protocolo da renovação de',
  condicionante: 'a condicionante',
  entrega: 'a entrega da condicionante',
  mensagem: 'a mensagem',
  orgao: 'o órgão ambiental',
  processo: 'o processo no órgão de',
  exigencia: 'a exigência do órgão de',
  calendario: 'o link do calendário de',
}

/** An erasure request's states (`solicitacoes_lgpd.estado`). */
const ESTADO_SOLICITACAO: Record<string, string> = {
  pendente: 'Pendente',
  recusada: 'Recusada',
  concluida: 'Concluída',
  // An entrega of a condicionante.
  em_analise: 'Em análise',
  cumprida: 'Cumprida',
  nao_se_aplica: 'Não se aplica',
}

export type Nomes = Map<string, string>
const ID_CHAVES = ['status_id', 'tipo_servico_id', 'tipo_documento_id', 'categoria_id', 'orgao_id']
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const isId = (v: unknown): v is string => typeof v === 'string' && UUID.test(v)

/**
 * The names of the ids the events mention, in one query: catalogue ids (status, types,
 * categories) by their name, a document's version (`versao_id`) as "versão N", N counted as
 * the document's Histórico counts its versions (oldest first).
 */
export async function namesOf(db: DbOrTx, linhas: Linha[]): Promise<Nomes> {
  const ids = new Set<string>()
  const versoes = new Set<string>()
  for (const l of linhas)
    for (const o of [l.antes, l.depois]) {
      for (const k of ID_CHAVES) if (isId(o?.[k])) ids.add(o[k] as string)
      if (isId(o?.versao_id)) versoes.add(o.versao_id)
    }
  if (!ids.size && !versoes.size) return new Map()
  const lista = (s: Set<string>) =>
    sql.join(
      [...s, '00000000-0000-0000-0000-000000000000'].map((i) => sql`${i}::uuid`),
      sql`, `,
    )
  const rows = await rawRows<{ id: string; nome: string }>(
    db,
    sql`select id::text, nome from status where id in (${lista(ids)})
        union all select id::text, tipo from tipos_servicos where id in (${lista(ids)})
        union all select id::text, tipo from tipos_documentos where id in (${lista(ids)})
        union all select id::text, nome from categorias where id in (${lista(ids)})
        union all select id::text, sigla from orgaos where id in (${lista(ids)})
        union all select id::text, 'versão ' || n from (
          select v.id, row_number() over (partition by v.documento_id
                                          order by v.created_at, v.atual, v.id) as n
            from documento_versoes v
           where v.documento_id in (select documento_id from documento_versoes
                                     where id in (${lista(versoes)}))
        ) x where id in (${lista(versoes)})`,
  )
  return new Map(rows.map((r) => [r.id, r.nome]))
}

function valor(chave: string, v: unknown, nomes: Nomes): string {
  if (v === null || v === undefined || v === '') return 'vazio'
  if (typeof v === 'boolean') return v ? 'Sim' : 'Não'
  if (Array.isArray(v)) return v.length ? v.map(String).join(', ') : 'vazio'
  if (typeof v === 'object') return '…'
  let s = String(v)
  if (ID_CHAVES.includes(chave)) s = nomes.get(s) ?? 'removido'
  else if (chave === 'situacao') s = SITUACAO[s] ?? s
  else if (chave === 'estado') s = ESTADO_SOLICITACAO[s] ?? s
  else if (chave === 'etapa') s = ROTULO_ETAPA[s as Etapa] ?? s
  else if (chave === 'role') s = s === 'admin' ? 'Administrador' : 'Cliente'
  else if (/^\d{4}-\d{2}-\d{2}$/.test(s)) s = formatDate(s)
  else if (isIsoTimestamp(s)) s = formatDateTime(s)
  return s.length > 80 ? `${s.slice(0, 77)}…` : s
}

/**
 * "Status de 'Em andamento' para 'Protocolado'; Protocolo de 'vazio' para 'X-1'". An id that is
 * not a catalogue's (a version, a request) never shows: a person cannot read it (a version is
 * named beside the document instead, `versao`).
 */
function mudancas(l: Linha, nomes: Nomes, so?: string[]) {
  const d = l.depois ?? {}
  const a = l.antes ?? {}
  return Object.keys(d)
    .filter((k) => !so || so.includes(k))
    .filter((k) => ID_CHAVES.includes(k) || (!isId(d[k]) && !isId(a[k])))
    .map((k) => `${CAMPO[k] ?? k} de '${valor(k, a[k], nomes)}' para '${valor(k, d[k], nomes)}'`)
    .join('; ')
}

/** " (versão 2)": the document's version an event names, when it names one still kept. */
function versao(l: Linha, nomes: Nomes) {
  const id = l.depois?.versao_id
  const nome = isId(id) ? nomes.get(id) : undefined
  return nome ? ` (${nome})` : ''
}

/** A message of a service's conversation: written, edited or deleted (its text in quotes). */
function descreverMensagem(l: Linha, ator: string) {
  const interna = (l.depois?.interna ?? l.antes?.interna) === true ? ' interna' : ''
  const texto = l.rotulo ? ` '${l.rotulo}'` : ''
  if (l.acao === 'criar') return `${ator} escreveu a mensagem${interna}${texto}`
  if (l.acao === 'alterar') return `${ator} editou a mensagem${texto}`
  if (l.acao === 'excluir') return `${ator} excluiu a mensagem${interna}${texto}`
  return `${ator}: ${ROTULO_ACAO[l.acao] ?? l.acao} da mensagem${texto}`
}

export function quem(l: Linha) {
  if (l.ator_nome) return l.ator_nome
  if (l.ator_email) return l.ator_email
  return l.ator_id ? 'Usuário removido' : 'Sistema'
}

/**
 * The event as a sentence. `noServico`: inside a service's Histórico, where "o serviço" goes
 * without saying.
 */
export function describeEvento(l: Linha, nomes: Nomes, noServico = false): string {
  const ator = quem(l)
  const alvo = `${ARTIGO[l.entidade] ?? l.entidade}${l.rotulo ? ` ${l.rotulo}` : ''}${versao(l, nomes)}`
  const d = l.depois ?? {}
  if (l.entidade === 'solicitacao_lgpd') return descreverSolicitacao(l, ator)
  if (l.entidade === 'renovacao') return descreverRenovacao(l, ator, nomes, noServico)
  if (l.entidade === 'mensagem') return descreverMensagem(l, ator)
  switch (l.acao) {
    case 'criar':
      // A document is created by sending its first version, and each upload is a new one.
      if (l.entidade === 'documento') return `${ator} enviou ${alvo}`
      return `${ator} criou ${alvo}`
    case 'alterar': {
      if (l.entidade === 'documento' && typeof d.situacao === 'string')
        return descreverRevisao(l, ator, alvo)
      const m = mudancas(l, nomes)
      if (noServico && l.entidade === 'servico') return `${ator} alterou ${m || 'o serviço'}`
      return `${ator} alterou ${alvo}${m ? `: ${m}` : ''}`
    }
    case 'excluir':
      return `${ator} excluiu ${alvo}`
    case 'ler':
      if (l.entidade === 'documento' && !l.entidade_id)
        return `${ator} consultou os documentos do serviço${l.rotulo && !noServico ? ` ${l.rotulo}` : ''}`
      if (noServico && l.entidade === 'servico') return `${ator} consultou o serviço`
      if (l.entidade === 'cliente' && !l.entidade_id)
        return `${ator} consultou a lista de clientes${filtros(d)}`
      if (l.entidade === 'auditoria') return `${ator} consultou a auditoria${filtros(d)}`
      return `${ator} consultou ${alvo}`
    case 'download':
      // The service's dossier: its approved documents and index in one zip.
      if (l.entidade === 'servico')
        return `${ator} baixou o dossiê do serviço${l.rotulo && !noServico ? ` ${l.rotulo}` : ''}`
      return `${ator} baixou ${alvo}`
    case 'email':
      return `${ator} enviou o e-mail${l.rotulo ? ` '${l.rotulo}'` : ''}`
    case 'entrar':
      return `${ator} entrou no portal`
    case 'sair':
      return `${ator} saiu do portal${encerradas(d.sessoes)}`
    case 'falha_entrada':
      return `Tentativa de entrada sem sucesso${l.ator_email ? ` com ${l.ator_email}` : ''}`
    case 'dois_fatores':
      return `${ator} ${d.ativo ? 'ativou' : 'desativou'} a verificação em duas etapas${l.rotulo ? ` de ${l.rotulo}` : ''}`
    case 'papel':
      return d.role === 'admin'
        ? `${ator} tornou ${l.rotulo ?? 'a conta'} administrador`
        : `${ator} removeu o papel de administrador de ${l.rotulo ?? 'a conta'}`
    case 'exportar':
      if (l.entidade === 'auditoria') return `${ator} exportou a auditoria em CSV${filtros(d)}`
      // "Exportar" of a list (the dashboard, the clients, the review queue, Meus Serviços).
      if (typeof d.lista === 'string')
        return `${ator} exportou ${d.lista} em ${String(d.formato).toUpperCase()}${filtros(d)}`
      return `${ator} exportou ${alvo}`
    case 'anonimizar':
      return `${ator} anonimizou ${alvo}`
    case 'senha':
      return d.via === 'link'
        ? `${ator} redefiniu a senha pelo link enviado por e-mail (todas as sessões encerradas)`
        : `${ator} alterou a senha${encerradas(d.sessoes_encerradas)}`
    case 'encerrar_sessoes':
      return d.outras
        ? `${ator} encerrou as outras sessões da conta${encerradas(d.sessoes)}`
        : `${ator} encerrou uma sessão`
    case 'falha_dois_fatores':
      return `Código ${d.codigo === 'recuperacao' ? 'de recuperação' : 'da verificação em duas etapas'} ${d.motivo === 'ja_usado' ? 'já usado' : 'incorreto'}${l.rotulo ? ` para ${l.rotulo}` : ''}`
    case 'redefinir_dois_fatores':
      return `${ator} redefiniu a senha e a verificação em duas etapas${l.rotulo ? ` de ${l.rotulo}` : ''} (npm run admin:reset-2fa)`
  }
}

/** A review: "Maria rejeitou o documento RG (versão 2): Ilegível", approved, or reopened. */
function descreverRevisao(l: Linha, ator: string, alvo: string): string {
  const d = l.depois ?? {}
  if (d.situacao === 'aprovado') return `${ator} aprovou ${alvo}`
  if (d.situacao === 'rejeitado')
    return `${ator} rejeitou ${alvo}${typeof d.motivo === 'string' && d.motivo ? `: ${d.motivo}` : ''}`
  if (d.situacao === 'enviado') return `${ator} reabriu a análise d${alvo}` // "do documento …"
  return `${ator} alterou ${alvo}: Situação de '${SITUACAO[String(l.antes?.situacao)] ?? 'vazio'}' para '${SITUACAO[d.situacao as string] ?? String(d.situacao)}'`
}

/** " (3 sessões encerradas)": how many sessions the event ended, when it says. */
const encerradas = (n: unknown) =>
  typeof n === 'number' ? ` (${n} ${n === 1 ? 'sessão encerrada' : 'sessões encerradas'})` : ''

const ROTULO_FILTRO: Record<string, string> = {
  busca: 'busca',
  de: 'de',
  ate: 'até',
  usuario: 'usuário',
  acao: 'ação',
  entidade: 'entidade',
}

/** " (busca 'maria', página 2)": the filters a read of a list used, when any. */
function filtros(d: Record<string, unknown>) {
  const partes = Object.entries(ROTULO_FILTRO)
    .filter(([k]) => typeof d[k] === 'string' && d[k] !== '')
    .map(([k, rotulo]) => {
      const v =
        k === 'acao'
          ? (ROTULO_ACAO[d[k] as AcaoAuditoria] ?? String(d[k]))
          : k === 'entidade'
            ? (ROTULO_ENTIDADE[d[k] as EntidadeAuditoria] ?? String(d[k]))
            : String(d[k])
      return `${rotulo} '${/^\d{4}-\d{2}-\d{2}$/.test(v) ? formatDate(v) : v.length > 60 ? `${v.slice(0, 57)}…` : v}'`
    })
  if (typeof d.pagina === 'number' && d.pagina > 1) partes.push(`página ${d.pagina}`)
  return partes.length ? ` (${partes.join(', ')})` : ''
}

/**
 * The renewal's protocol at the agency: "Maria registrou o protocolo da renovação (processo
 * 123/2026, protocolado em 10/03/2026)" or the fields a correction changed.
 */
function descreverRenovacao(l: Linha, ator: string, nomes: Nomes, noServico: boolean): string {
  const de = noServico || !l.rotulo ? '' : ` de ${l.rotulo}`
  const d = l.depois ?? {}
  if (l.acao === 'criar')
    return `${ator} registrou o protocolo da renovação${de} (processo ${valor('numero_processo', d.numero_processo, nomes)}, protocolado em ${valor('data_protocolo', d.data_protocolo, nomes)})`
  const m = mudancas(l, nomes)
  return `${ator} alterou o protocolo da renovação${de}${m ? `: ${m}` : ''}`
}

/** An erasure request (LGPD art. 18, VI): asked, refused with its reason, or carried out. */
function descreverSolicitacao(l: Linha, ator: string): string {
  const de = l.rotulo ? ` de ${l.rotulo}` : ''
  const estado = l.depois?.estado
  if (l.acao === 'criar') return `${ator} solicitou a exclusão dos dados${de}`
  if (estado === 'recusada') {
    const m = typeof l.depois?.motivo === 'string' ? l.depois.motivo : ''
    const motivo = m ? `: ${m.length > 200 ? `${m.slice(0, 197)}…` : m}` : ''
    return `${ator} recusou a solicitação de exclusão de dados${de}${motivo}`
  }
  if (estado === 'concluida') return `${ator} atendeu a solicitação de exclusão de dados${de}`
  return `${ator} alterou a solicitação de exclusão de dados${de}`
}

export const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString()

/** An event as the Auditoria screen lists it. */
export function item(l: Linha, nomes: Nomes): EventoAuditoriaItem {
  return {
    id: l.id,
    em: iso(l.em),
    ator: quem(l),
    ator_email: l.ator_email,
    ator_role: l.ator_role,
    ip: l.ip,
    acao: l.acao,
    entidade: l.entidade,
    entidade_id: l.entidade_id,
    rotulo: l.rotulo,
    servico_id: l.servico_id,
    cliente_id: l.cliente_id,
    descricao: describeEvento(l, nomes),
  }
}

/** The client's timeline: what happened to its service and documents, never who did it. */
export function describeEventoForCliente(l: Linha, nomes: Nomes): string {
  const doc = l.rotulo ? ` ${l.rotulo}` : ''
  if (l.entidade === 'servico' && l.acao === 'criar') return 'Serviço criado'
  if (l.entidade === 'servico')
    return `Status alterado ${mudancas(l, nomes, ['status_id']).replace(/^Status /, '')}`
  if (l.acao === 'criar') return `Você enviou o documento${doc}`
  const situacao = String(l.depois?.situacao ?? '')
  const motivo =
    typeof l.depois?.motivo === 'string' && l.depois.motivo ? `: ${l.depois.motivo}` : ''
  return `Documento${doc} ${situacao === 'aprovado' ? 'aprovado' : situacao === 'rejeitado' ? `rejeitado${motivo}` : `— ${SITUACAO[situacao] ?? situacao}`}`
}
