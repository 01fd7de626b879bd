import { and, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { buscaTsquery, eachWord, likePattern, rawRows } from '../../db/sql-helpers.ts'
import { HttpError } from '../../errors.ts'
import { formatDate, formatDateTimeIn, isIsoTimestamp } from '#shared/datas.ts'
import {
  AUDITORIA_LIMITE_CONTAGEM,
  ROTULO_ACAO,
  ROTULO_ENTIDADE,
  type AcaoAuditoria,
  type AuditoriaFiltro,
  type AuditoriaPagina,
  type EventoAuditoriaItem,
  type Historico,
} from '#shared/schemas/auditoria.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'

/**
 * Issue 15: reading the audit trail: the Auditoria screen (filters, keyset pages, CSV), a
 * service's Histórico and the client's filtered timeline of its own service. Events are written
 * only by `registrarAuditoria` (db/auditoria.ts).
 */

type Linha = {
  id: string
  em: Date | string
  chave: string
  ator_id: string | null
  ator_nome: string | null
  ator_email: string | null
  ator_role: string | null
  ip: string | null
  user_agent: string | null
  acao: AcaoAuditoria
  entidade: string
  entidade_id: string | null
  rotulo: string | null
  servico_id: string | null
  cliente_id: string | null
  antes: Record<string, unknown> | null
  depois: Record<string, unknown> | null
}

// ---- keyset cursors: (em, id) of a row, em with its microseconds ----

type Cursor = { em: string; id: string }
const encode = (r: Pick<Linha, 'chave' | 'id'>) =>
  Buffer.from(`${r.chave}|${r.id}`).toString('base64url')

/** A cursor from the URL; anything we did not make is a 400, never a 500. */
function decode(raw: string): Cursor {
  const [em, id, ...rest] = Buffer.from(raw, 'base64url').toString('utf8').split('|')
  if (rest.length || !em || !isIsoTimestamp(em) || !/^[0-9]{1,18}$/.test(id ?? ''))
    throw new HttpError(400, 'Página inválida.')
  return { em, id }
}

// The page is taken from `auditoria` alone (its indexes walk (em, id) and stop at the limit);
// only those rows are then joined to the accounts for the actor's current name.
const COLUNAS = sql.raw(`a.id, a.em,
  to_char(a.em at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as chave,
  a.ator_id, a.ator_email, a.ator_role, a.ip, a.user_agent, a.acao,
  a.entidade, a.entidade_id, a.rotulo, a.servico_id::text as servico_id,
  a.cliente_id::text as cliente_id, a.antes, a.depois`)
const COM_NOME = sql.raw(`p.id::text as id, p.em, p.chave, p.ator_id, u.name as ator_nome,
  p.ator_email, p.ator_role, p.ip, p.user_agent, p.acao, p.entidade, p.entidade_id, p.rotulo,
  p.servico_id, p.cliente_id, p.antes, p.depois`)

/** The São Paulo day `d` starts at. */
const inicioDoDia = (d: string) => sql`(${d}::date::timestamp at time zone 'America/Sao_Paulo')`

function condicoes(f: Omit<AuditoriaFiltro, 'page' | 'after' | 'before'>): SQL[] {
  const conds: SQL[] = []
  if (f.de) conds.push(sql`a.em >= ${inicioDoDia(f.de)}`)
  if (f.ate)
    conds.push(sql`a.em < ((${f.ate}::date + 1)::timestamp at time zone 'America/Sao_Paulo')`)
  // Each word in the e-mail or the name, the name without accents (issue 18: every list search).
  const usuario = f.usuario
    ? eachWord(
        f.usuario,
        (w) =>
          sql`(a.ator_email ilike ${likePattern(w)} or a.ator_id in (select id from "user" where unaccent(name) ilike unaccent(${likePattern(w)})))`,
      )
    : undefined
  if (usuario) conds.push(usuario)
  if (f.acao) conds.push(sql`a.acao = ${f.acao}`)
  if (f.entidade) conds.push(sql`a.entidade = ${f.entidade}`)
  const tsq = buscaTsquery(f.q)
  if (tsq) conds.push(sql`a.termos @@ to_tsquery('simple', ${tsq})`)
  return conds
}

const onde = (conds: SQL[]) => (conds.length ? sql`where ${and(...conds)}` : sql``)

/**
 * One keyset page of `where`, newest first: after `after` (older), before `before` (newer), or
 * the first. Reads one row more to know whether another page follows.
 */
async function pagina(
  db: DbOrTx,
  conds: SQL[],
  pos: { after?: string; before?: string },
  limite: number,
) {
  const c = pos.after ? decode(pos.after) : pos.before ? decode(pos.before) : undefined
  const todas = [...conds]
  if (c && pos.after) todas.push(sql`(a.em, a.id) < (${c.em}::timestamptz, ${c.id}::bigint)`)
  if (c && pos.before) todas.push(sql`(a.em, a.id) > (${c.em}::timestamptz, ${c.id}::bigint)`)
  const ordem =
    pos.before && !pos.after
      ? sql.raw('a.em asc nulls first, a.id asc nulls first')
      : sql.raw('a.em desc nulls last, a.id desc nulls last')
  const linhas = await rawRows<Linha>(
    db,
    sql`select ${COM_NOME} from (
          select ${COLUNAS} from auditoria a ${onde(todas)} order by ${ordem} limit ${limite + 1}
        ) p left join "user" u on u.id = p.ator_id
        order by ${pos.before && !pos.after ? sql.raw('p.em asc, p.id asc') : sql.raw('p.em desc, p.id desc')}`,
  )
  const mais = linhas.length > limite
  const rows = linhas.slice(0, limite)
  if (pos.before && !pos.after) {
    rows.reverse()
    return {
      rows,
      next: rows.length ? encode(rows[rows.length - 1]) : null,
      prev: mais && rows.length ? encode(rows[0]) : null,
    }
  }
  return {
    rows,
    next: mais && rows.length ? encode(rows[rows.length - 1]) : null,
    prev: pos.after && rows.length ? encode(rows[0]) : null,
  }
}

// ---- how an event reads in Portuguese ----

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
  oculto: 'Oculto',
  texto: 'Texto',
  data_limite: 'Data limite',
  concluido: 'Concluído',
  resolvido: 'Resolvido',
  role: 'Papel',
  ativo: 'Ativo',
  estado: 'Situação',
  prazo: 'Prazo',
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
}

