import { PageHeader } from '../../components/page-header.tsx'

export function TiposDocumentosPage() {
  return <PageHeader title="Tipos de Documentos" />
}
