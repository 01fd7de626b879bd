import { MeusAvisosDoServico } from '../features/avisos/meus-avisos.tsx'
import { MeusServicosPage as MeusServicos } from '../features/servicos/meus-servicos-page.tsx'

/** SPEC §2 Meus Serviços, the client home (servicos) with each service's open avisos (avisos). */
export function MeusServicosPage() {
  return <MeusServicos avisosDoServico={(id) => <MeusAvisosDoServico servicoId={id} />} />
}
