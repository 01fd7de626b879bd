import { useQuery } from '@tanstack/react-query'
import { CalendarPlus, Copy, RefreshCw } from 'lucide-react'
import { useState } from 'react'
import { ConfirmDialog } from '../../components/data-table/confirm-dialog.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { Button } from '../../components/ui/button.tsx'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx'
import { Input } from '../../components/ui/input.tsx'
import { notifyError, notifySuccess } from '../../lib/notify.ts'
import { assinaturaQuery, useGerarLink } from './api.ts'
import { formatDateTime } from '#shared/datas.ts'

/**
 * "Assinar no meu calendário": the personal link of the feed, shown once when made (only its hash
 * is kept), "Copiar link", "Gerar novo link" (the old link stops at once) and how to add it to
 * Google Agenda, Outlook and the iPhone.
 */
export function AssinaturaCard() {
  const { data } = useQuery(assinaturaQuery())
  const gerar = useGerarLink()
  const [url, setUrl] = useState<string | null>(null)
  const [confirmando, setConfirmando] = useState(false)
  const novo = () =>
    gerar.mutate(undefined, {
      onSuccess: (a) => {
        setUrl(a.url)
        setConfirmando(false)
        notifySuccess('Link gerado!', 'Copie o link e adicione-o ao seu calendário.')
      },
      onError: (err) => {
        setConfirmando(false)
        notifyFailure('Não foi possível gerar o link.', err)
      },
    })
  const copiar = async () => {
    if (!url) return
    try {
      await navigator.clipboard.writeText(url)
      notifySuccess('Link copiado!')
    } catch {
      notifyError('Erro', 'Não foi possível copiar. Selecione o link e copie-o.')
    }
  }
  return (
    <Card className="gap-4" role="region" aria-label="Assinar no meu calendário">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CalendarPlus className="size-5 text-primary" />
          Assinar no meu calendário
        </CardTitle>
        <CardDescription>
          Veja estes prazos no Google Agenda, no Outlook ou no iPhone. O link é pessoal: quem o
          tiver vê os seus prazos.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        {url ? (
          <div className="grid gap-2">
            <label htmlFor="calendario-link" className="font-medium">
              Seu link
            </label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <Input id="calendario-link" readOnly value={url} onFocus={(e) => e.target.select()} />
              <Button onClick={() => void copiar()}>
                <Copy />
                Copiar link
              </Button>
            </div>
            <p className="text-muted-foreground">
              Guarde-o agora: por segurança, ele não é mostrado de novo.
            </p>
          </div>
        ) : data?.existe ? (
          <p className="text-muted-foreground">
            Você gerou um link em {formatDateTime(data.criada_em)}. Para vê-lo de novo, gere um novo
            link (o anterior deixa de funcionar).
          </p>
        ) : null}
        <div>
          <Button
            variant={data?.existe || url ? 'outline' : 'default'}
            disabled={gerar.isPending}
            onClick={() => (data?.existe || url ? setConfirmando(true) : novo())}
          >
            <RefreshCw />
            {data?.existe || url ? 'Gerar novo link' : 'Gerar link'}
          </Button>
        </div>
        <ul className="grid list-disc gap-1 pl-5 text-muted-foreground">
          <li>
            <strong className="text-foreground">Google Agenda:</strong> Outras agendas → “+” → Do
            URL, cole o link e clique em Adicionar agenda.
          </li>
          <li>
            <strong className="text-foreground">Outlook:</strong> Adicionar calendário → Assinar da
            Web, cole o link e clique em Importar.
          </li>
          <li>
            <strong className="text-foreground">iPhone:</strong> Ajustes → Calendário → Contas →
            Adicionar Conta → Outra → Adicionar Calendário Assinado, cole o link.
          </li>
        </ul>
      </CardContent>
      <ConfirmDialog
        open={confirmando}
        onOpenChange={setConfirmando}
        title="Gerar novo link?"
        description={
          <p>O link atual deixa de funcionar na hora, em todos os calendários que o usam.</p>
        }
        confirmLabel="Gerar novo link"
        pendingLabel="Gerando..."
        pending={gerar.isPending}
        onConfirm={novo}
      />
    </Card>
  )
}
