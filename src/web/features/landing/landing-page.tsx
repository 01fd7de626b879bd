import { ArrowRight, BadgeCheck, CalendarClock, Check, Leaf, MessageCircle } from 'lucide-react'
import { Button } from '../../components/ui/button.tsx'
import { cn } from '../../lib/utils.ts'
import { ContactSection } from './contact-section.tsx'
import { firm, hero, reasons, serviceGroups, team } from './landing-content.ts'
import { ContourLines, SectionHeading } from './landing-ui.tsx'
import { SiteFooter } from './site-footer.tsx'
import { SiteHeader } from './site-header.tsx'

export function LandingPage() {
  return (
    <div className="flex min-h-svh flex-col bg-background">
      <a
        href="#conteudo"
        className="sr-only z-[60] rounded-md bg-white px-4 py-2 text-sm font-medium text-emerald-900 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Pular para o conteúdo
      </a>
      <SiteHeader />
      <main id="conteudo" className="flex-1">
        <HeroSection />
        <ServicesSection />
        <WhySection />
        <ContactSection />
      </main>
      <SiteFooter />
    </div>
  )
}

function HeroIllustration() {
  return (
    <div className="relative mx-auto w-full max-w-md lg:max-w-none" aria-hidden="true">
      <div className="absolute -inset-4 rounded-[2rem] bg-gradient-to-tr from-emerald-400/25 to-teal-300/10 blur-2xl" />
      <div className="relative overflow-hidden rounded-[1.75rem] shadow-2xl ring-1 shadow-emerald-950/40 ring-white/15">
        <svg viewBox="0 0 480 400" className="block h-auto w-full">
          <defs>
            <linearGradient id="hero-sky" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0" stopColor="#ecfdf5" />
              <stop offset="1" stopColor="#a7f3d0" />
            </linearGradient>
            <linearGradient id="hero-river" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0" stopColor="#7dd3fc" />
              <stop offset="1" stopColor="#0ea5e9" />
            </linearGradient>
            <linearGradient id="hero-front" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0" stopColor="#047857" />
              <stop offset="1" stopColor="#064e3b" />
            </linearGradient>
          </defs>
          <rect width="480" height="400" fill="url(#hero-sky)" />
          <circle cx="360" cy="112" r="44" fill="#fef3c7" />
          <circle cx="360" cy="112" r="30" fill="#fde68a" />
          <path d="M0 232 C 70 180 140 170 220 206 S 380 170 480 196 V400 H0Z" fill="#6ee7b7" />
          <path d="M0 268 C 90 226 170 236 250 262 S 400 232 480 248 V400 H0Z" fill="#34d399" />
          <path
            d="M0 306 C 120 280 200 296 300 312 S 420 296 480 300 V400 H0Z"
            fill="url(#hero-front)"
          />
          <path
            d="M238 262 C 226 290 262 300 240 330 S 196 372 214 400 H 288 C 270 368 318 346 300 318 S 256 286 262 262Z"
            fill="url(#hero-river)"
            opacity="0.95"
          />
          <g fill="#065f46">
            <path d="M72 252 l12 -34 l12 34z" />
            <path d="M92 258 l10 -28 l10 28z" />
            <path d="M118 246 l13 -38 l13 38z" />
            <path d="M392 236 l12 -32 l12 32z" />
            <path d="M414 242 l9 -26 l9 26z" />
          </g>
          <g fill="#064e3b">
            <circle cx="40" cy="300" r="16" />
            <circle cx="62" cy="306" r="12" />
            <circle cx="420" cy="300" r="15" />
            <circle cx="444" cy="306" r="11" />
          </g>
          <g fill="#ffffff" opacity="0.85">
            <path d="M96 150 a18 18 0 0 1 34 -8 a14 14 0 0 1 24 10 h-58z" />
            <path d="M250 92 a14 14 0 0 1 26 -6 a11 11 0 0 1 19 8 h-45z" opacity="0.7" />
          </g>
        </svg>
      </div>

      <div className="absolute top-6 -left-3 flex items-center gap-3 rounded-2xl bg-white/95 px-4 py-3 shadow-xl ring-1 shadow-emerald-950/20 ring-emerald-900/5 sm:-left-8">
        <span className="flex size-9 items-center justify-center rounded-full bg-emerald-100 text-emerald-700">
          <BadgeCheck className="size-5" />
        </span>
        <span className="flex flex-col">
          <span className="text-sm font-semibold text-emerald-950">Licença de Operação</span>
          <span className="text-xs text-slate-500">Emitida e em vigor</span>
        </span>
      </div>

      <div className="absolute -right-3 bottom-6 flex items-center gap-3 rounded-2xl bg-white/95 px-4 py-3 shadow-xl ring-1 shadow-emerald-950/20 ring-emerald-900/5 sm:-right-6 lg:-right-4">
        <span className="flex size-9 items-center justify-center rounded-full bg-amber-100 text-amber-700">
          <CalendarClock className="size-5" />
        </span>
        <span className="flex flex-col">
          <span className="text-sm font-semibold text-emerald-950">Renovação agendada</span>
          <span className="text-xs text-slate-500">Aviso 120 dias antes do vencimento</span>
        </span>
      </div>
    </div>
  )
}

