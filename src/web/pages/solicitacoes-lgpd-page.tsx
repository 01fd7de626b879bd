import { PageHeader } from '../components/page-header.tsx'
import { RetencaoCard } from '../features/privacidade/retencao-card.tsx'
import { SolicitacoesLgpd } from '../features/privacidade/solicitacoes-lgpd.tsx'

/**
 * Issue 15: the clients' LGPD requests and the retention settings. Until the Auditoria screen
 * (/app/admin/auditoria) exists on this branch, they have this page of their own; the
 * integrator moves both sections there.
 */
export function SolicitacoesLgpdPage() {
  return (
    <>
      <PageHeader
        title="Solicitações LGPD"
        description="Pedidos de exclusão de dados dos clientes, com o prazo de resposta de 15 dias (LGPD, art. 19)."
      />
      <div className="grid gap-8">
        <SolicitacoesLgpd />
        <RetencaoCard />
      </div>
    </>
  )
}
