import { RunAvisosButton, AvisosAutomaticosStatus } from '../features/avisos/avisos-automaticos.tsx'
import { SchedulesList } from '../features/cadastros/schedules-list.tsx'

/** SPEC §2 warning schedules (cadastros) with the automatic warnings job that uses them (avisos). */
export function SchedulesPage() {
  return <SchedulesList actions={<RunAvisosButton />} intro={<AvisosAutomaticosStatus />} />
}
