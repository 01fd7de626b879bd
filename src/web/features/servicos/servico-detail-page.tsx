import { PageHeader } from '../../components/page-header.tsx'

export function ServicoDetailPage() {
  return <PageHeader title="Detalhes do Serviço" />
}
