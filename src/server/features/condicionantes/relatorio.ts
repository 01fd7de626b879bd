import { PassThrough, type Readable } from 'node:stream'
import { sql } from 'drizzle-orm'
import { recordAuditoria, type Origem } from '../../db/auditoria.ts'
import type { DbOrTx } from '../../db/client.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { livroEmStream } from '../../exportar/planilha.ts'
import { getEmpresa } from '../../mail/empresa.ts'
import { escreverCabecalho, linhasCabecalho, novoPdf } from '../../pdf/cabecalho.ts'
import { formatDate } from '#shared/datas.ts'
import type { Empresa } from '#shared/schemas/empresa.ts'
import { type Condicionante, type Entrega } from '#shared/schemas/condicionantes.ts'
import {
  ROTULO_RESPONSAVEL,
  ROTULO_SITUACAO,
  ROTULO_PERIODICIDADE,
} from '#shared/condicionantes.ts'
import { listCondicionantes } from './condicionantes.queries.ts'

// "Relatório de cumprimento de condicionantes" of one licence, in XLSX (exceljs' streaming
// writer) or PDF (pdfkit): the firm's "Dados da empresa" on top, then every condicionante and
// each of its entregas with dates, situation, protocol at the agency and its evidence files with
// their SHA-256; streamed to the reply.

export const TITULO_RELATORIO = 'Relatório de cumprimento de condicionantes'

export type FormatoRelatorio = 'xlsx' | 'pdf'

const periodicidade = (c: Condicionante) =>
  c.tipo === 'continua'
    ? 'Contínua (sem prazo)'
    : c.periodicidade === 'meses'
      ? `A cada ${c.intervalo_meses} meses`
      : c.periodicidade
        ? ROTULO_PERIODICIDADE[c.periodicidade]
        : ''

/**
 * The evidence of an entrega's last send (the one approved, or in review): each file's name with
 * its SHA-256, one a line.
 */
const evidencias = (e: Entrega) =>
  e.evidencias
    .filter((v) => v.atual)
    .map((v) => `${v.arquivo} (SHA-256: ${v.sha256 ?? '—'})`)
    .join('\n')

/** One line of the report per entrega (a continuous condicionante: one line without a date). */
function linhas(condicionantes: Condicionante[]) {
  return condicionantes.flatMap((c) => {
    const base = {
      item: c.item,
      descricao: c.descricao,
      periodicidade: periodicidade(c),
      responsavel: ROTULO_RESPONSAVEL[c.responsavel],
    }
    if (!c.entregas.length)
      return [
        { ...base, prazo: '', situacao: '', protocolo: '', protocolado_em: '', evidencias: '' },
      ]
    return c.entregas.map((e) => ({
      ...base,
      prazo: formatDate(e.data_prevista),
      situacao: ROTULO_SITUACAO[e.situacao],
      protocolo: e.protocolo_orgao ?? '',
      protocolado_em: e.protocolado_em ? formatDate(e.protocolado_em) : '',
      evidencias: evidencias(e),
    }))
  })
}

const COLUNAS = [
  { header: 'Item', key: 'item', width: 8 },
  { header: 'Descrição', key: 'descricao', width: 60 },
  { header: 'Periodicidade', key: 'periodicidade', width: 18 },
  { header: 'Responsável', key: 'responsavel', width: 14 },
  { header: 'Prazo', key: 'prazo', width: 12 },
  { header: 'Situação', key: 'situacao', width: 14 },
  { header: 'Nº do protocolo no órgão', key: 'protocolo', width: 24 },
  { header: 'Protocolado em', key: 'protocolado_em', width: 14 },
  { header: 'Evidências (arquivo e SHA-256)', key: 'evidencias', width: 80 },
] as const

/**
 * The report of a service (checked with `requireServico`): the client's has only the
 * condicionantes visible to them. Its download is recorded in the audit trail.
 */
