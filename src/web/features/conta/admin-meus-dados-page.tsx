import { PageHeader } from '../../components/page-header.tsx'

export function AdminMeusDadosPage() {
  return <PageHeader title="Meus Dados" />
}
