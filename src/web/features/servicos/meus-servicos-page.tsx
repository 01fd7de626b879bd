import { useQuery } from '@tanstack/react-query'
import { CalendarDays, ClipboardList, Eye, FileText, Plus } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { useIsMobile } from '../../components/app-shell.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent } from '../../components/ui/card.tsx'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../components/ui/table.tsx'
import { notifyError } from '../../lib/notify.ts'
import { paths } from '../../paths.ts'
import { ClienteStatusBadge } from './cliente-status-badge.tsx'
import { meusServicosQuery } from './api.ts'
import { formatDate } from '#shared/datas.ts'
import type { MeuServico } from '#shared/schemas/servicos.ts'

/** SPEC §2 Meus Serviços: a table on desktop, cards below 768 px. */
export function MeusServicosPage() {
  const { data: servicos, isPending, isError } = useQuery(meusServicosQuery())
  const isMobile = useIsMobile()
  const [detalhe, setDetalhe] = useState<MeuServico | null>(null)

  useEffect(() => {
    if (isError) notifyError('Erro', 'Não foi possível carregar seus serviços.')
  }, [isError])

  const novo = (
    <Button asChild>
      <Link to={paths.usuario.solicitarServico}>
        <Plus />
        Solicitar Serviço
      </Link>
    </Button>
  )

  return (
    <>
      <PageHeader
        title="Meus Serviços"
        description="Acompanhe seus serviços, a vigência de cada um e os documentos enviados."
        actions={servicos && servicos.length > 0 ? novo : undefined}
      />
      {isPending ? (
        <CenteredSpinner label="Carregando serviços..." />
      ) : !servicos || servicos.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 py-10 text-center">
            <span className="flex size-14 items-center justify-center rounded-full bg-primary/10 text-primary">
              <ClipboardList className="size-7" />
            </span>
            <h2 className="text-lg font-semibold">Nenhum serviço encontrado</h2>
            <p className="max-w-sm text-sm text-muted-foreground">
              {isError
                ? 'Não foi possível carregar seus serviços.'
                : 'Você ainda não solicitou nenhum serviço. Comece agora e acompanhe tudo por aqui.'}
            </p>
            <Button asChild className="mt-2">
              <Link to={paths.usuario.solicitarServico}>
                <Plus />
                Solicitar Primeiro Serviço
              </Link>
            </Button>
          </CardContent>
        </Card>
      ) : isMobile ? (
        <ul className="grid gap-3" aria-label="Serviços">
          {servicos.map((s) => (
            <li key={s.id}>
              <Card className="gap-3 py-4">
                <CardContent className="grid gap-3 px-4">
                  <div className="flex items-start justify-between gap-3">
                    <h2 className="font-semibold leading-snug">{s.tipo_servico}</h2>
                    <ClienteStatusBadge nome={s.status} className="max-w-[45%]" />
                  </div>
                  <dl className="grid grid-cols-2 gap-2 text-sm">
                    <div>
                      <dt className="text-xs text-muted-foreground">Vigência Início</dt>
                      <dd className="font-medium">{formatDate(s.vigencia_inicio)}</dd>
                    </div>
                    <div>
                      <dt className="text-xs text-muted-foreground">Vigência Fim</dt>
                      <dd className="font-medium">{formatDate(s.vigencia_fim)}</dd>
                    </div>
                  </dl>
                  <div className="grid grid-cols-2 gap-2">
                    <Button variant="outline" size="sm" onClick={() => setDetalhe(s)}>
                      <Eye />
                      Detalhes
                    </Button>
                    <Button size="sm" asChild>
                      <Link to={paths.usuario.documentos(s.id)}>
                        <FileText />
                        Documentos
                      </Link>
                    </Button>
                  </div>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      ) : (
        <Card className="py-0">
          <Table>
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead className="pl-6">Tipo de Serviço</TableHead>
                <TableHead>Vigência Início</TableHead>
                <TableHead>Vigência Fim</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="pr-6 text-right">Ações</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {servicos.map((s) => (
                <TableRow key={s.id}>
                  <TableCell className="pl-6 font-medium">{s.tipo_servico}</TableCell>
                  <TableCell>{formatDate(s.vigencia_inicio)}</TableCell>
                  <TableCell>{formatDate(s.vigencia_fim)}</TableCell>
                  <TableCell>
                    <ClienteStatusBadge nome={s.status} />
                  </TableCell>
                  <TableCell className="pr-6">
                    <div className="flex justify-end gap-1">
                      <Button
                        variant="ghost"
                        size="icon"
                        onClick={() => setDetalhe(s)}
                        aria-label={`Ver detalhes de ${s.tipo_servico}`}
                        title="Ver detalhes"
                      >
                        <Eye />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon"
                        asChild
                        aria-label={`Documentos de ${s.tipo_servico}`}
                        title="Documentos"
                      >
                        <Link to={paths.usuario.documentos(s.id)}>
                          <FileText />
                        </Link>
                      </Button>
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
      <DetalhesDialog servico={detalhe} onClose={() => setDetalhe(null)} />
    </>
  )
}

/** SPEC §2: type, protocolo and detalhes when present, the two dates, and the documents button. */
function DetalhesDialog({ servico, onClose }: { servico: MeuServico | null; onClose: () => void }) {
  return (
    <Dialog open={servico !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        {servico && (
          <>
            <DialogHeader>
              <DialogTitle className="pr-6 leading-snug">{servico.tipo_servico}</DialogTitle>
              <DialogDescription>Detalhes do serviço</DialogDescription>
            </DialogHeader>
            <dl className="grid gap-4 text-sm">
              <div className="flex items-center gap-2">
                <dt className="sr-only">Status</dt>
                <dd>
                  <ClienteStatusBadge nome={servico.status} />
                </dd>
              </div>
              {servico.protocolo && (
                <div>
                  <dt className="text-xs font-medium text-muted-foreground">Protocolo</dt>
                  <dd className="font-medium">{servico.protocolo}</dd>
                </div>
              )}
              <div className="grid grid-cols-2 gap-4">
                <div>
                  <dt className="flex items-center gap-1 text-xs font-medium text-muted-foreground">
                    <CalendarDays className="size-3.5" />
                    Vigência Início
                  </dt>
                  <dd className="font-medium">{formatDate(servico.vigencia_inicio)}</dd>
                </div>
                <div>
                  <dt className="flex items-center gap-1 text-xs font-medium text-muted-foreground">
                    <CalendarDays className="size-3.5" />
                    Vigência Fim
                  </dt>
                  <dd className="font-medium">{formatDate(servico.vigencia_fim)}</dd>
                </div>
              </div>
              {servico.detalhes && (
                <div>
                  <dt className="text-xs font-medium text-muted-foreground">Detalhes</dt>
                  <dd className="mt-1 rounded-md bg-muted/60 p-3 whitespace-pre-wrap">
                    {servico.detalhes}
                  </dd>
                </div>
              )}
            </dl>
            <DialogFooter>
              <Button asChild>
                <Link to={paths.usuario.documentos(servico.id)}>
                  <FileText />
                  Ver / Enviar Documentos
                </Link>
              </Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}
