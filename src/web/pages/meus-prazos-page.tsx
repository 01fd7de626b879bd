import { PageHeader } from '../components/page-header.tsx'
import { paths } from '../paths.ts'
import { CalendarioPrazos } from '../features/calendario/calendario.tsx'

/** "Meus prazos" (client): the deadlines of its own services, each opening its documents. */
export function MeusPrazosPage() {
  return (
    <>
      <PageHeader
        title="Meus prazos"
        description="Vencimentos, prazos de renovação, avisos e exigências dos órgãos dos seus serviços."
      />
      <CalendarioPrazos linkServico={paths.usuario.documentos} />
    </>
  )
}
