import { z } from 'zod'

/** The formats of "Exportar" (every list): CSV for any spreadsheet, XLSX for Excel. */
export const FORMATOS_EXPORTACAO = ['csv', 'xlsx'] as const
export type FormatoExportacao = (typeof FORMATOS_EXPORTACAO)[number]

/** `?formato=` of an export: required, csv or xlsx. */
export const formatoExportacao = z.enum(FORMATOS_EXPORTACAO, {
  error: 'Formato inválido: use csv ou xlsx.',
})

export const ExportarQuerySchema = z.object({ formato: formatoExportacao })
