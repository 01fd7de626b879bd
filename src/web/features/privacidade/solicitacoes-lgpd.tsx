import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { Check, X } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { ConfirmDialog } from '../../components/data-table/confirm-dialog.tsx'
import { DataTable, type DataTableColumn } from '../../components/data-table/data-table.tsx'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { Badge } from '../../components/ui/badge.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { notifySuccess } from '../../lib/notify.ts'
import { solicitacoesQuery, useConcluirSolicitacao, useRecusarSolicitacao } from './api.ts'
import { formatDate, formatDateTime } from '#shared/datas.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'
import { RecusaSchema, type Recusa, type Solicitacao } from '#shared/schemas/privacidade.ts'

const ESTADOS = [
  { value: 'pendente', label: 'Pendentes' },
  { value: 'concluida', label: 'Concluídas' },
  { value: 'recusada', label: 'Recusadas' },
  { value: 'todas', label: 'Todas' },
]

const ROTULO: Record<Solicitacao['estado'], string> = {
  pendente: 'Pendente',
  concluida: 'Concluída',
  recusada: 'Recusada',
}

/**
 * "Solicitações LGPD": the clients' erasure requests with their deadline (15 days, art.
 * 19); an administrator carries one out or refuses it with a reason (e-mailed to the client).
 * A section of its own, to sit on the Auditoria screen.
 */
export function SolicitacoesLgpd() {
  // Local state, not the URL: the Auditoria list above owns the page's query parameters.
  const [page, setPage] = useState(1)
  const [filtro, setFiltro] = useState<string | undefined>(undefined)
  const estado = filtro ?? 'pendente'
  const lista = useQuery(solicitacoesQuery(page, estado))
  const concluir = useConcluirSolicitacao()
  const [executando, setExecutando] = useState<Solicitacao | null>(null)
  const [recusando, setRecusando] = useState<Solicitacao | null>(null)
  const agora = Date.now()

  const columns: DataTableColumn<Solicitacao>[] = [
    {
      id: 'cliente',
      header: 'Cliente',
      card: 'title',
      cell: (s) => <span className="font-medium">{s.cliente_nome ?? s.email ?? '-'}</span>,
    },
    { id: 'email', header: 'Email', cell: (s) => s.email ?? '-' },
    {
      id: 'pedido_em',
      header: 'Pedido em',
      className: 'whitespace-nowrap tabular-nums',
      cell: (s) => formatDateTime(s.pedido_em),
    },
    {
      id: 'prazo',
      header: 'Prazo',
      className: 'whitespace-nowrap tabular-nums',
      cell: (s) => (
        <span
          className={
            s.estado === 'pendente' && Date.parse(s.prazo) < agora
              ? 'font-medium text-destructive'
              : undefined
          }
        >
          {formatDate(s.prazo)}
        </span>
      ),
    },
    {
      id: 'estado',
      header: 'Estado',
      card: 'aside',
      cell: (s) => (
        <Badge variant={s.estado === 'pendente' ? 'secondary' : 'outline'}>
          {ROTULO[s.estado]}
        </Badge>
      ),
    },
    {
      id: 'decisao',
      header: 'Decisão',
      from: 'xl',
      cell: (s) =>
        s.decidido_em
          ? `${formatDateTime(s.decidido_em)}${s.decidido_por ? ` por ${s.decidido_por}` : ''}${s.motivo ? `: ${s.motivo}` : ''}`
          : '-',
    },
  ]

  return (
    <section aria-labelledby="solicitacoes-lgpd-titulo" className="grid gap-4">
      <h2 id="solicitacoes-lgpd-titulo" className="text-lg font-semibold">
        Solicitações LGPD
      </h2>
      <DataTable
        label="Solicitações LGPD"
        columns={columns}
        rows={lista.data?.rows}
        getRowId={(s) => s.id}
        actions={(s) =>
          s.estado === 'pendente'
            ? [
                {
                  label: 'Executar exclusão',
                  icon: Check,
                  destructive: true,
                  ariaLabel: `Executar exclusão de ${s.cliente_nome ?? s.email}`,
                  onClick: () => setExecutando(s),
                },
                {
                  label: 'Recusar',
                  icon: X,
                  ariaLabel: `Recusar solicitação de ${s.cliente_nome ?? s.email}`,
                  onClick: () => setRecusando(s),
                },
              ]
            : []
        }
        filters={{
          items: [
            {
              kind: 'select',
              id: 'estado',
              label: 'Estado',
              allLabel: 'Pendentes',
              options: ESTADOS.filter((e) => e.value !== 'pendente'),
              value: filtro,
              onChange: (v) => {
                setFiltro(v)
                setPage(1)
              },
            },
          ],
          onClear: () => {
            setFiltro(undefined)
            setPage(1)
          },
        }}
        total={lista.data?.total}
        page={page}
        pageSize={PAGE_SIZE}
        onPageChange={setPage}
        countLabel={(n) => `${n} solicitaç${n === 1 ? 'ão' : 'ões'}`}
        isLoading={lista.isPending}
        isFetching={lista.isFetching}
        isError={lista.isError}
        errorMessage="Não foi possível carregar as solicitações."
        onRetry={() => void lista.refetch()}
        empty={{ title: 'Nenhuma solicitação.' }}
      />
      <ConfirmDialog
        open={executando !== null}
        onOpenChange={(o) => !o && setExecutando(null)}
        title="Executar exclusão"
        description={
          <span>
            A conta, as sessões e os documentos de{' '}
            <strong>{executando?.cliente_nome ?? executando?.email}</strong> serão removidos, e o
            cadastro e os serviços mantidos ficarão anonimizados (“Titular excluído”). Esta ação não
            pode ser desfeita.
          </span>
        }
        confirmLabel="Executar exclusão"
        pendingLabel="Excluindo..."
        pending={concluir.isPending}
        onConfirm={() =>
          executando &&
          concluir.mutate(executando.id, {
            onSuccess: () => {
              notifySuccess('Exclusão concluída.', 'O cliente foi avisado por e-mail.')
              setExecutando(null)
            },
            onError: (err) => notifyFailure('Não foi possível executar a exclusão.', err),
          })
        }
      />
      <RecusarDialog solicitacao={recusando} onClose={() => setRecusando(null)} />
    </section>
  )
}

