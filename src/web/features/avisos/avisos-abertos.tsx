import { useQuery } from '@tanstack/react-query'
import { Check, CircleAlert } from 'lucide-react'
import { Button } from '../../components/ui/button.tsx'
import { notifyError, notifySuccess } from '../../lib/notify.ts'
import { meusAvisosQuery, useConcluirAviso } from './api.ts'
import { formatDate } from '#shared/datas.ts'

/**
 * The open avisos of one of the client's services (only those the analyst made visible
 * reach the client), each with its deadline and 'Concluído'. Every service of the home shares one
 * request (the client's avisos).
 */
export function AvisosAbertos({ servicoId }: { servicoId: string }) {
  const { data } = useQuery(meusAvisosQuery())
  const concluir = useConcluirAviso()
  const abertos = (data ?? []).filter((a) => a.servico_id === servicoId && !a.resolvido)
  if (abertos.length === 0) return null
  return (
    <ul className="grid gap-2" aria-label="Avisos do serviço">
      {abertos.map((a) => (
        <li
          key={a.id}
          className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm"
        >
          <CircleAlert className="size-4 shrink-0 text-amber-700" aria-hidden />
          <div className="min-w-0 flex-1">
            <p className="break-words whitespace-pre-wrap">{a.texto}</p>
            <p className="text-xs text-amber-900">Prazo: {formatDate(a.data_limite)}</p>
          </div>
          <Button
            size="sm"
            variant="outline"
            className="bg-background"
            disabled={concluir.isPending}
            aria-label={`Marcar como concluído: ${a.texto}`}
            // mutateAsync, not mutate's callbacks: on desktop the row holding this list unmounts
            // as soon as the refreshed services say no aviso is open, and a per-call onSuccess
            // of an unmounted observer never runs (the toast was lost).
            onClick={() =>
              concluir.mutateAsync(a.id).then(
                () => notifySuccess('Aviso concluído!'),
                () => notifyError('Erro', 'Não foi possível concluir o aviso.'),
              )
            }
          >
            <Check />
            Concluído
          </Button>
        </li>
      ))}
    </ul>
  )
}