export async function gerarRelatorio(
  db: DbOrTx,
  p: { servicoId: string; soVisiveis: boolean; formato: FormatoRelatorio; origem: Origem },
): Promise<{ stream: Readable; type: string; fileName: string }> {
  const [servico] = await rawRows<{
    cliente: string
    cliente_id: string
    tipo: string
    protocolo: string | null
    vigencia_inicio: string | null
    vigencia_fim: string | null
  }>(
    db,
    sql`select c.nome as cliente, c.id as cliente_id, t.tipo, s.protocolo,
               s.vigencia_inicio::text as vigencia_inicio, s.vigencia_fim::text as vigencia_fim
        from servicos s join clientes c on c.id = s.cliente_id
        join tipos_servicos t on t.id = s.tipo_servico_id
        where s.id = ${p.servicoId}`,
  )
  const empresa = await getEmpresa(db)
  const dados = linhas(await listCondicionantes(db, p.servicoId, { soVisiveis: p.soVisiveis }))
  await recordAuditoria(db, p.origem, {
    acao: 'download',
    entidade: 'condicionante',
    rotulo: TITULO_RELATORIO,
    servico_id: p.servicoId,
    cliente_id: servico.cliente_id,
    depois: { formato: p.formato, linhas: dados.length },
  })
  const cabecalho = linhasCabecalho(empresa, TITULO_RELATORIO, [
    `Cliente: ${servico.cliente}`,
    `Licença: ${servico.tipo}${servico.protocolo ? ` (${servico.protocolo})` : ''}`,
    `Vigência: ${formatDate(servico.vigencia_inicio)} a ${formatDate(servico.vigencia_fim)}`,
  ])
  const nome = `condicionantes-${servico.protocolo ?? p.servicoId}.${p.formato}`.replace(
    /[^A-Za-z0-9._-]/g,
    '-',
  )
  if (p.formato === 'xlsx')
    return {
      stream: xlsx(cabecalho, dados),
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      fileName: nome,
    }
  return { stream: pdf(empresa, cabecalho, dados), type: 'application/pdf', fileName: nome }
}

type Linha = ReturnType<typeof linhas>[number]

/** The workbook written row by row into the reply (exceljs' streaming writer). */
function xlsx(cabecalho: string[], dados: Linha[]): Readable {
  const out = new PassThrough()
  const livro = livroEmStream(out, cabecalho[0])
  const planilha = livro.addWorksheet('Condicionantes')
  planilha.columns = COLUNAS.map((c) => ({ key: c.key, width: c.width }))
  for (const [i, texto] of cabecalho.entries()) {
    const row = planilha.addRow([texto])
    if (i === 0 || i === 2) row.font = { bold: true, size: i === 0 ? 14 : 12 }
    row.commit()
  }
  planilha.addRow([]).commit()
  const titulos = planilha.addRow(COLUNAS.map((c) => c.header))
  titulos.font = { bold: true }
  titulos.commit()
  for (const l of dados) {
    const row = planilha.addRow(COLUNAS.map((c) => l[c.key]))
    row.getCell(2).alignment = { wrapText: true, vertical: 'top' }
    row.getCell(COLUNAS.length).alignment = { wrapText: true, vertical: 'top' }
    row.commit()
  }
  planilha.commit()
  livro.commit().catch((err: unknown) => out.destroy(err as Error))
  return out
}

/** The PDF, A4 landscape, drawn as it streams (pdfkit's document is the readable stream). */
function pdf(empresa: Empresa, cabecalho: string[], dados: Linha[]): Readable {
  const doc = novoPdf({ titulo: TITULO_RELATORIO, empresa, layout: 'landscape' })
  escreverCabecalho(doc, cabecalho, TITULO_RELATORIO)
  const larguras = [34, 170, 66, 60, 52, 56, 80, 56, 196]
  const linha = (valores: string[], negrito = false) => {
    doc.font(negrito ? 'Helvetica-Bold' : 'Helvetica').fontSize(8)
    const altura = Math.max(
      ...valores.map((v, i) => doc.heightOfString(v || ' ', { width: larguras[i] - 4 })),
    )
    if (doc.y + altura > doc.page.height - doc.page.margins.bottom) doc.addPage()
    const y = doc.y
    let x = doc.page.margins.left
    for (const [i, v] of valores.entries()) {
      doc.text(v, x, y, { width: larguras[i] - 4 })
      x += larguras[i]
    }
    doc.x = doc.page.margins.left
    doc.y = y + altura + 4
  }
  linha(
    COLUNAS.map((c) => c.header),
    true,
  )
  if (!dados.length) doc.text('Nenhuma condicionante cadastrada.')
  for (const l of dados) linha(COLUNAS.map((c) => l[c.key]))
  doc.end()
  return doc
}
