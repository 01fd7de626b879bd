import {
  BookOpenCheck,
  CalendarClock,
  ClipboardCheck,
  CalendarDays,
  ClipboardList,
  FileCheck2,
  FilePlus2,
  FileStack,
  FolderTree,
  Landmark,
  LayoutDashboard,
  Leaf,
  ListChecks,
  LogOut,
  PanelLeft,
  Tags,
  UserRound,
  Users,
  type LucideIcon,
  ScrollText,
} from 'lucide-react'
import { Dialog as DialogPrimitive } from 'radix-ui'
import { useCallback, useEffect, useState, type ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { NavLink, Outlet, useLocation } from 'react-router'
import { api } from '../lib/api.ts'
import { condicionantesKeys, documentosKeys } from '../lib/query-keys.ts'
import { signOut, useMe } from '../lib/session.ts'
import { cn } from '../lib/utils.ts'
import { paths } from '../paths.ts'
import { isAdmin } from '#shared/roles.ts'

type MenuItem = {
  label: string
  to: string
  icon: LucideIcon
  badge?: number
  /** What the badge counts ("3 aguardando análise"). */
  badgeTitle?: string
}

/** SPEC §2: the client menu, titled Menu Principal. */
const CLIENT_MENU: MenuItem[] = [
  { label: 'Meus Serviços', to: paths.usuario.dashboard, icon: ClipboardList },
  { label: 'Meus prazos', to: paths.usuario.meusPrazos, icon: CalendarDays },
  { label: 'Solicitar Serviço', to: paths.usuario.solicitarServico, icon: FilePlus2 },
  { label: 'Meus Dados', to: paths.usuario.meusDados, icon: UserRound },
]

/** SPEC §2: the admin menu, titled Administração. */
const ADMIN_MENU: MenuItem[] = [
  { label: 'Dashboard Global', to: paths.admin.servicos, icon: LayoutDashboard },
  { label: 'Documentos para Análise', to: paths.admin.documentos, icon: FileCheck2 },
  { label: 'Condicionantes', to: paths.admin.condicionantes, icon: ClipboardCheck },
  { label: 'Calendário', to: paths.admin.calendario, icon: CalendarDays },
  { label: 'Clientes', to: paths.admin.clientes, icon: Users },
  { label: 'Categorias', to: paths.admin.categorias, icon: FolderTree },
  { label: 'Status', to: paths.admin.status, icon: Tags },
  { label: 'Tipos de Serviços', to: paths.admin.tiposServicos, icon: BookOpenCheck },
  { label: 'Tipos de Documentos', to: paths.admin.tiposDocumentos, icon: FileStack },
  { label: 'Agendamentos de Avisos', to: paths.admin.schedules, icon: CalendarClock },
  { label: 'Regras de Documentos', to: paths.admin.regrasDocumentos, icon: ListChecks },
  { label: 'Órgãos Ambientais', to: paths.admin.orgaos, icon: Landmark },
  { label: 'Auditoria', to: paths.admin.auditoria, icon: ScrollText },
  { label: 'Meus Dados', to: paths.admin.meusDados, icon: UserRound },
]

const COOKIE = 'sidebar:state'
const COOKIE_MAX_AGE = 60 * 60 * 24 * 7 // SPEC §9: 7 days
const MOBILE_QUERY = '(max-width: 767px)' // SPEC §9: breakpoint 768 px

const readCookie = () =>
  document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${COOKIE}=`))
    ?.split('=')[1] !== 'false'

export function useIsMobile() {
  const [mobile, setMobile] = useState(() => window.matchMedia(MOBILE_QUERY).matches)
  useEffect(() => {
    const mq = window.matchMedia(MOBILE_QUERY)
    const onChange = () => setMobile(mq.matches)
    mq.addEventListener('change', onChange)
    return () => mq.removeEventListener('change', onChange)
  }, [])
  return mobile
}

/**
 * The authenticated layout: side menu, header and the page. `headerActions` sit in the header
 * before the account (the router passes the notifications bell: components never import features).
 */
export function AppShell({ headerActions }: { headerActions?: ReactNode } = {}) {
  const { data: me } = useMe()
  const isMobile = useIsMobile()
  const [open, setOpen] = useState(readCookie)
  const [openMobile, setOpenMobile] = useState(false)
  const location = useLocation()

  const toggle = useCallback(() => {
    if (isMobile) return setOpenMobile((v) => !v)
    setOpen((v) => {
      document.cookie = `${COOKIE}=${!v}; path=/; max-age=${COOKIE_MAX_AGE}; samesite=lax`
      return !v
    })
  }, [isMobile])

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() === 'b' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault()
        toggle()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [toggle])

  useEffect(() => setOpenMobile(false), [location.pathname])

  const admin = isAdmin(me?.role)
  // The documents waiting for review, on the menu (one indexed count, polled).
  const emAnalise = useQuery({
    queryKey: documentosKeys.contagem(),
    queryFn: () => api<{ total: number }>('/api/admin/documentos/contagem'),
    enabled: admin,
    refetchInterval: 60_000,
  })
  // The condicionantes' entregas late today, on the menu (one indexed count, polled).
  const atrasadas = useQuery({
    queryKey: condicionantesKeys.contagem(),
    queryFn: () => api<{ total: number }>('/api/admin/condicionantes/contagem'),
    enabled: admin,
    refetchInterval: 60_000,
  })
  const adminMenu = ADMIN_MENU.map((item) =>
    item.to === paths.admin.documentos
      ? {
          ...item,
          badge: emAnalise.data?.total,
          badgeTitle: `${emAnalise.data?.total} aguardando análise`,
        }
      : item.to === paths.admin.condicionantes
        ? {
            ...item,
            badge: atrasadas.data?.total,
            badgeTitle: `${atrasadas.data?.total} ${atrasadas.data?.total === 1 ? 'entrega atrasada' : 'entregas atrasadas'}`,
          }
        : item,
  )
  const menu = (collapsed: boolean, email?: string) => (
    <SideMenu
      title={admin ? 'Administração' : 'Menu Principal'}
      items={admin ? adminMenu : CLIENT_MENU}
      collapsed={collapsed}
      email={email}
    />
  )

  return (
    <div className="flex min-h-svh w-full bg-muted/30">
      {/* Keyboard users reach the screen without tabbing through the whole menu. */}
      <a
        href="#conteudo"
        className="sr-only rounded-md bg-background px-3 py-2 text-sm font-medium shadow-md focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
      >
        Pular para o conteúdo
      </a>
      {!isMobile && (
        <aside
          data-state={open ? 'expanded' : 'collapsed'}
          aria-label="Menu lateral"
          className={cn(
            'sticky top-0 h-svh shrink-0 border-r bg-sidebar text-sidebar-foreground transition-[width] duration-200',
            open ? 'w-[16rem]' : 'w-[3rem]',
          )}
        >
          {menu(!open)}
        </aside>
      )}
      {isMobile && (
        <DialogPrimitive.Root open={openMobile} onOpenChange={setOpenMobile}>
          <DialogPrimitive.Portal>
            <DialogPrimitive.Overlay
              data-testid="sidebar-overlay"
              className="fixed inset-0 z-40 bg-black/50"
            />
            <DialogPrimitive.Content
              aria-label="Menu lateral"
              aria-describedby={undefined}
              className="fixed inset-y-0 left-0 z-50 w-[18rem] border-r bg-sidebar text-sidebar-foreground shadow-xl"
            >
              <DialogPrimitive.Title className="sr-only">Menu lateral</DialogPrimitive.Title>
              {menu(false, me?.user.email)}
            </DialogPrimitive.Content>
          </DialogPrimitive.Portal>
        </DialogPrimitive.Root>
      )}
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b bg-background/95 px-3 backdrop-blur sm:px-4">
          <button
            type="button"
            onClick={toggle}
            aria-label="Alternar menu lateral"
            title="Alternar menu (Ctrl+B)"
            className="inline-flex size-9 cursor-pointer items-center justify-center rounded-md hover:bg-accent"
          >
            <PanelLeft className="size-5" />
          </button>
          <div className="min-w-0 flex-1">
            <p className="truncate text-base leading-tight font-semibold">Portal do Cliente</p>
            <p className="truncate text-xs text-muted-foreground">
              {admin ? 'Painel Administrativo' : 'Área do Cliente'}
            </p>
          </div>
          {me && headerActions}
          {me && (
            <div className="flex min-w-0 items-center gap-2">
              <span className="hidden max-w-[16rem] truncate text-sm text-muted-foreground sm:inline">
                {me.user.email}
              </span>
              <span
                aria-hidden
                title={me.user.email}
                className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground uppercase"
              >
                {me.user.email.charAt(0)}
              </span>
            </div>
          )}
        </header>
        <main
          id="conteudo"
          tabIndex={-1}
          className="mx-auto w-full max-w-7xl flex-1 p-4 outline-none sm:p-6"
        >
          <Outlet />
        </main>
      </div>
    </div>
  )
}

function SideMenu({
  title,
  items,
  collapsed,
  email,
}: {
  title: string
  items: MenuItem[]
  collapsed: boolean
  /** Shown above Sair in the phone drawer, where the header has no room for it. */
  email?: string
}) {
  const itemClass = (active: boolean) =>
    cn(
      'flex min-h-9 items-center gap-3 rounded-md px-2.5 py-1.5 text-sm transition-colors hover:bg-sidebar-accent hover:text-sidebar-accent-foreground',
      active && 'bg-sidebar-accent font-medium text-sidebar-accent-foreground',
      collapsed && 'justify-center px-0',
    )
  return (
    <nav aria-label={title} className="flex h-full flex-col">
      <div
        className={cn(
          'flex h-16 items-center gap-2 border-b px-3',
          collapsed && 'justify-center px-0',
        )}
      >
        <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground">
          <Leaf className="size-4" />
        </span>
        {!collapsed && <span className="truncate font-semibold">Portal do Cliente</span>}
      </div>
      <div className="flex-1 overflow-y-auto p-2">
        {!collapsed && (
          <p className="px-2.5 pt-2 pb-1 text-xs font-medium tracking-wide text-muted-foreground uppercase">
            {title}
          </p>
        )}
        <ul className="flex flex-col gap-1">
          {items.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                title={collapsed ? item.label : undefined}
                aria-label={collapsed ? item.label : undefined}
                className={({ isActive }) => itemClass(isActive)}
              >
                <item.icon className="size-4 shrink-0" />
                {/* A long label wraps instead of being cut ("Documentos para Análise" + badge). */}
                {!collapsed && (
                  <span data-testid="menu-label" className="min-w-0 leading-snug">
                    {item.label}
                  </span>
                )}
                {!collapsed && item.badge ? (
                  <span
                    aria-hidden
                    title={item.badgeTitle}
                    data-testid="menu-badge"
                    className="ml-auto shrink-0 rounded-full bg-primary px-1.5 text-xs leading-5 font-semibold text-primary-foreground tabular-nums"
                  >
                    {item.badge}
                  </span>
                ) : null}
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
      <div className="border-t p-2">
        {email && (
          <div className="mb-1 flex items-center gap-2 px-2.5 py-2">
            <span
              aria-hidden
              className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground uppercase"
            >
              {email.charAt(0)}
            </span>
            <span className="truncate text-sm text-muted-foreground">{email}</span>
          </div>
        )}
        <button
          type="button"
          onClick={() => void signOut()}
          title={collapsed ? 'Sair' : undefined}
          aria-label={collapsed ? 'Sair' : undefined}
          className={cn(itemClass(false), 'w-full cursor-pointer text-left')}
        >
          <LogOut className="size-4 shrink-0" />
          {!collapsed && <span>Sair</span>}
        </button>
      </div>
    </nav>
  )
}
