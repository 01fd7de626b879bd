/** A service waiting for the client's documents: some missing, or one rejected to send again. */
export const aguardaDocumentos = (s: {
  documentos_enviados: number
  documentos_exigidos: number
  documentos_rejeitados: number
}) => s.documentos_enviados < s.documentos_exigidos || s.documentos_rejeitados > 0
