import { AdminMeusDadosPage as AdminMeusDados } from '../features/conta/admin-meus-dados-page.tsx'
import { NotificacoesCard } from '../features/notificacoes/notificacoes-card.tsx'

/** SPEC §2 admin profile (conta) with the e-mail choices of the notifications (notificacoes). */
export function AdminMeusDadosPage() {
  return <AdminMeusDados extra={<NotificacoesCard />} />
}
