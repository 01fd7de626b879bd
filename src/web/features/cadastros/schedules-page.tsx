import { PageHeader } from '../../components/page-header.tsx'

export function SchedulesPage() {
  return <PageHeader title="Agendamentos de Avisos" />
}
