import { PageHeader } from '../../components/page-header.tsx'

export function RegrasDocumentosPage() {
  return <PageHeader title="Regras de Documentos" />
}
