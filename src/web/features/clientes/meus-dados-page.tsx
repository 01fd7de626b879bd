import { PageHeader } from '../../components/page-header.tsx'

export function MeusDadosPage() {
  return <PageHeader title="Meus Dados" />
}
