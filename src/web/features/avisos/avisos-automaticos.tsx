import { useQuery } from '@tanstack/react-query'
import { CalendarClock, Play } from 'lucide-react'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { Button } from '../../components/ui/button.tsx'
import { notifySuccess } from '../../lib/notify.ts'
import { avisosAutomaticosQuery, useRunAvisosAutomaticos } from './api.ts'
import { formatDateTime } from '#shared/datas.ts'
import { resumoExecucao, type AgendaAvisos } from '#shared/schemas/avisos.ts'

/** 'Executar agora': runs today's automatic warnings at once, with a summary toast. */
export function RunAvisosButton() {
  const executar = useRunAvisosAutomaticos()
  return (
    <Button
      variant="outline"
      disabled={executar.isPending}
      onClick={() =>
        executar.mutate(undefined, {
          onSuccess: (r) => notifySuccess('Verificação concluída!', resumoExecucao(r)),
          onError: (err) =>
            notifyFailure('Não foi possível executar a verificação de avisos.', err),
        })
      }
    >
      <Play />
      {executar.isPending ? 'Executando...' : 'Executar agora'}
    </Button>
  )
}

/** When the automatic warnings job runs by itself and what its last run did. */
export function AvisosAutomaticosStatus() {
  const agenda = useQuery(avisosAutomaticosQuery())
  return agenda.data ? <AgendaResumo agenda={agenda.data} /> : null
}

/** When the job runs by itself and what its last run did. */
function AgendaResumo({ agenda }: { agenda: AgendaAvisos }) {
  const hora = `${String(agenda.hora).padStart(2, '0')}:00`
  const fuso = agenda.fuso === 'America/Sao_Paulo' ? 'horário de Brasília' : agenda.fuso
  return (
    <div
      className="mb-4 flex items-start gap-3 rounded-lg border bg-muted/40 p-3 text-sm"
      aria-label="Verificação automática"
      role="status"
    >
      <CalendarClock className="mt-0.5 size-5 shrink-0 text-primary" />
      <div className="grid gap-0.5">
        <p className="font-medium">
          {agenda.agendador
            ? `Verificação automática todos os dias às ${hora} (${fuso}).`
            : 'A verificação automática diária está desligada neste servidor; use Executar agora.'}
        </p>
        <p className="text-muted-foreground">
          {agenda.ultima
            ? `Última verificação: ${formatDateTime(agenda.ultima.concluida_em)} (${
                agenda.ultima.origem === 'manual' ? 'manual' : 'automática'
              }): ${resumoExecucao(agenda.ultima)}`
            : 'Nenhuma verificação realizada ainda.'}
        </p>
      </div>
    </div>
  )
}
