import { PageHeader } from '../../components/page-header.tsx'

export function SolicitarServicoPage() {
  return <PageHeader title="Solicitar Serviço" />
}
