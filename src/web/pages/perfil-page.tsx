import { Perfil } from '../features/conta/perfil.tsx'
import { NotificacoesCard } from '../features/notificacoes/notificacoes-card.tsx'

/** SPEC §2 admin profile (conta) with the e-mail choices of the notifications (notificacoes). */
export function PerfilPage() {
  return <Perfil extra={<NotificacoesCard />} />
}
