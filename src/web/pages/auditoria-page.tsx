import { PageHeader } from '../components/page-header.tsx'
import { AuditoriaLista } from '../features/auditoria/auditoria-lista.tsx'
import { RetencaoCard } from '../features/privacidade/retencao-card.tsx'
import { SolicitacoesLgpd } from '../features/privacidade/solicitacoes-lgpd.tsx'

/**
 * The administration's "Auditoria" screen: the audit list (auditoria), then the
 * clients' "Solicitações LGPD" and the "Retenção de dados" settings (privacidade).
 */
export function AuditoriaPage() {
  return (
    <div className="grid min-w-0 gap-8">
      <div>
        <PageHeader
          title="Auditoria"
          description="Quem fez o quê, quando e de onde: alterações, acessos a dados pessoais, entradas e e-mails."
        />
        <AuditoriaLista />
      </div>
      <SolicitacoesLgpd />
      <RetencaoCard />
    </div>
  )
}
