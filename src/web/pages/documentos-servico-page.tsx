import { useParams } from 'react-router'
import { HistoricoCard } from '../features/auditoria/historico-card.tsx'
import { DocumentosPage } from '../features/documentos/documentos-page.tsx'
import { RenovacaoClienteCard } from '../features/renovacoes/renovacao-card.tsx'

/**
 * The client's documents screen of a service (SPEC §2) with, below it, the service's timeline
 * (its creation, status changes, the client's uploads and the reviews).
 */
export function DocumentosServicoPage() {
  const { servicoId = '' } = useParams()
  return (
    <div className="grid min-w-0 gap-6">
      <DocumentosPage />
      <RenovacaoClienteCard servicoId={servicoId} />
      <HistoricoCard servicoId={servicoId} cliente />
    </div>
  )
}
