import { PageHeader } from '../../components/page-header.tsx'

export function CategoriasPage() {
  return <PageHeader title="Categorias" />
}
