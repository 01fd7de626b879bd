import { PageHeader } from '../components/page-header.tsx'
import { AuditoriaLista } from '../features/auditoria/auditoria-lista.tsx'

/**
 * Issue 15: the administration's "Auditoria" screen. A page of its own in pages/ so other
 * sections (part B: "Solicitações LGPD") are composed beside the audit list.
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
    </div>
  )
}