function HeroSection() {
  return (
    <section
      id="inicio"
      aria-label="Início"
      className="relative scroll-mt-16 overflow-hidden bg-gradient-to-br from-emerald-950 via-emerald-900 to-teal-900 text-white"
    >
      <ContourLines className="pointer-events-none absolute inset-0 h-full w-full text-white/[0.07]" />
      <div className="pointer-events-none absolute -top-40 -right-32 size-[32rem] rounded-full bg-emerald-500/20 blur-3xl" />
      <div className="pointer-events-none absolute -bottom-48 -left-40 size-[28rem] rounded-full bg-teal-400/10 blur-3xl" />

      <div className="relative mx-auto grid max-w-7xl items-center gap-14 px-4 pt-14 pb-20 sm:px-6 sm:pt-20 lg:grid-cols-[1.15fr_0.85fr] lg:gap-14 lg:px-8 lg:pt-16 lg:pb-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-emerald-300/25 bg-emerald-400/10 px-3.5 py-1.5 text-xs font-medium text-emerald-100 sm:text-sm">
            <Leaf className="size-4 text-emerald-300" aria-hidden="true" />
            {hero.eyebrow}
          </p>
          <h1 className="mt-6 text-[2.5rem] leading-[1.08] font-bold tracking-tight text-balance sm:text-5xl xl:text-[3.25rem] xl:leading-[1.06]">
            {hero.title}
          </h1>
          <p className="mt-5 max-w-xl text-base leading-relaxed text-pretty text-emerald-50/80 sm:text-lg">
            {hero.subtitle}
          </p>

          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Button
              asChild
              size="lg"
              className="h-12 rounded-full bg-emerald-400 px-7 text-emerald-950 shadow-lg shadow-emerald-950/30 hover:bg-emerald-300"
            >
              <a href="#contato">
                <MessageCircle />
                Solicitar orçamento
              </a>
            </Button>
            <Button
              asChild
              size="lg"
              variant="outline"
              className="h-12 rounded-full border-white/25 bg-white/5 px-7 text-white hover:bg-white/10 hover:text-white"
            >
              <a href="#servicos">
                Conheça nossos serviços
                <ArrowRight />
              </a>
            </Button>
          </div>

          <dl className="mt-10 grid max-w-lg grid-cols-3 divide-x divide-white/10 rounded-2xl border border-white/10 bg-white/[0.04] py-5 backdrop-blur-sm">
            {hero.stats.map((stat) => (
              <div key={stat.label} className="flex flex-col items-center gap-1 px-2 text-center">
                <dt className="order-last text-xs leading-snug text-emerald-100/75 sm:text-sm">
                  {stat.label}
                </dt>
                <dd className="text-3xl font-bold tracking-tight text-white sm:text-4xl">
                  {stat.value}
                </dd>
              </div>
            ))}
          </dl>
        </div>

        <HeroIllustration />
      </div>
    </section>
  )
}

