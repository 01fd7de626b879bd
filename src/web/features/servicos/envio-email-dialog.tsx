import { useQuery } from '@tanstack/react-query'
import { AlertTriangle, Send } from 'lucide-react'
import { Button } from '../../components/ui/button.tsx'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { ApiError } from '../../lib/api.ts'
import { emailPreviaQuery } from './api.ts'

/**
 * "Enviar Email" first shows what will go (the saved template as the server renders
 * it: subject, recipients and the message itself) and sends only on "Confirmar envio".
 */
export function EnvioEmailDialog({
  servicoId,
  open,
  onOpenChange,
  onConfirm,
  pending,
}: {
  servicoId: string
  open: boolean
  onOpenChange: (open: boolean) => void
  onConfirm: () => void
  pending: boolean
}) {
  const previa = useQuery({ ...emailPreviaQuery(servicoId), enabled: open })
  const p = previa.data
  return (
    <Dialog open={open} onOpenChange={(o) => !pending && onOpenChange(o)}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Pré-visualização do email</DialogTitle>
          <DialogDescription>
            Confira o email antes de enviar. Cada destinatário recebe uma mensagem separada.
          </DialogDescription>
        </DialogHeader>
        {previa.isPending ? (
          <div className="flex justify-center py-10">
            <Spinner />
          </div>
        ) : previa.isError ? (
          <p
            role="alert"
            className="rounded-md border border-destructive/40 p-3 text-sm text-destructive"
          >
            {previa.error instanceof ApiError && previa.error.status > 0
              ? previa.error.message
              : 'Não foi possível montar a pré-visualização. Tente novamente.'}
          </p>
        ) : p ? (
          <div className="grid min-w-0 gap-4 text-sm">
            <dl className="grid gap-3">
              <div className="grid gap-1">
                <dt className="font-medium text-muted-foreground">Assunto</dt>
                <dd className="break-words">{p.assunto}</dd>
              </div>
              <div className="grid gap-1">
                <dt className="font-medium text-muted-foreground">
                  Destinatários ({p.destinatarios.length - p.invalidos.length})
                </dt>
                <dd>
                  <ul aria-label="Destinatários" className="flex flex-wrap gap-1.5">
                    {p.destinatarios.map((e) => {
                      const invalido = p.invalidos.includes(e)
                      return (
                        <li
                          key={e}
                          className={`rounded-md border px-2 py-0.5 break-all ${invalido ? 'border-destructive/50 text-destructive line-through' : 'bg-muted'}`}
                        >
                          {e}
                          {invalido && <span className="sr-only"> (inválido)</span>}
                        </li>
                      )
                    })}
                  </ul>
                  {p.invalidos.length > 0 && (
                    <p className="mt-2 flex items-start gap-1.5 text-xs text-destructive">
                      <AlertTriangle className="mt-0.5 size-3.5 shrink-0" />
                      Endereços inválidos não serão enviados: {p.invalidos.join(', ')}
                    </p>
                  )}
                </dd>
              </div>
            </dl>
            <div className="grid gap-1">
              <span className="font-medium text-muted-foreground">Mensagem</span>
              {/* The e-mail's own HTML, isolated: no scripts, no access to the page. */}
              <iframe
                title="Mensagem do email"
                sandbox=""
                srcDoc={p.html}
                className="h-[26rem] w-full rounded-md border bg-white"
              />
            </div>
          </div>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            Cancelar
          </Button>
          <Button onClick={onConfirm} disabled={!p || pending}>
            <Send />
            {pending ? 'Enviando...' : 'Confirmar envio'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
