import { Mail, MessageCircle, Phone } from 'lucide-react'
import { Button } from '../../components/ui/button.tsx'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx'
import { useMe } from '../../lib/session.ts'
import { linkWhatsApp } from '#shared/documento.ts'

/**
 * "Fale com a consultoria" on the client's home: the firm's WhatsApp, phone and e-mail from
 * "Dados da empresa" (read with `/api/me`, no request of its own). Nothing while the firm has
 * left them empty (the server warns at start-up).
 */
export function FaleComAConsultoria() {
  const contato = useMe().data?.consultoria
  if (!contato || (!contato.whatsapp && !contato.telefone && !contato.email)) return null
  return (
    <section aria-labelledby="fale-titulo" className="mt-6">
      <Card>
        <CardHeader>
          <CardTitle id="fale-titulo">Fale com a consultoria</CardTitle>
          <CardDescription>
            Dúvidas sobre um serviço, um documento ou um prazo? Fale com {contato.nome}.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          {contato.whatsapp && (
            <Button asChild variant="outline">
              <a href={linkWhatsApp(contato.whatsapp)} target="_blank" rel="noopener noreferrer">
                <MessageCircle />
                WhatsApp {contato.whatsapp}
              </a>
            </Button>
          )}
          {contato.telefone && (
            <Button asChild variant="outline">
              <a href={`tel:+55${contato.telefone.replace(/\D/g, '')}`}>
                <Phone />
                Telefone {contato.telefone}
              </a>
            </Button>
          )}
          {contato.email && (
            <Button asChild variant="outline" className="max-w-full">
              <a href={`mailto:${contato.email}`}>
                <Mail />
                <span className="truncate">{contato.email}</span>
              </a>
            </Button>
          )}
        </CardContent>
      </Card>
    </section>
  )
}