/** An erasure request's states (`solicitacoes_lgpd.estado`). */
const ESTADO_SOLICITACAO: Record<string, string> = {
  pendente: 'Pendente',
  recusada: 'Recusada',
  concluida: 'Concluída',
}

type Nomes = Map<string, string>
const ID_CHAVES = ['status_id', 'tipo_servico_id', 'tipo_documento_id', 'categoria_id']
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The names of the catalogue ids the events mention (status, types, categories), in one query. */
async function nomesDe(db: DbOrTx, linhas: Linha[]): Promise<Nomes> {
  const ids = new Set<string>()
  for (const l of linhas)
    for (const o of [l.antes, l.depois])
      for (const k of ID_CHAVES) {
        const v = o?.[k]
        if (typeof v === 'string' && UUID.test(v)) ids.add(v)
      }
  if (!ids.size) return new Map()
  const lista = sql.join(
    [...ids].map((i) => sql`${i}::uuid`),
    sql`, `,
  )
  const rows = await rawRows<{ id: string; nome: string }>(
    db,
    sql`select id::text, nome from status where id in (${lista})
        union all select id::text, tipo from tipos_servicos where id in (${lista})
        union all select id::text, tipo from tipos_documentos where id in (${lista})
        union all select id::text, nome from categorias where id in (${lista})`,
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
  else if (chave === 'role') s = s === 'admin' ? 'Administrador' : 'Cliente'
  else if (/^\d{4}-\d{2}-\d{2}$/.test(s)) s = formatDate(s)
  return s.length > 80 ? `${s.slice(0, 77)}…` : s
}

/** "Status de 'Em andamento' para 'Protocolado'; Protocolo de 'vazio' para 'X-1'". */
function mudancas(l: Linha, nomes: Nomes, so?: string[]) {
  const d = l.depois ?? {}
  const a = l.antes ?? {}
  return Object.keys(d)
    .filter((k) => !so || so.includes(k))
    .map((k) => `${CAMPO[k] ?? k} de '${valor(k, a[k], nomes)}' para '${valor(k, d[k], nomes)}'`)
    .join('; ')
}

function quem(l: Linha) {
  if (l.ator_nome) return l.ator_nome
  if (l.ator_email) return l.ator_email
  return l.ator_id ? 'Usuário removido' : 'Sistema'
}

/**
 * The event as a sentence. `noServico`: inside a service's Histórico, where "o serviço" goes
 * without saying.
 */
function descrever(l: Linha, nomes: Nomes, noServico = false): string {
  const ator = quem(l)
  const alvo = `${ARTIGO[l.entidade] ?? l.entidade}${l.rotulo ? ` ${l.rotulo}` : ''}`
  const d = l.depois ?? {}
  if (l.entidade === 'solicitacao_lgpd') return descreverSolicitacao(l, ator)
  switch (l.acao) {
    case 'criar':
      return `${ator} criou ${alvo}`
    case 'alterar': {
      const m = mudancas(l, nomes)
      if (noServico && l.entidade === 'servico') return `${ator} alterou ${m || 'o serviço'}`
      return `${ator} alterou ${alvo}${m ? `: ${m}` : ''}`
    }
    case 'excluir':
      return `${ator} excluiu ${alvo}`
    case 'ler':
      if (l.entidade === 'documento' && !l.entidade_id)
        return `${ator} consultou os documentos do serviço${l.rotulo ? ` ${l.rotulo}` : ''}`
      return `${ator} consultou ${alvo}`
    case 'download':
      return `${ator} baixou ${alvo}`
    case 'email':
      return `${ator} enviou o e-mail${l.rotulo ? ` '${l.rotulo}'` : ''}`
    case 'entrar':
      return `${ator} entrou no portal`
    case 'sair':
      return `${ator} saiu do portal`
    case 'falha_entrada':
      return `Tentativa de entrada sem sucesso${l.ator_email ? ` com ${l.ator_email}` : ''}`
    case 'dois_fatores':
      return `${ator} ${d.ativo ? 'ativou' : 'desativou'} a verificação em duas etapas${l.rotulo ? ` de ${l.rotulo}` : ''}`
    case 'papel':
      return d.role === 'admin'
        ? `${ator} tornou ${l.rotulo ?? 'a conta'} administrador`
        : `${ator} removeu o papel de administrador de ${l.rotulo ?? 'a conta'}`
    case 'exportar':
      return `${ator} exportou ${alvo}`
    case 'anonimizar':
      return `${ator} anonimizou ${alvo}`
  }
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

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString()

function item(l: Linha, nomes: Nomes): EventoAuditoriaItem {
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
    descricao: descrever(l, nomes),
  }
}

// ---- the Auditoria screen ----

/** At most AUDITORIA_LIMITE_CONTAGEM + 1 rows are counted: a bounded cost on any filter. */
async function contar(db: DbOrTx, conds: SQL[]) {
  const [{ n }] = await rawRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select 1 from auditoria a ${onde(conds)} limit ${AUDITORIA_LIMITE_CONTAGEM + 1}) x`,
  )
  return n
}

export async function listAuditoria(db: DbOrTx, f: AuditoriaFiltro): Promise<AuditoriaPagina> {
  const conds = condicoes(f)
  const [p, n] = await Promise.all([
    pagina(db, conds, { after: f.after, before: f.before }, PAGE_SIZE),
    contar(db, conds),
  ])
  const nomes = await nomesDe(db, p.rows)
  return {
    rows: p.rows.map((l) => item(l, nomes)),
    total: Math.min(n, AUDITORIA_LIMITE_CONTAGEM),
    total_limitado: n > AUDITORIA_LIMITE_CONTAGEM,
    page: f.page,
    page_size: PAGE_SIZE,
    next: p.next,
    prev: p.prev,
  }
}

const CSV_CABECALHO = [
  'Data',
  'Usuário',
  'E-mail',
  'Papel',
  'IP',
  'Navegador',
  'Ação',
  'Entidade',
  'Identificador',
  'Nome',
  'Descrição',
  'Antes',
  'Depois',
]

/** A CSV field: quoted, quotes doubled; a leading =+-@ neutralised (spreadsheet formulas). */
const campoCsv = (v: unknown) => {
  let s = v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v)
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`
  return `"${s.replace(/"/g, '""')}"`
}

