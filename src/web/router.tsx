import { useEffect, type ReactNode } from 'react'
import { createBrowserRouter, type RouteObject } from 'react-router'
import { CenteredSpinner } from './components/ui/spinner.tsx'
import type { Role } from '#shared/schemas/conta.ts'

/** The landing page is a separate document (its own small bundle): leave the app for it. */
function ToLanding() {
  useEffect(() => window.location.replace('/'), [])
  return <CenteredSpinner />
}

/** The tab's title while a screen shows: "Meus Serviços · Portal do Cliente". */
function Titled({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Portal do Cliente`
  }, [title])
  return children
}

/** The route guard loads with the first /app screen (it needs the session query). */
const guard = () => import('./components/require-role.tsx')

/** A lazily loaded page with its title, behind the role guard. */
function page(
  path: string,
  title: string,
  role: Role,
  load: () => Promise<{ Component: React.ComponentType }>,
): RouteObject {
  return {
    path,
    lazy: async () => {
      const [{ Component }, { RequireRole }] = await Promise.all([load(), guard()])
      return {
        Component: () => (
          <Titled title={title}>
            <RequireRole role={role}>
              <Component />
            </RequireRole>
          </Titled>
        ),
      }
    },
  }
}

/**
 * Every screen is its own chunk (`lazy`): the first script holds the router, the query cache and
 * the toaster only. While a screen's chunk loads on the first visit, a spinner shows.
 */
const screens: RouteObject[] = [
  {
    path: '/auth',
    lazy: () =>
      import('./features/conta/auth-page.tsx').then((m) => ({
        Component: () => (
          <Titled title="Entrar">
            <m.AuthPage />
          </Titled>
        ),
      })),
  },
  {
    path: '/auth/redefinir-senha',
    lazy: () =>
      import('./features/conta/reset-password-page.tsx').then((m) => ({
        Component: () => (
          <Titled title="Redefinir senha">
            <m.ResetPasswordPage />
          </Titled>
        ),
      })),
  },
  {
    path: '/auth/verificacao-em-duas-etapas',
    lazy: () =>
      import('./features/conta/dois-fatores-page.tsx').then((m) => ({
        Component: () => (
          <Titled title="Verificação em duas etapas">
            <m.DoisFatoresPage />
          </Titled>
        ),
      })),
  },
  {
    // The shell, its menu and the bell load with the first /app screen, never on /auth.
    path: '/app',
    lazy: () => import('./pages/app-layout.tsx').then((m) => ({ Component: m.AppLayout })),
    children: [
      {
        index: true,
        lazy: () => guard().then((m) => ({ Component: m.AppIndexRedirect })),
      },
      page('usuario/dashboard', 'Meus Serviços', 'usuario', () =>
        import('./pages/meus-servicos-page.tsx').then((m) => ({
          Component: m.MeusServicosPage,
        })),
      ),
      page('solicitar-servico', 'Solicitar Serviço', 'usuario', () =>
        import('./pages/solicitar-servico-page.tsx').then((m) => ({
          Component: m.SolicitarServicoPage,
        })),
      ),
      page('meus-prazos', 'Meus prazos', 'usuario', () =>
        import('./pages/meus-prazos-page.tsx').then((m) => ({ Component: m.MeusPrazosPage })),
      ),
      page('meus-dados', 'Meus Dados', 'usuario', () =>
        import('./pages/meus-dados-page.tsx').then((m) => ({ Component: m.MeusDadosPage })),
      ),
      page('servico/:servicoId/documentos', 'Documentos Exigidos', 'usuario', () =>
        import('./pages/documentos-servico-page.tsx').then((m) => ({
          Component: m.DocumentosServicoPage,
        })),
      ),
      page('admin/servicos', 'Dashboard Global', 'admin', () =>
        import('./pages/dashboard-global-page.tsx').then((m) => ({
          Component: m.DashboardGlobalPage,
        })),
      ),
      page('admin/servico/:servicoId', 'Detalhes do Serviço', 'admin', () =>
        import('./pages/servico-detail-page.tsx').then((m) => ({
          Component: m.ServicoDetailPage,
        })),
      ),
      page('admin/documentos', 'Documentos para Análise', 'admin', () =>
        import('./features/documentos/fila-page.tsx').then((m) => ({
          Component: m.FilaDocumentosPage,
        })),
      ),
      page('admin/condicionantes', 'Condicionantes', 'admin', () =>
        import('./features/condicionantes/entregas-page.tsx').then((m) => ({
          Component: m.EntregasPage,
        })),
      ),
      page('admin/cadastros/clientes', 'Clientes', 'admin', () =>
        import('./pages/clientes-page.tsx').then((m) => ({
          Component: m.ClientesPage,
        })),
      ),
      page('admin/cadastros/categorias', 'Categorias', 'admin', () =>
        import('./features/cadastros/categorias-page.tsx').then((m) => ({
          Component: m.CategoriasPage,
        })),
      ),
      page('admin/cadastros/status', 'Status', 'admin', () =>
        import('./features/cadastros/status-page.tsx').then((m) => ({ Component: m.StatusPage })),
      ),
      page('admin/cadastros/tipos-servicos', 'Tipos de Serviços', 'admin', () =>
        import('./features/cadastros/tipos-servicos-page.tsx').then((m) => ({
          Component: m.TiposServicosPage,
        })),
      ),
      page('admin/cadastros/tipos-documentos', 'Tipos de Documentos', 'admin', () =>
        import('./features/cadastros/tipos-documentos-page.tsx').then((m) => ({
          Component: m.TiposDocumentosPage,
        })),
      ),
      page('admin/cadastros/schedules', 'Agendamentos de Avisos', 'admin', () =>
        import('./pages/schedules-page.tsx').then((m) => ({
          Component: m.SchedulesPage,
        })),
      ),
      page('admin/cadastros/orgaos', 'Órgãos Ambientais', 'admin', () =>
        import('./features/cadastros/orgaos-page.tsx').then((m) => ({
          Component: m.OrgaosPage,
        })),
      ),
      page('admin/regras-documentos', 'Regras de Documentos', 'admin', () =>
        import('./features/cadastros/regras-documentos-page.tsx').then((m) => ({
          Component: m.RegrasDocumentosPage,
        })),
      ),
      page('admin/calendario', 'Calendário', 'admin', () =>
        import('./pages/calendario-page.tsx').then((m) => ({ Component: m.CalendarioPage })),
      ),
      page('admin/auditoria', 'Auditoria', 'admin', () =>
        import('./pages/auditoria-page.tsx').then((m) => ({ Component: m.AuditoriaPage })),
      ),
      page('admin/meus-dados', 'Meus Dados', 'admin', () =>
        import('./pages/perfil-page.tsx').then((m) => ({
          Component: m.PerfilPage,
        })),
      ),
    ],
  },
  // SPEC §2: unknown paths redirect to /.
  { path: '*', element: <ToLanding /> },
]

const routes: RouteObject[] = [{ hydrateFallbackElement: <CenteredSpinner />, children: screens }]

export const router = createBrowserRouter(routes)
