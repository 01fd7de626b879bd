import { PageHeader } from '../components/page-header.tsx'
import { paths } from '../paths.ts'
import { AssinaturaCard } from '../features/calendario/assinatura-card.tsx'
import { CalendarioPrazos } from '../features/calendario/calendario.tsx'

/** "Meus prazos" (client): the deadlines of its own services, each opening its documents. */
export function MeusPrazosPage() {
  return (
    <>
      <PageHeader
        title="Meus prazos"
        description="Vencimentos, prazos de renovação, avisos e exigências dos órgãos dos seus serviços."
      />
      <div className="grid min-w-0 gap-6">
        <CalendarioPrazos linkServico={paths.usuario.documentos} />
        <AssinaturaCard />
      </div>
    </>
  )
}
