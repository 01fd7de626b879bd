import { AvisosAbertos } from '../features/avisos/avisos-abertos.tsx'
import { FaleComAConsultoria } from '../features/conta/fale-com-a-consultoria.tsx'
import { MensagensNaoLidas } from '../features/mensagens/nao-lidas.tsx'
import { MeusServicos } from '../features/servicos/meus-servicos.tsx'

const avisosDoServico = (id: string) => <AvisosAbertos servicoId={id} />
const mensagensDoServico = (id: string, servicos: string[]) => (
  <MensagensNaoLidas servicoId={id} servicos={servicos} />
)

/**
 * SPEC §2 Meus Serviços, the client home (servicos) with each service's open avisos (avisos)
 * and unread messages (mensagens), and how to reach the firm (conta).
 */
export function MeusServicosPage() {
  return (
    <>
      <MeusServicos avisosDoServico={avisosDoServico} mensagensDoServico={mensagensDoServico} />
      <FaleComAConsultoria />
    </>
  )
}
