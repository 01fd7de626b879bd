import { Mail, MapPin, Phone } from 'lucide-react'
import { cities, contact, firm } from './landing-content.ts'
import { Brand, sectionLinks } from './site-header.tsx'

export function SiteFooter() {
  const year = new Date().getFullYear()

  return (
    <footer className="bg-emerald-950 text-emerald-100/80">
      <div className="mx-auto grid max-w-7xl grid-cols-2 gap-x-6 gap-y-12 px-4 py-16 sm:px-6 lg:grid-cols-[1.25fr_0.8fr_1fr_1.4fr] lg:gap-12 lg:px-8">
        <div className="col-span-2 lg:col-span-1">
          <Brand inverted />
          <p className="mt-5 max-w-xs text-sm leading-relaxed">
            Licenciamento, outorgas, estudos e gestão ambiental há mais de 17 anos em{' '}
            {firm.coastalCity} e no norte do {firm.state}.
          </p>
        </div>

        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white">Navegação</h2>
          <ul className="mt-4 space-y-2.5 text-sm">
            {sectionLinks.map((link) => (
              <li key={link.href}>
                <a href={link.href} className="transition-colors hover:text-white">
                  {link.label}
                </a>
              </li>
            ))}
            <li>
              <a href="/auth" className="transition-colors hover:text-white">
                Portal do cliente
              </a>
            </li>
          </ul>
        </div>

        <div>
          <h2 id="cidades-titulo" className="text-sm font-semibold tracking-wide text-white">
            Cidades atendidas
          </h2>
          <ul aria-labelledby="cidades-titulo" className="mt-4 space-y-2.5 text-sm">
            {cities.map((city) => (
              <li key={city} className="flex items-center gap-2">
                <span className="size-1.5 rounded-full bg-emerald-400" aria-hidden="true" />
                {city}
              </li>
            ))}
          </ul>
        </div>

        <div className="col-span-2 lg:col-span-1">
          <h2 className="text-sm font-semibold tracking-wide text-white">Contato</h2>
          <address className="mt-4 space-y-3.5 text-sm not-italic">
            <a
              href={contact.phoneHref}
              className="flex items-center gap-3 transition-colors hover:text-white"
            >
              <Phone className="size-4 shrink-0 text-emerald-400" aria-hidden="true" />
              {contact.phoneDisplay}
            </a>
            <a
              href={`mailto:${contact.email}`}
              className="flex items-center gap-3 [overflow-wrap:anywhere] transition-colors hover:text-white"
            >
              <Mail className="size-4 shrink-0 text-emerald-400" aria-hidden="true" />
              {contact.email}
            </a>
            <p className="flex gap-3">
              <MapPin className="mt-0.5 size-4 shrink-0 text-emerald-400" aria-hidden="true" />
              <span>
                {contact.addressLines.map((line) => (
                  <span key={line} className="block">
                    {line}
                  </span>
                ))}
              </span>
            </p>
          </address>
        </div>
      </div>

      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-6 text-xs text-emerald-100/60 sm:flex-row sm:items-center sm:justify-between sm:px-6 lg:px-8">
          <p>
            © {year} {firm.fullName}. Todos os direitos reservados.
          </p>
          <p className="flex flex-wrap gap-x-4 gap-y-1">
            <a href="/privacidade" className="underline-offset-2 hover:text-white hover:underline">
              Política de Privacidade
            </a>
            <a href="/termos" className="underline-offset-2 hover:text-white hover:underline">
              Termos de Uso
            </a>
            <span>Consultoria ambiental · {firm.state}</span>
          </p>
        </div>
      </div>
    </footer>
  )
}
