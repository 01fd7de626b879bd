import { useQuery } from '@tanstack/react-query'
import { useDeferredValue } from 'react'
import { useParams } from 'react-router'
import { CondicionantesServico } from '../features/condicionantes/condicionantes-servico.tsx'
import { HistoricoCard } from '../features/auditoria/historico-card.tsx'
import { documentosQuery } from '../features/documentos/api.ts'
import { MensagensCard } from '../features/mensagens/mensagens-card.tsx'
import { DocumentosPage } from '../features/documentos/documentos-page.tsx'
import { ProcessoClienteCard } from '../features/processos/processo-card.tsx'
import { RenovacaoClienteCard } from '../features/renovacoes/renovacao-card.tsx'

/**
 * The client's documents screen of a service (SPEC §2) with, below it, its renewal, its
 * condicionantes, its Mensagens and the service's timeline
 * (its creation, status changes, the client's uploads and the reviews). The cards below the
 * documents ask for their data once the documents have come (the same query as DocumentosPage's,
 * from the cache), in a deferred render after them: on a phone network the screen's content
 * comes first, in one request.
 */
export function DocumentosServicoPage() {
  const { servicoId = '' } = useParams()
  const { isSuccess } = useQuery(documentosQuery(servicoId))
  const below = useDeferredValue(isSuccess)
  return (
    <div className="grid min-w-0 gap-6">
      <DocumentosPage />
      {below && (
        <>
          <MensagensCard servicoId={servicoId} lado="cliente" />
          <ProcessoClienteCard servicoId={servicoId} />
          <RenovacaoClienteCard servicoId={servicoId} />
          <CondicionantesServico servicoId={servicoId} />
          <HistoricoCard servicoId={servicoId} cliente />
        </>
      )}
    </div>
  )
}
