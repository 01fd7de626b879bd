import { useQuery } from '@tanstack/react-query'
import { FilePlus2, Pencil, Plus, ShieldCheck, ShieldOff, Trash2 } from 'lucide-react'
import { useCallback, useState, type ReactNode } from 'react'
import { ConfirmDialog } from '../../components/data-table/confirm-dialog.tsx'
import { ExportarMenu } from '../../components/exportar-menu.tsx'
import { DataTable, type DataTableColumn } from '../../components/data-table/data-table.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { useListParams } from '../../components/data-table/use-list-params.ts'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { notifyError, notifySuccess } from '../../lib/notify.ts'
import {
  clientesExportarUrl,
  clientesQuery,
  useDeleteCliente,
  useUpdateClienteAdmin,
} from './api.ts'
import { ClienteDialog, EditarClienteDialog } from './cliente-dialog.tsx'
import { formatBytes } from '#shared/arquivos.ts'
import { formatDate } from '#shared/datas.ts'
import { formatDocumento } from '#shared/documento.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'
import { SEM_CONTA, type Cliente } from '#shared/schemas/clientes.ts'

/** SPEC §4 "Client account": Admin, Usuário or Sem conta. */
function ContaBadge({ conta }: { conta: Cliente['conta'] }) {
  if (conta === 'admin')
    return (
      <Badge>
        <ShieldCheck />
        Admin
      </Badge>
    )
  if (conta === 'usuario') return <Badge variant="secondary">Usuário</Badge>
  return (
    <Badge variant="outline" className="text-muted-foreground">
      Sem conta
    </Badge>
  )
}

/**
 * SPEC §2 "Clients management": the clients' list with its actions (new, edit, delete, make or
 * unmake administrator). "Adicionar Serviço" opens `adicionarServico`, a slot the page composing
 * this list fills with the servicos feature's dialog.
 */
