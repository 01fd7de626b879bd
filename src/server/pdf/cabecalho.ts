import PDFDocument from 'pdfkit'
import type { Empresa } from '#shared/schemas/empresa.ts'
import { formatDate, today } from '#shared/datas.ts'
import { textoPdf } from './texto.ts'

// The portal's PDFs (the condicionantes report, the service's dossier index): pdfkit with its
// standard fonts (Helvetica, WinAnsi: Portuguese accents included, nothing to embed), and the
// firm's "Dados da empresa" on top of each. Every text drawn or measured on them goes through
// `textoPdf` (characters those fonts lack replaced), here once for all their callers.

type Metodo = (...args: unknown[]) => unknown
const comTexto = (args: unknown[]) =>
  typeof args[0] === 'string' ? [textoPdf(args[0]), ...args.slice(1)] : args

/** `doc[nome]` with its first argument (the text) passed through `textoPdf`. */
function filtrar(doc: PDFKit.PDFDocument, nome: 'text' | 'heightOfString' | 'widthOfString') {
  const original = (doc[nome] as Metodo).bind(doc)
  ;(doc as unknown as Record<string, Metodo>)[nome] = (...args) => original(...comTexto(args))
}

/** A new A4 PDF titled `titulo`, by the firm: the caller draws it and calls `end()`. */
export function novoPdf(p: {
  titulo: string
  empresa: Empresa
  layout?: 'portrait' | 'landscape'
}) {
  const doc = new PDFDocument({ size: 'A4', layout: p.layout ?? 'portrait', margin: 36 })
  doc.info.Title = p.titulo
  doc.info.Author = p.empresa.nome
  filtrar(doc, 'text')
  filtrar(doc, 'heightOfString')
  filtrar(doc, 'widthOfString')
  return doc
}

/**
 * The header's lines: the firm's name, its address and contacts, the title, then `linhas` (the
 * client, the licence…) and the day it was issued.
 */
export function linhasCabecalho(empresa: Empresa, titulo: string, linhas: string[]) {
  return [
    empresa.nome,
    [empresa.endereco, empresa.telefone, empresa.email].filter(Boolean).join(' · '),
    titulo,
    ...linhas,
    `Emitido em ${formatDate(today())}`,
  ].filter(Boolean)
}

/** Draws the header (`linhasCabecalho`): the firm's name large, the title bold, the rest small. */
export function escreverCabecalho(doc: PDFKit.PDFDocument, cabecalho: string[], titulo: string) {
  doc.font('Helvetica-Bold').fontSize(14).text(cabecalho[0])
  doc.font('Helvetica').fontSize(9)
  for (const texto of cabecalho.slice(1)) {
    if (texto === titulo) doc.moveDown(0.5).font('Helvetica-Bold').fontSize(12)
    doc.text(texto)
    doc.font('Helvetica').fontSize(9)
  }
  doc.moveDown()
}
