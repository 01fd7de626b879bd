import { useQuery } from '@tanstack/react-query'
import { PageHeader } from '../components/page-header.tsx'
import { cadastroOptionsQuery } from '../features/cadastros/api.ts'
import { ClientesLista } from '../features/clientes/clientes-lista.tsx'
import { AdicionarServicoDialog } from '../features/servicos/adicionar-servico-dialog.tsx'
import type { Status, TipoServico } from '#shared/schemas/cadastros.ts'
import type { Cliente } from '#shared/schemas/clientes.ts'

/**
 * SPEC §2 "Clients management": the clients' list (clientes), whose "Adicionar Serviço" opens the
 * dialog of servicos with the catalogue's service types and statuses (cadastros).
 */
export function ClientesPage() {
  return (
    <>
      <PageHeader
        title="Clientes"
        description="Cadastro dos clientes, suas contas de acesso e serviços."
      />
      <ClientesLista
        adicionarServico={(cliente, fechar) => (
          <AdicionarServico cliente={cliente} onClose={fechar} />
        )}
      />
    </>
  )
}

/** The catalogue's options are loaded when the dialog opens. */
function AdicionarServico({ cliente, onClose }: { cliente: Cliente; onClose: () => void }) {
  const tipos = useQuery(cadastroOptionsQuery<TipoServico>('tipos-servicos'))
  const statuses = useQuery(cadastroOptionsQuery<Status>('status'))
  return (
    <AdicionarServicoDialog
      cliente={cliente}
      tipos={tipos.data}
      statuses={statuses.data}
      onClose={onClose}
    />
  )
}