export function ClientesLista({
  adicionarServico,
}: {
  adicionarServico: (cliente: Cliente, fechar: () => void) => ReactNode
}) {
  const { q, page, setQ, setPage } = useListParams()
  const lista = useQuery(clientesQuery({ q, page }))
  const excluir = useDeleteCliente()
  const alterarAdmin = useUpdateClienteAdmin()
  const [editar, setEditar] = useState<{ id?: string } | null>(null)
  const fecharEditar = useCallback(() => setEditar(null), [])
  const [servicoPara, setServicoPara] = useState<Cliente | null>(null)
  const [apagar, setApagar] = useState<Cliente | null>(null)

  const [privilegio, setPrivilegio] = useState<Cliente | null>(null)

  // SPEC §6: only a client with a linked account can be made admin. A change of role is a
  // privilege change: it goes through the same confirmation as a delete.
  const toggleAdmin = (c: Cliente) => {
    if (!c.user_id) return notifyError('Erro', SEM_CONTA)
    setPrivilegio(c)
  }
  const confirmAdmin = (c: Cliente) => {
    const admin = c.conta !== 'admin'
    alterarAdmin.mutate(
      { id: c.id, admin },
      {
        onSuccess: () => {
          notifySuccess(
            'Privilégios atualizados!',
            admin ? `${c.nome} agora é administrador.` : `${c.nome} não é mais administrador.`,
          )
          setPrivilegio(null)
        },
        onError: (err) => {
          notifyFailure('Não foi possível alterar os privilégios do usuário.', err)
          setPrivilegio(null)
        },
      },
    )
  }

  const columns: DataTableColumn<Cliente>[] = [
    {
      id: 'nome',
      header: 'Nome',
      card: 'title',
      className: 'min-w-32',
      // The whole name wraps; below 1280 px the e-mail goes under it (its column shows from xl).
      cell: (c) => (
        <>
          <span className="block font-medium break-words">{c.nome}</span>
          <span
            className="block max-w-48 truncate text-xs text-muted-foreground xl:hidden"
            title={c.email}
          >
            {c.email}
          </span>
        </>
      ),
      cardCell: (c) => <span className="font-medium">{c.nome}</span>,
    },
    {
      id: 'email',
      header: 'Email',
      from: 'xl',
      cell: (c) => (
        <span className="block max-w-32 truncate xl:max-w-40" title={c.email}>
          {c.email}
        </span>
      ),
    },
    {
      id: 'documento',
      header: 'Documento',
      className: 'whitespace-nowrap tabular-nums',
      cell: (c) => formatDocumento(c.documento),
    },
    {
      id: 'telefone',
      from: 'xl',
      header: 'Telefone',
      className: 'whitespace-nowrap tabular-nums',
      cell: (c) => c.telefone || '-',
    },
    {
      id: 'created_at',
      from: 'xl',
      header: 'Cadastro',
      className: 'whitespace-nowrap',
      cell: (c) => formatDate(c.created_at),
    },
    {
      id: 'armazenamento',
      from: '2xl',
      header: 'Armazenamento',
      className: 'whitespace-nowrap tabular-nums',
      cell: (c) => formatBytes(c.armazenamento),
    },
    { id: 'conta', header: 'Conta', cell: (c) => <ContaBadge conta={c.conta} /> },
  ]

  const novoButton = (
    <Button onClick={() => setEditar({})}>
      <Plus />
      Novo Cliente
    </Button>
  )

  return (
    <>
      <DataTable
        label="Lista de clientes"
        columns={columns}
        rows={lista.data?.rows}
        getRowId={(c) => c.id}
        actions={(c) => [
          { label: 'Adicionar Serviço', icon: FilePlus2, onClick: () => setServicoPara(c) },
          {
            label: c.conta === 'admin' ? 'Remover administrador' : 'Tornar administrador',
            icon: c.conta === 'admin' ? ShieldOff : ShieldCheck,
            onClick: () => toggleAdmin(c),
            disabled: alterarAdmin.isPending,
          },
          { label: 'Editar', icon: Pencil, onClick: () => setEditar({ id: c.id }) },
          { label: 'Excluir', icon: Trash2, destructive: true, onClick: () => setApagar(c) },
        ]}
        total={lista.data?.total}
        page={page}
        pageSize={PAGE_SIZE}
        onPageChange={setPage}
        countLabel={(n) => `${n} cliente${n === 1 ? '' : 's'}`}
        isLoading={lista.isPending}
        isFetching={lista.isFetching}
        isError={lista.isError}
        errorMessage="Não foi possível carregar os clientes."
        onRetry={() => void lista.refetch()}
        search={{
          value: q,
          onChange: setQ,
          label: 'Buscar cliente',
          placeholder: 'Nome, email ou documento...',
        }}
        toolbar={
          <>
            <ExportarMenu url={(formato) => clientesExportarUrl(q, formato)} />
            {novoButton}
          </>
        }
        empty={{
          title: 'Nenhum cliente cadastrado',
          description: 'Adicione o primeiro cliente: ele recebe uma conta de acesso ao portal.',
          action: novoButton,
        }}
      />
      {editar?.id ? (
        <EditarClienteDialog id={editar.id} onClose={fecharEditar} />
      ) : (
        editar && <ClienteDialog onClose={fecharEditar} />
      )}
      {servicoPara && adicionarServico(servicoPara, () => setServicoPara(null))}
      <ConfirmDialog
        open={Boolean(privilegio)}
        onOpenChange={(o) => !o && setPrivilegio(null)}
        title={privilegio?.conta === 'admin' ? 'Remover administrador?' : 'Tornar administrador?'}
        description={
          privilegio?.conta === 'admin' ? (
            <p>
              <strong className="text-foreground">{privilegio?.nome}</strong> deixará de acessar a
              administração do portal.
            </p>
          ) : (
            <p>
              <strong className="text-foreground">{privilegio?.nome}</strong> passará a ver e
              alterar os dados de todos os clientes, serviços e documentos.
            </p>
          )
        }
        confirmLabel={privilegio?.conta === 'admin' ? 'Remover' : 'Tornar administrador'}
        pendingLabel="Salvando..."
        pending={alterarAdmin.isPending}
        onConfirm={() => privilegio && confirmAdmin(privilegio)}
      />
      <ConfirmDialog
        open={Boolean(apagar)}
        onOpenChange={(o) => !o && setApagar(null)}
        title="Excluir cliente?"
        description={
          <>
            <p>
              <strong className="text-foreground">{apagar?.nome}</strong> será excluído junto com
              todos os seus serviços, avisos, documentos e arquivos enviados
              {apagar?.user_id ? ', e a conta de acesso ao portal será removida' : ''}.
            </p>
            <p>Esta ação não pode ser desfeita.</p>
          </>
        }
        pending={excluir.isPending}
        onConfirm={() =>
          apagar &&
          excluir.mutate(apagar.id, {
            onSuccess: () => {
              notifySuccess('Cliente excluído com sucesso!', `${apagar.nome} foi removido.`)
              setApagar(null)
            },
            onError: (err) => {
              notifyFailure('Não foi possível excluir o cliente.', err)
              setApagar(null)
            },
          })
        }
      />
    </>
  )
}
