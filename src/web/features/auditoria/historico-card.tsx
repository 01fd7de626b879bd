import { useInfiniteQuery } from '@tanstack/react-query'
import { History } from 'lucide-react'
import { Button } from '../../components/ui/button.tsx'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { historicoClienteQuery, historicoQuery } from './api.ts'
import { formatDateTimeIn } from '#shared/datas.ts'

/**
 * The "Histórico" card of a service: its events newest first, in Portuguese, with
 * "Ver mais". `cliente`: the client's filtered timeline of its own service.
 */
export function HistoricoCard({
  servicoId,
  cliente = false,
}: {
  servicoId: string
  cliente?: boolean
}) {
  const q = useInfiniteQuery(cliente ? historicoClienteQuery(servicoId) : historicoQuery(servicoId))
  const rows = q.data?.pages.flatMap((p) => p.rows) ?? []
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <History className="size-5 text-muted-foreground" aria-hidden />
          {cliente ? 'Andamento do serviço' : 'Histórico'}
        </CardTitle>
        <CardDescription>
          {cliente ? 'O andamento do seu serviço.' : 'Quem fez o quê neste serviço.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {q.isPending ? (
          <Spinner label="Carregando histórico..." />
        ) : q.isError ? (
          <p className="text-sm text-destructive">Não foi possível carregar o histórico.</p>
        ) : rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nenhum evento registrado.</p>
        ) : (
          <ol
            aria-label={cliente ? 'Andamento do serviço' : 'Histórico do serviço'}
            className="grid gap-3"
          >
            {rows.map((e) => (
              <li key={e.id} className="grid gap-0.5 border-l-2 border-muted pl-3">
                <time dateTime={e.em} className="text-xs text-muted-foreground">
                  {formatDateTimeIn(new Date(e.em))}
                </time>
                <span className="text-sm break-words">{e.descricao}</span>
              </li>
            ))}
          </ol>
        )}
        {q.hasNextPage && (
          <Button
            variant="outline"
            size="sm"
            className="justify-self-start"
            disabled={q.isFetchingNextPage}
            onClick={() => void q.fetchNextPage()}
          >
            {q.isFetchingNextPage ? 'Carregando...' : 'Ver mais'}
          </Button>
        )}
      </CardContent>
    </Card>
  )
}