function RecusarDialog({
  solicitacao,
  onClose,
}: {
  solicitacao: Solicitacao | null
  onClose: () => void
}) {
  const recusar = useRecusarSolicitacao()
  const form = useForm<Recusa>({
    resolver: zodResolver(RecusaSchema),
    defaultValues: { motivo: '' },
  })
  const fechar = () => {
    form.reset({ motivo: '' })
    onClose()
  }
  const enviar = form.handleSubmit((values) => {
    if (!solicitacao) return
    recusar.mutate(
      { id: solicitacao.id, motivo: values.motivo },
      {
        onSuccess: () => {
          notifySuccess('Solicitação recusada.', 'O cliente recebeu o motivo por e-mail.')
          fechar()
        },
        onError: (err) => notifyFailure('Não foi possível recusar a solicitação.', err),
      },
    )
  })
  return (
    <FormDialog
      open={solicitacao !== null}
      onOpenChange={(o) => !o && fechar()}
      title="Recusar solicitação"
      description="O cliente recebe o motivo por e-mail."
      submitLabel="Recusar"
      pending={recusar.isPending}
      dirty={form.formState.isDirty}
      onSubmit={enviar}
    >
      <Field
        label="Motivo"
        htmlFor="recusa-motivo"
        required
        error={form.formState.errors.motivo?.message}
      >
        <Textarea
          id="recusa-motivo"
          rows={3}
          aria-invalid={Boolean(form.formState.errors.motivo)}
          {...form.register('motivo')}
        />
      </Field>
    </FormDialog>
  )
}
