import { ChevronsRight, LogIn, Menu, Phone, X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { cn } from '../../lib/utils.ts'
import { contact, firm } from './landing-content.ts'

export const sectionLinks = [
  { href: '#inicio', label: 'Início' },
  { href: '#servicos', label: 'Serviços' },
  { href: '#por-que', label: 'Por que nos escolher' },
  { href: '#contato', label: 'Contato' },
] as const

export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-9 shrink-0', className)}>
      <defs>
        <linearGradient id="logo-bg" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#059669" />
          <stop offset="1" stopColor="#065f46" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill="url(#logo-bg)" />
      <path d="M9 20c0-7 6-11 14-11-1 8-5 14-12 14-1 0-2-1-2-3z" fill="#d1fae5" />
      <path
        d="M10 22c3-4 6-6 10-8"
        stroke="#047857"
        strokeWidth="1.6"
        fill="none"
        strokeLinecap="round"
      />
    </svg>
  )
}

export function Brand({ inverted = false }: { inverted?: boolean }) {
  return (
    <span className="flex items-center gap-2.5">
      <LogoMark />
      <span className="flex flex-col leading-tight">
        <span
          className={cn(
            'text-base font-bold tracking-tight',
            inverted ? 'text-white' : 'text-emerald-950',
          )}
        >
          {firm.name}
        </span>{' '}
        <span
          className={cn(
            'text-[0.625rem] font-medium tracking-[0.08em] whitespace-nowrap uppercase sm:text-[0.7rem] sm:tracking-[0.12em]',
            inverted ? 'text-emerald-200' : 'text-emerald-800',
          )}
        >
          {firm.tagline}
        </span>
      </span>
    </span>
  )
}

export function SiteHeader() {
  // SPEC §2: the anchor menu can be hidden or shown on desktop; on phones it lives in a panel.
  const [isDesktopNavVisible, setDesktopNavVisible] = useState(true)
  const [isMobileMenuOpen, setMobileMenuOpen] = useState(false)

  useEffect(() => {
    if (!isMobileMenuOpen) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMobileMenuOpen(false)
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [isMobileMenuOpen])

  return (
    <header className="sticky top-0 z-50 border-b border-emerald-900/10 bg-white/85 backdrop-blur-md supports-[backdrop-filter]:bg-white/70">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6 lg:px-8">
        <a
          href="#inicio"
          className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          title={`${firm.fullName}: início`}
        >
          <Brand />
        </a>

        <div className="ml-auto flex items-center gap-1.5">
          <nav
            id="menu-desktop"
            aria-label="Navegação principal"
            className={cn('hidden items-center gap-1', isDesktopNavVisible && 'md:flex')}
          >
            {sectionLinks.map((link) => (
              <a
                key={link.href}
                href={link.href}
                className="rounded-md px-3 py-2 text-sm font-medium text-slate-600 transition-colors outline-none hover:bg-emerald-50 hover:text-emerald-800 focus-visible:ring-[3px] focus-visible:ring-ring/50"
              >
                {link.label}
              </a>
            ))}
          </nav>

          <Button
            variant="ghost"
            size="icon"
            className="hidden text-slate-500 hover:text-emerald-800 md:inline-flex"
            aria-label={isDesktopNavVisible ? 'Ocultar menu' : 'Mostrar menu'}
            title={isDesktopNavVisible ? 'Ocultar menu' : 'Mostrar menu'}
            aria-expanded={isDesktopNavVisible}
            aria-controls="menu-desktop"
            onClick={() => setDesktopNavVisible((visible) => !visible)}
          >
            {isDesktopNavVisible ? <ChevronsRight /> : <Menu />}
          </Button>

          <Button asChild className="ml-1 h-9 rounded-full px-4">
            <a href="/auth">
              <LogIn />
              Login
            </a>
          </Button>

          <Button
            variant="ghost"
            size="icon"
            className="text-emerald-950 md:hidden"
            aria-label={isMobileMenuOpen ? 'Fechar menu' : 'Abrir menu'}
            aria-expanded={isMobileMenuOpen}
            aria-controls="menu-mobile"
            onClick={() => setMobileMenuOpen((open) => !open)}
          >
            {isMobileMenuOpen ? <X className="size-5" /> : <Menu className="size-5" />}
          </Button>
        </div>
      </div>

      {isMobileMenuOpen && (
        <div
          aria-hidden="true"
          className="absolute inset-x-0 top-full h-svh bg-emerald-950/40 backdrop-blur-[2px] md:hidden"
          onClick={() => setMobileMenuOpen(false)}
        />
      )}
      {isMobileMenuOpen && (
        <nav
          id="menu-mobile"
          aria-label="Menu"
          className="absolute inset-x-0 top-full border-b border-emerald-900/10 bg-white px-4 pt-2 pb-5 shadow-lg shadow-emerald-950/5 md:hidden"
        >
          <ul className="flex flex-col">
            {sectionLinks.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  onClick={() => setMobileMenuOpen(false)}
                  className="flex items-center justify-between rounded-lg px-3 py-3 text-base font-medium text-slate-700 outline-none hover:bg-emerald-50 hover:text-emerald-800 focus-visible:ring-[3px] focus-visible:ring-ring/50"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
          <div className="mt-3 grid gap-2 border-t border-emerald-900/10 pt-4">
            <Button asChild size="lg" className="w-full rounded-full">
              <a href="#contato" onClick={() => setMobileMenuOpen(false)}>
                Solicitar orçamento
              </a>
            </Button>
            <a
              href={contact.phoneHref}
              className="flex items-center justify-center gap-2 py-2 text-sm font-medium text-emerald-800"
            >
              <Phone className="size-4" aria-hidden="true" />
              {contact.phoneDisplay}
            </a>
          </div>
        </nav>
      )}
    </header>
  )
}
