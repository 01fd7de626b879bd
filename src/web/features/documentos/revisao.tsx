import { useQuery } from '@tanstack/react-query'
import { Download, History } from 'lucide-react'
import { useState } from 'react'
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
import { apiBlob, saveBlob } from '../../lib/api.ts'
import { notifyError, notifySuccess } from '../../lib/notify.ts'
import { useRevisarDocumento, versaoArquivoUrl, versoesQuery } from './api.ts'
import { downloadName, formatBytes } from '#shared/arquivos.ts'
import { formatDateTime } from '#shared/datas.ts'
import type { DocumentoVersao, Estado } from '#shared/schemas/documentos.ts'
import { badgeExigido } from '#shared/badges-documentos.ts'

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

export type Revisavel = { id: string; tipo: string }

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
