import { DocumentosEncontrados } from '../features/documentos/documentos-encontrados.tsx'
import { MensagensNaoLidas } from '../features/mensagens/nao-lidas.tsx'
import { DashboardGlobal } from '../features/servicos/dashboard-global.tsx'

const documentosEncontrados = (q: string) => <DocumentosEncontrados q={q} />
const mensagensNaoLidas = (servicoId: string, servicos: string[]) => (
  <MensagensNaoLidas servicoId={servicoId} servicos={servicos} />
)

/**
 * SPEC §2 Dashboard Global de Serviços (servicos), and under its search the documents the words
 * find (documentos); each service of the page with its unread messages (mensagens: one request
 * for the page's ids, beside the dashboard's read model, which it does not touch).
 */
export function DashboardGlobalPage() {
  return (
    <DashboardGlobal
      documentosEncontrados={documentosEncontrados}
      mensagensNaoLidas={mensagensNaoLidas}
    />
  )
}
