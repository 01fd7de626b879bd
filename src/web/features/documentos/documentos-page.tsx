import { PageHeader } from '../../components/page-header.tsx'

export function DocumentosPage() {
  return <PageHeader title="Documentos Exigidos" />
}
