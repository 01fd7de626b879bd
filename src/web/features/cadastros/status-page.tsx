import { PageHeader } from '../../components/page-header.tsx'

export function StatusPage() {
  return <PageHeader title="Status" />
}
