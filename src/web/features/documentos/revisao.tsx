import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { Check, Download, History, RotateCcw, X } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { apiBlob, saveBlob } from '../../lib/api.ts'
import { notifyError, notifySuccess } from '../../lib/notify.ts'
import { useRevisarDocumento, versaoArquivoUrl, versoesQuery } from './api.ts'
import { downloadName, formatBytes } from '#shared/arquivos.ts'
import { formatDateTime } from '#shared/datas.ts'
import {
  badgeExigido,
  RejeicaoSchema,
  type DocumentoVersao,
  type Estado,
  type Rejeicao,
} from '#shared/schemas/documentos.ts'

/** The review badge of a client's document (or of one of its versions). */
export function EstadoBadge({ estado }: { estado: Estado | null }) {
  const b = badgeExigido({ estado })
  return (
    <Badge
      variant={b.destructive ? 'destructive' : b.label === 'Aprovado' ? 'default' : 'secondary'}
    >
      {b.label}
    </Badge>
  )
}

type Revisavel = { id: string; tipo: string }

/** "Aprovar": the toast "Documento aprovado!". */
export function useAprovarDocumento() {
  const revisar = useRevisarDocumento()
  return {
    isPending: revisar.isPending,
    aprovar: (d: Revisavel) =>
      revisar.mutate(
        { id: d.id, estado: 'aprovado' },
        {
          onSuccess: () => notifySuccess('Documento aprovado!'),
          onError: (err) => notifyFailure('Não foi possível aprovar o documento.', err),
        },
      ),
  }
}

/** The dialog "Rejeitar documento": the required "Motivo", then the toast "Documento rejeitado.". */
export function RejeitarDialog({
  documento,
  onClose,
}: {
  documento: Revisavel | null
  onClose: () => void
}) {
  const revisar = useRevisarDocumento()
  const form = useForm<Rejeicao>({
    resolver: zodResolver(RejeicaoSchema),
    defaultValues: { motivo: '' },
  })
  const fechar = () => {
    form.reset({ motivo: '' })
    onClose()
  }
  const rejeitar = form.handleSubmit((values) => {
    if (!documento) return
    revisar.mutate(
      { id: documento.id, estado: 'rejeitado', motivo: values.motivo },
      {
        onSuccess: () => {
          notifySuccess('Documento rejeitado.')
          fechar()
        },
        onError: (err) =>
          notifyFailure('Não foi possível rejeitar o documento.', err, form.setError),
      },
    )
  })
  return (
    <FormDialog
      dirty={form.formState.isDirty}
      open={documento !== null}
      onOpenChange={(o) => !o && fechar()}
      title="Rejeitar documento"
      description={
        documento
          ? `${documento.tipo}: o cliente recebe o motivo por e-mail e pode enviar o documento novamente.`
          : undefined
      }
      submitLabel="Rejeitar"
      pending={revisar.isPending}
      onSubmit={rejeitar}
    >
      <Field
        label="Motivo"
        htmlFor="rejeicao-motivo"
        required
        error={form.formState.errors.motivo?.message}
      >
        <Textarea
          id="rejeicao-motivo"
          rows={3}
          aria-invalid={Boolean(form.formState.errors.motivo)}
          {...form.register('motivo')}
        />
      </Field>
    </FormDialog>
  )
}

/**
 * On the service detail: "Aprovar" and "Rejeitar" for a document waiting for review, "Reabrir"
 * for a reviewed one.
 */
export function RevisaoAcoes({ documento }: { documento: Revisavel & { estado: Estado | null } }) {
  const revisar = useRevisarDocumento()
  const { aprovar, isPending } = useAprovarDocumento()
  const [rejeitando, setRejeitando] = useState<Revisavel | null>(null)

  if (documento.estado === 'aprovado' || documento.estado === 'rejeitado')
    return (
      <Button
        variant="outline"
        size="sm"
        disabled={revisar.isPending}
        aria-label={`Reabrir ${documento.tipo}`}
        onClick={() =>
          revisar.mutate(
            { id: documento.id, estado: 'enviado' },
            {
              onSuccess: () => notifySuccess('Documento reaberto.'),
              onError: (err) => notifyFailure('Não foi possível reabrir o documento.', err),
            },
          )
        }
      >
        <RotateCcw />
        Reabrir
      </Button>
    )
  if (documento.estado !== 'enviado') return null
  return (
    <>
      <Button
        size="sm"
        disabled={isPending}
        aria-label={`Aprovar ${documento.tipo}`}
        onClick={() => aprovar(documento)}
      >
        <Check />
        Aprovar
      </Button>
      <Button
        variant="outline"
        size="sm"
        className="text-destructive hover:text-destructive"
        aria-label={`Rejeitar ${documento.tipo}`}
        onClick={() => setRejeitando(documento)}
      >
        <X />
        Rejeitar
      </Button>
      <RejeitarDialog documento={rejeitando} onClose={() => setRejeitando(null)} />
    </>
  )
}

const quem = (v: DocumentoVersao) =>
  `${v.enviado_por === 'cliente' ? 'Cliente' : 'Consultoria'}${v.autor ? ` (${v.autor})` : ''}`

/** "Histórico": every version of a document with date, who, size, state and reason. */
export function HistoricoButton({ documento }: { documento: { id: string; tipo: string } }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        aria-label={`Histórico de ${documento.tipo}`}
        onClick={() => setOpen(true)}
      >
        <History />
        Histórico
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="sm:max-w-xl">
          <DialogHeader>
            <DialogTitle>Histórico</DialogTitle>
            <DialogDescription>{documento.tipo}: todas as versões enviadas.</DialogDescription>
          </DialogHeader>
          {open && <Versoes documento={documento} />}
        </DialogContent>
      </Dialog>
    </>
  )
}

function Versoes({ documento }: { documento: { id: string; tipo: string } }) {
  const versoes = useQuery(versoesQuery(documento.id))
  if (versoes.isPending)
    return (
      <div className="flex justify-center py-4">
        <Spinner />
      </div>
    )
  if (versoes.isError)
    return <p className="text-sm text-destructive">Não foi possível carregar o histórico.</p>
  const baixar = async (v: DocumentoVersao, n: number) => {
    try {
      const blob = await apiBlob(versaoArquivoUrl(documento.id, v.id))
      saveBlob(blob, downloadName(`${documento.tipo} (versão ${n})`, `x.${v.extensao}`))
    } catch {
      notifyError('Erro', 'Não foi possível baixar o documento.')
    }
  }
  const total = versoes.data.length
  return (
    <ol className="grid max-h-[60vh] gap-2 overflow-y-auto" aria-label="Versões">
      {versoes.data.map((v, i) => (
        <li key={v.id} className="flex flex-col gap-2 rounded-lg border p-3 text-sm sm:flex-row">
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">Versão {total - i}</span>
              {v.atual && <Badge variant="outline">Atual</Badge>}
              {v.estado && <EstadoBadge estado={v.estado} />}
            </div>
            <p className="text-xs text-muted-foreground">
              {formatDateTime(v.data_envio)} · {quem(v)} · {formatBytes(v.tamanho)}
            </p>
            {v.motivo && <p className="mt-1 text-xs break-words">Motivo: {v.motivo}</p>}
          </div>
          <Button
            variant="outline"
            size="sm"
            className="self-start"
            aria-label={`Baixar versão ${total - i}`}
            onClick={() => baixar(v, total - i)}
          >
            <Download />
            Baixar
          </Button>
        </li>
      ))}
    </ol>
  )
}