/**
 * The filtered list as CSV (";"-separated, as spreadsheets in pt-BR read it), streamed: keyset
 * batches of 500, one batch in memory at a time.
 */
export async function* auditoriaCsv(
  db: DbOrTx,
  f: AuditoriaFiltro,
): AsyncGenerator<string, void, undefined> {
  const conds = condicoes(f)
  yield `\uFEFF${CSV_CABECALHO.map(campoCsv).join(';')}\r\n`
  let after: string | undefined
  for (;;) {
    const p = await pagina(db, conds, { after }, 500)
    const nomes = await nomesDe(db, p.rows)
    let bloco = ''
    for (const l of p.rows) {
      bloco +=
        [
          formatDateTimeIn(new Date(l.em)),
          quem(l),
          l.ator_email,
          l.ator_role,
          l.ip,
          l.user_agent,
          ROTULO_ACAO[l.acao],
          ROTULO_ENTIDADE[l.entidade as keyof typeof ROTULO_ENTIDADE] ?? l.entidade,
          l.entidade_id,
          l.rotulo,
          descrever(l, nomes),
          l.antes,
          l.depois,
        ]
          .map(campoCsv)
          .join(';') + '\r\n'
    }
    if (bloco) yield bloco
    if (!p.next) return
    after = p.next
  }
}

