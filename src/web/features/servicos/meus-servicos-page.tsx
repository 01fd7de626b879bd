import { PageHeader } from '../../components/page-header.tsx'

export function MeusServicosPage() {
  return <PageHeader title="Meus Serviços" />
}
