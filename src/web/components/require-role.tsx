import type { ReactNode } from 'react'
import { Navigate } from 'react-router'
import { useMe } from '../lib/session.ts'
import { paths } from '../paths.ts'
import { CenteredSpinner } from './ui/spinner.tsx'
import type { Role } from '#shared/schemas/conta.ts'

/**
 * SPEC §2 route guard: a centred spinner while loading; no user → /auth; a role that is not
 * exactly the required one → /app; an administrator without the second factor → its enrolment.
 * There is no role hierarchy.
 */
export function RequireRole({ role, children }: { role?: Role; children: ReactNode }) {
  const { data: me, isPending, isError } = useMe()
  if (isPending) return <CenteredSpinner label="Carregando..." />
  if (isError || !me) return <Navigate to={paths.auth} replace />
  if (role && me.role !== role) return <Navigate to={paths.app} replace />
  // No admin screen before the administrator has enrolled in the second factor.
  if (role === 'admin' && !me.user.twoFactorEnabled)
    return <Navigate to={paths.ativarDoisFatores} replace />
  return children
}

/** SPEC §2: /app index sends an admin to the global dashboard, anyone else to Meus Serviços. */
export function AppIndexRedirect() {
  const { data: me } = useMe()
  return (
    <Navigate to={me?.role === 'admin' ? paths.admin.servicos : paths.usuario.dashboard} replace />
  )
}