// ---- a service's Histórico ----

export const HISTORICO_PAGINA = 10

/** The administration's Histórico of a service: every event about it, newest first. */
export async function listHistoricoServico(
  db: DbOrTx,
  servicoId: string,
  after: string | undefined,
): Promise<Historico> {
  const p = await pagina(db, [sql`a.servico_id = ${servicoId}`], { after }, HISTORICO_PAGINA)
  const nomes = await nomesDe(db, p.rows)
  return {
    rows: p.rows.map((l) => ({
      id: l.id,
      em: iso(l.em),
      acao: l.acao,
      descricao: descrever(l, nomes, true),
    })),
    next: p.next,
  }
}

/**
 * The client's timeline of its own service: its creation, status changes, the client's own
 * uploads and the reviews of its documents. Never reads, internal notes, avisos or who did it.
 */
export async function listHistoricoCliente(
  db: DbOrTx,
  servicoId: string,
  userId: string,
  after: string | undefined,
): Promise<Historico> {
  const p = await pagina(
    db,
    [
      sql`a.servico_id = ${servicoId}`,
      sql`((a.entidade = 'servico' and a.acao = 'criar')
        or (a.entidade = 'servico' and a.acao = 'alterar' and a.depois ? 'status_id')
        or (a.entidade = 'documento' and a.acao = 'criar' and a.ator_id = ${userId})
        or (a.entidade = 'documento' and a.acao = 'alterar' and a.depois ? 'situacao'))`,
    ],
    { after },
    HISTORICO_PAGINA,
  )
  const nomes = await nomesDe(db, p.rows)
  return {
    rows: p.rows.map((l) => ({
      id: l.id,
      em: iso(l.em),
      acao: l.acao,
      descricao: descreverParaCliente(l, nomes),
    })),
    next: p.next,
  }
}

function descreverParaCliente(l: Linha, nomes: Nomes): string {
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
