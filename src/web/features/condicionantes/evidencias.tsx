import { FileText } from 'lucide-react'
import { evidenciaUrl } from './api.ts'
import { cn } from '../../lib/utils.ts'
import { formatDate } from '#shared/datas.ts'
import { ROTULO_EVIDENCIA } from '#shared/condicionantes.ts'
import type { Entrega } from '#shared/schemas/condicionantes.ts'

// The evidence of an entrega as both sides read it (no form: the client's service shows it at
// first load): each file a download, its review state, the sender's comment and a rejection's
// reason.

const COR: Record<string, string> = {
  enviado: 'text-sky-800',
  aprovado: 'text-green-700',
  rejeitado: 'text-red-700',
  substituido: 'text-muted-foreground',
}

/** The files sent for an entrega, newest first, grouped by send (a comment and a reason each). */
export function EvidenciasEntrega({ servicoId, entrega }: { servicoId: string; entrega: Entrega }) {
  if (!entrega.evidencias.length) return null
  // One send: the files sent together (same comment, same review).
  const envios: Entrega['evidencias'][] = []
  for (const v of entrega.evidencias) {
    const ultimo = envios.at(-1)
    const par = ultimo?.[0]
    if (
      par &&
      par.atual === v.atual &&
      par.estado === v.estado &&
      par.comentario === v.comentario &&
      par.data_envio.slice(0, 16) === v.data_envio.slice(0, 16)
    )
      ultimo.push(v)
    else envios.push([v])
  }
  return (
    <ul
      className="grid w-full gap-1.5 text-xs"
      aria-label={`Evidências da entrega de ${formatDate(entrega.data_prevista)}`}
    >
      {envios.map((envio) => {
        const v = envio[0]
        return (
          <li key={v.id} className="rounded-md border bg-background px-2 py-1.5">
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <span className={cn('font-medium', v.estado && COR[v.estado])}>
                {v.estado ? ROTULO_EVIDENCIA[v.estado] : ''}
              </span>
              <span className="text-muted-foreground">
                {formatDate(v.data_envio.slice(0, 10))} ·{' '}
                {v.enviado_por === 'cliente' ? 'Cliente' : 'Consultoria'}
              </span>
            </div>
            <ul className="mt-1 grid gap-0.5">
              {envio.map((f) => (
                <li key={f.id} className="min-w-0">
                  <a
                    href={evidenciaUrl(servicoId, entrega.id, f.id)}
                    download
                    className="inline-flex max-w-full items-center gap-1 text-primary underline-offset-2 hover:underline"
                    title={f.sha256 ? `SHA-256: ${f.sha256}` : undefined}
                  >
                    <FileText className="size-3.5 shrink-0" />
                    <span className="truncate">{f.arquivo}</span>
                  </a>
                </li>
              ))}
            </ul>
            {v.comentario && (
              <p className="mt-1 break-words whitespace-pre-wrap text-muted-foreground">
                “{v.comentario}”
              </p>
            )}
            {v.estado === 'rejeitado' && v.motivo && (
              <p className="mt-1 break-words whitespace-pre-wrap text-red-700">
                Motivo: {v.motivo}
              </p>
            )}
          </li>
        )
      })}
    </ul>
  )
}
