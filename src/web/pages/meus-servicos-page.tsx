import { AvisosAbertos } from '../features/avisos/avisos-abertos.tsx'
import { FaleComAConsultoria } from '../features/conta/fale-com-a-consultoria.tsx'
import { MeusServicos } from '../features/servicos/meus-servicos.tsx'

/**
 * SPEC §2 Meus Serviços, the client home (servicos) with each service's open avisos (avisos),
 * and how to reach the firm (conta).
 */
export function MeusServicosPage() {
  return (
    <>
      <MeusServicos avisosDoServico={(id) => <AvisosAbertos servicoId={id} />} />
      <FaleComAConsultoria />
    </>
  )
}