function ServicesSection() {
  return (
    <section id="servicos" aria-label="Serviços" className="scroll-mt-16 py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading eyebrow="Serviços" title="Soluções completas em consultoria ambiental">
          Do primeiro estudo à renovação da licença, conduzimos cada etapa com rigor técnico e
          atenção aos prazos dos órgãos ambientais.
        </SectionHeading>

        <div className="mt-14 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {serviceGroups.map((group) => (
            <article
              key={group.title}
              aria-labelledby={`servico-${slug(group.title)}`}
              className="group flex flex-col rounded-2xl border border-emerald-900/10 bg-card p-7 shadow-sm shadow-emerald-950/5 transition duration-300 hover:-translate-y-1 hover:border-emerald-600/25 hover:shadow-xl hover:shadow-emerald-950/10"
            >
              <span className="flex size-12 items-center justify-center rounded-xl bg-gradient-to-br from-emerald-50 to-emerald-100 text-emerald-700 ring-1 ring-emerald-600/10 transition-colors group-hover:from-emerald-600 group-hover:to-emerald-700 group-hover:text-white">
                <group.icon className="size-6" aria-hidden="true" />
              </span>
              <h3
                id={`servico-${slug(group.title)}`}
                className="mt-5 text-lg font-semibold text-emerald-950"
              >
                {group.title}
              </h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-600">{group.description}</p>
              <ul className="mt-5 space-y-2.5 border-t border-emerald-900/5 pt-5">
                {group.services.map((service) => (
                  <li key={service} className="flex gap-2.5 text-sm text-slate-700">
                    <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                    <span>{service}</span>
                  </li>
                ))}
              </ul>
            </article>
          ))}

          <div className="relative flex flex-col justify-between overflow-hidden rounded-2xl bg-gradient-to-br from-emerald-700 to-teal-800 p-7 text-white shadow-lg shadow-emerald-950/15">
            <ContourLines className="pointer-events-none absolute inset-0 h-full w-full text-white/10" />
            <div className="relative">
              <p className="text-lg font-semibold">Não encontrou o que precisa?</p>
              <p className="mt-2 text-sm leading-relaxed text-emerald-50/85">
                Cada empreendimento é único. Conte sobre o seu projeto e indicamos o caminho mais
                seguro para regularizá-lo.
              </p>
            </div>
            <Button
              asChild
              className="relative mt-8 h-11 self-start rounded-full bg-white px-6 text-emerald-900 hover:bg-emerald-50"
            >
              <a href="#contato">
                Fale com um especialista
                <ArrowRight />
              </a>
            </Button>
          </div>
        </div>
      </div>
    </section>
  )
}

function WhySection() {
  return (
    <section
      id="por-que"
      aria-label="Por que nos escolher"
      className="scroll-mt-16 bg-gradient-to-b from-emerald-50/70 via-emerald-50/40 to-background py-20 sm:py-28"
    >
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading eyebrow="Por que nos escolher" title={`Por que escolher a ${firm.name}`}>
          Experiência, proximidade e método para que o seu empreendimento opere sempre em dia com a
          legislação ambiental.
        </SectionHeading>

        <div className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-5">
          {reasons.map((reason, index) => (
            <article
              key={reason.title}
              aria-labelledby={`motivo-${index}`}
              className={cn(
                'flex gap-4 rounded-2xl border border-emerald-900/10 bg-white p-5 shadow-sm shadow-emerald-950/5 sm:block sm:p-6',
                index === reasons.length - 1 && 'sm:col-span-2 lg:col-span-1',
              )}
            >
              <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-emerald-600 text-white shadow-md shadow-emerald-700/25">
                <reason.icon className="size-5" aria-hidden="true" />
              </span>
              <div>
                <h3 id={`motivo-${index}`} className="font-semibold text-emerald-950 sm:mt-5">
                  {reason.title}
                </h3>
                <p className="mt-1.5 text-sm leading-relaxed text-slate-600 sm:mt-2">
                  {reason.text}
                </p>
              </div>
            </article>
          ))}
        </div>

        <div className="relative mt-16 overflow-hidden rounded-3xl bg-gradient-to-br from-emerald-900 via-emerald-900 to-teal-900 px-6 py-10 text-white shadow-xl shadow-emerald-950/15 sm:px-10 sm:py-12 lg:px-14">
          <ContourLines className="pointer-events-none absolute inset-0 h-full w-full text-white/[0.06]" />
          <div className="relative grid items-center gap-10 lg:grid-cols-2">
            <div>
              <p className="text-sm font-semibold tracking-[0.14em] text-emerald-300 uppercase">
                Nossa equipe
              </p>
              <h3 className="mt-3 text-2xl font-bold tracking-tight text-balance sm:text-3xl">
                {team.title}
              </h3>
              <p className="mt-4 leading-relaxed text-emerald-50/80">{team.text}</p>
            </div>
            <ul
              aria-label="Especialidades da equipe"
              className="flex flex-wrap gap-2.5 lg:justify-end"
            >
              {team.roles.map((role) => (
                <li
                  key={role}
                  className="rounded-full border border-white/15 bg-white/[0.07] px-4 py-2 text-sm font-medium text-emerald-50"
                >
                  {role}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
    </section>
  )
}

function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/(^-|-$)/g, '')
}
