import { Leaf } from 'lucide-react'
import { Navigate, useNavigate } from 'react-router'
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import { signOut, useMe } from '../../lib/session.ts'
import { paths } from '../../paths.ts'
import { AtivarDoisFatores } from './dois-fatores.tsx'

/**
 * An administrator without the second factor lands here (RequireRole) before any
 * admin screen works, and enrols: password, QR code and key, recovery codes, first code.
 */
export function DoisFatoresPage() {
  const { data: me, isPending } = useMe()
  const navigate = useNavigate()
  if (isPending) return <CenteredSpinner label="Carregando..." />
  if (!me) return <Navigate to={paths.auth} replace />
  if (me.user.twoFactorEnabled) return <Navigate to={paths.app} replace />
  return (
    <main className="flex min-h-svh items-center justify-center bg-gradient-to-br from-emerald-50 via-background to-teal-50 p-4">
      <div className="w-full max-w-lg">
        <a href="/" className="mb-6 flex items-center justify-center gap-2 text-lg font-semibold">
          <span className="flex size-9 items-center justify-center rounded-lg bg-primary text-primary-foreground">
            <Leaf className="size-5" />
          </span>
          Portal do Cliente
        </a>
        <Card>
          <CardHeader>
            <h1 className="text-xl leading-none font-semibold">
              Ative a verificação em duas etapas
            </h1>
            <CardDescription>
              {me.role === 'admin'
                ? 'Contas de administrador precisam de um código do celular, além da senha, para acessar a administração.'
                : 'Proteja sua conta com um código do celular, além da senha.'}
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <AtivarDoisFatores onDone={() => navigate(paths.app, { replace: true })} />
            <button
              type="button"
              onClick={() => void signOut()}
              className="cursor-pointer justify-self-center text-sm text-muted-foreground hover:underline"
            >
              Sair
            </button>
          </CardContent>
        </Card>
      </div>
    </main>
  )
}
