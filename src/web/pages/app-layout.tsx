import { AppShell } from '../components/app-shell.tsx'
import { RequireRole } from '../components/require-role.tsx'
import { AceiteAvisoGate } from '../features/conta/aceite-aviso.tsx'
import { NotificacoesSino } from '../features/notificacoes/notificacoes-sino.tsx'
import { useIgnorarArquivoSolto } from '../lib/soltar-arquivo.ts'
import { useAquecerRelogio } from '../lib/relogio.ts'

/**
 * The signed-in app's frame (`/app`): the guard, the acceptance of a newer privacy notice
 *, the shell and the bell. Loaded lazily by
 * `router.tsx`, so that `/auth` never downloads the shell, its menu and the bell's popover.
 */
export function AppLayout() {
  // A file dropped outside an upload box must not open in the tab and leave the screen.
  useIgnorarArquivoSolto()
  useAquecerRelogio()
  return (
    <RequireRole>
      {/* A newer privacy notice is accepted before entering the app. */}
      <AceiteAvisoGate>
        <AppShell headerActions={<NotificacoesSino />} />
      </AceiteAvisoGate>
    </RequireRole>
  )
}
