import { PageHeader } from '../../components/page-header.tsx'

export function AdminServicosPage() {
  return <PageHeader title="Dashboard Global de Serviços" />
}
