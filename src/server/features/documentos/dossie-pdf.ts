import type { Readable } from 'node:stream'
import { escreverCabecalho, linhasCabecalho, novoPdf } from '../../pdf/cabecalho.ts'
import { formatDate, formatDateTime } from '#shared/datas.ts'
import { formatDocumento } from '#shared/documento.ts'
import { ROTULO_ETAPA } from '#shared/processo.ts'
import type { Empresa } from '#shared/schemas/empresa.ts'
import type { DocumentoDoDossie, ServicoDoDossie } from './dossie.queries.ts'

// "indice.pdf", the index of a service's dossier: the firm, the client, the service and its
// process at the agency, each document in the zip (version, dates, reviewer, SHA-256, its path in
// the zip) and the service's Histórico as the dossier's audience sees it.

export const TITULO_DOSSIE = 'Dossiê do serviço'
export const SEM_DOCUMENTOS = 'Nenhum documento aprovado neste serviço.'

export type IndiceDossie = {
  empresa: Empresa
  servico: ServicoDoDossie
  /** `ausente`: its stored file is missing, left out of the zip. */
  documentos: (DocumentoDoDossie & { caminho_no_zip: string; ausente?: boolean })[]
  historico: { rows: { em: string; descricao: string }[]; mais: boolean }
  /** The client's dossier names no staff member: the firm reviewed. */
  paraCliente: boolean
}

/** The index as a PDF stream (pdfkit's standard fonts; ended, so it closes properly). */
export function indiceDossiePdf(p: IndiceDossie): Readable {
  const { servico: s, empresa } = p
  const doc = novoPdf({ titulo: `${TITULO_DOSSIE} ${s.protocolo ?? s.tipo}`, empresa })
  escreverCabecalho(
    doc,
    linhasCabecalho(empresa, TITULO_DOSSIE, [
      `Cliente: ${s.cliente} (${formatDocumento(s.cliente_documento)})`,
      `Serviço: ${s.tipo}`,
      `Protocolo: ${s.protocolo ?? '-'}`,
      `Status: ${s.status ?? '-'}`,
      `Vigência: ${formatDate(s.vigencia_inicio)} a ${formatDate(s.vigencia_fim)}`,
    ]),
    TITULO_DOSSIE,
  )

  const secao = (titulo: string) =>
    doc.moveDown(0.5).font('Helvetica-Bold').fontSize(12).text(titulo).font('Helvetica').fontSize(9)

  if (s.etapa || s.numero_processo || s.orgao_sigla) {
    secao('Processo no órgão')
    doc.text(`Órgão: ${s.orgao_sigla ? `${s.orgao_sigla} — ${s.orgao_nome}` : '-'}`)
    doc.text(`Nº do processo no órgão: ${s.numero_processo ?? '-'}`)
    doc.text(`Data do protocolo: ${formatDate(s.data_protocolo)}`)
    if (s.etapa) doc.text(`Etapa: ${ROTULO_ETAPA[s.etapa]} desde ${formatDate(s.etapa_desde)}`)
    if (s.decisao_prevista) doc.text(`Decisão prevista até: ${formatDate(s.decisao_prevista)}`)
  }

  secao(`Documentos aprovados (${p.documentos.length})`)
  if (!p.documentos.length) doc.text(SEM_DOCUMENTOS)
  for (const d of p.documentos) {
    doc.moveDown(0.3).font('Helvetica-Bold').text(d.tipo, { continued: false })
    doc.font('Helvetica')
    const lado = d.enviado_por === 'admin' ? 'pela consultoria' : 'pelo cliente'
    const autor = p.paraCliente || !d.autor ? '' : ` (${d.autor})`
    doc.text(
      d.ausente
        ? `Arquivo: não incluído (não encontrado no armazenamento; fale com a consultoria)`
        : `Arquivo: ${d.caminho_no_zip}`,
    )
    doc.text(`Versão ${d.versao}, enviada ${lado}${autor} em ${formatDateTime(d.enviado_em)}`)
    if (d.enviado_por === 'cliente')
      doc.text(
        `Aprovada em ${formatDateTime(d.revisado_em)} por ${p.paraCliente ? empresa.nome : (d.revisor ?? 'usuário removido')}`,
      )
    doc.text('SHA-256: ', { continued: true })
    doc.font('Courier').text(d.sha256 ?? 'não registrado (arquivo anterior ao controle de versões)')
    doc.font('Helvetica')
  }

  secao('Histórico')
  if (!p.historico.rows.length) doc.text('Nenhum evento registrado.')
  if (p.historico.mais)
    doc.text('Os eventos mais antigos foram omitidos: seguem os mais recentes.').moveDown(0.3)
  for (const e of p.historico.rows) doc.text(`${formatDateTime(e.em)} — ${e.descricao}`)
  doc.end()
  return doc
}
