import { PageHeader } from '../../components/page-header.tsx'

export function TiposServicosPage() {
  return <PageHeader title="Tipos de Serviços" />
}
