import { Clock, Mail, MapPin, MessageCircle, Phone, Send } from 'lucide-react'
import { useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { Input } from '../../components/ui/input.tsx'
import { Label } from '../../components/ui/label.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { cities, contact } from './landing-content.ts'
import { SectionHeading } from './landing-ui.tsx'
import { maskTelefone } from './telefone.ts'
import { whatsappLink, type ContactForm } from './whatsapp.ts'

const emptyForm: ContactForm = { nome: '', email: '', telefone: '', mensagem: '' }

const fieldClass = 'h-11 rounded-lg bg-white px-3.5 md:text-sm'

export function ContactSection() {
  const [form, setForm] = useState<ContactForm>(emptyForm)
  const [isSent, setSent] = useState(false)

  const update =
    (field: keyof ContactForm) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const value = field === 'telefone' ? maskTelefone(event.target.value) : event.target.value
      setForm((current) => ({ ...current, [field]: value }))
    }

  // SPEC §2: no server call; the browser's own validation runs before this handler.
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    window.open(whatsappLink(form, contact.whatsappDigits), '_blank', 'noopener,noreferrer')
    setSent(true)
  }

  return (
    <section
      id="contato"
      aria-label="Contato"
      className="scroll-mt-16 pt-6 pb-20 sm:pt-10 sm:pb-28"
    >
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading eyebrow="Contato" title="Solicite um orçamento">
          Conte um pouco sobre o seu empreendimento. Respondemos pelo WhatsApp, normalmente no mesmo
          dia útil.
        </SectionHeading>

        <div className="mt-14 grid overflow-hidden rounded-3xl border border-emerald-900/10 bg-white shadow-xl shadow-emerald-950/5 lg:grid-cols-[0.85fr_1.15fr]">
          <div className="relative overflow-hidden bg-gradient-to-br from-emerald-800 to-teal-900 p-6 text-white sm:p-10">
            <div className="pointer-events-none absolute -right-24 -bottom-24 size-72 rounded-full bg-emerald-400/20 blur-3xl" />
            <div className="relative flex h-full flex-col">
              <h3 className="text-xl font-semibold">Fale com a nossa equipe</h3>
              <p className="mt-3 text-sm leading-relaxed text-emerald-50/80">
                Atendemos empresas, indústrias, produtores rurais e órgãos públicos em todo o norte
                capixaba e na Grande Vitória.
              </p>
              <ul className="mt-8 space-y-5">
                <ContactItem icon={<Phone />} label="Telefone e WhatsApp">
                  <a href={contact.phoneHref} className="hover:underline">
                    {contact.phoneDisplay}
                  </a>
                </ContactItem>
                <ContactItem icon={<Mail />} label="E-mail">
                  <a
                    href={`mailto:${contact.email}`}
                    className="[overflow-wrap:anywhere] hover:underline"
                  >
                    {contact.email}
                  </a>
                </ContactItem>
                <ContactItem icon={<MapPin />} label="Endereço">
                  {contact.addressLines.map((line) => (
                    <span key={line} className="block">
                      {line}
                    </span>
                  ))}
                </ContactItem>
                <ContactItem icon={<Clock />} label="Horário de atendimento">
                  {contact.hours}
                </ContactItem>
              </ul>
              <div className="mt-10 border-t border-white/10 pt-6 lg:mt-auto">
                <p className="text-xs font-medium tracking-wide text-emerald-200/80 uppercase">
                  Onde atendemos
                </p>
                <p className="mt-3 flex flex-wrap gap-2">
                  {cities.map((city) => (
                    <span
                      key={city}
                      className="rounded-full bg-white/10 px-3 py-1 text-xs font-medium text-emerald-50 ring-1 ring-white/10"
                    >
                      {city}
                    </span>
                  ))}
                </p>
              </div>
            </div>
          </div>

          <form onSubmit={handleSubmit} className="p-6 sm:p-10" aria-labelledby="formulario-titulo">
            <h3 id="formulario-titulo" className="text-xl font-semibold text-emerald-950">
              Envie sua mensagem
            </h3>
            <p className="mt-1.5 text-sm text-slate-500">Todos os campos são obrigatórios.</p>

            <div className="mt-7 grid gap-5 sm:grid-cols-2">
              <div className="grid gap-2 sm:col-span-2">
                <Label htmlFor="contato-nome">Nome</Label>
                <Input
                  id="contato-nome"
                  name="nome"
                  autoComplete="name"
                  placeholder="Seu nome completo"
                  required
                  value={form.nome}
                  onChange={update('nome')}
                  className={fieldClass}
                />
              </div>
              <div className="grid gap-2">
                <Label htmlFor="contato-email">Email</Label>
                <Input
                  id="contato-email"
                  name="email"
                  type="email"
                  autoComplete="email"
                  placeholder="voce@empresa.com.br"
                  required
                  value={form.email}
                  onChange={update('email')}
                  className={fieldClass}
                />
              </div>
              <div className="grid gap-2">
                <Label htmlFor="contato-telefone">Telefone</Label>
                <Input
                  id="contato-telefone"
                  name="telefone"
                  type="tel"
                  inputMode="tel"
                  autoComplete="tel-national"
                  placeholder="(27) 99999-9999"
                  required
                  value={form.telefone}
                  onChange={update('telefone')}
                  className={fieldClass}
                />
              </div>
              <div className="grid gap-2 sm:col-span-2">
                <Label htmlFor="contato-mensagem">Mensagem</Label>
                <Textarea
                  id="contato-mensagem"
                  name="mensagem"
                  placeholder="Conte qual serviço você precisa, o município e o tipo de atividade."
                  required
                  rows={5}
                  value={form.mensagem}
                  onChange={update('mensagem')}
                  className="min-h-32 rounded-lg bg-white px-3.5 py-2.5 md:text-sm"
                />
              </div>
            </div>

            <div className="mt-7 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
              <Button
                type="submit"
                size="lg"
                className="h-12 rounded-full px-7 shadow-md shadow-emerald-900/15"
              >
                <Send />
                Enviar mensagem
              </Button>
              <p className="flex items-center gap-2 text-xs text-slate-500">
                <MessageCircle className="size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                Abriremos o WhatsApp em uma nova aba com a sua mensagem.
              </p>
            </div>

            <p role="status" className="mt-4 min-h-5 text-sm font-medium text-emerald-700">
              {isSent &&
                'Pronto! Se o WhatsApp não abriu, verifique se o navegador bloqueou a nova aba.'}
            </p>
          </form>
        </div>
      </div>
    </section>
  )
}

function ContactItem({
  icon,
  label,
  children,
}: {
  icon: ReactNode
  label: string
  children: ReactNode
}) {
  return (
    <li className="flex gap-4">
      <span
        className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-white/10 text-emerald-200 ring-1 ring-white/10 [&_svg]:size-5"
        aria-hidden="true"
      >
        {icon}
      </span>
      <span className="flex flex-col text-sm">
        <span className="text-xs font-medium tracking-wide text-emerald-200/80 uppercase">
          {label}
        </span>
        <span className="mt-0.5 font-medium text-white">{children}</span>
      </span>
    </li>
  )
}
