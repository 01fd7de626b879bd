import { DocumentosEncontrados } from '../features/documentos/documentos-encontrados.tsx'
import { DashboardGlobal } from '../features/servicos/dashboard-global.tsx'

/**
 * SPEC §2 Dashboard Global de Serviços (servicos), and under its search the documents the words
 * find (documentos).
 */
export function DashboardGlobalPage() {
  return <DashboardGlobal documentosEncontrados={(q) => <DocumentosEncontrados q={q} />} />
}
