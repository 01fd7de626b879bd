import { PageHeader } from '../../components/page-header.tsx'

export function ClientesPage() {
  return <PageHeader title="Clientes" />
}
