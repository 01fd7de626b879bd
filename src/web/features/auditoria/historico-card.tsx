import { useInfiniteQuery } from '@tanstack/react-query'
import { History } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx'
import { Label } from '../../components/ui/label.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { Switch } from '../../components/ui/switch.tsx'
import { historicoClienteQuery, historicoQuery } from './api.ts'
import { formatDateTimeIn } from '#shared/datas.ts'

/**
 * The "Histórico" card of a service: its changes newest first, in Portuguese, with "Ver mais";
 * "Mostrar consultas" adds who opened it, its documents and downloads. `cliente`: the client's
 * filtered timeline of its own service (never the reads).
 */
export function HistoricoCard({
  servicoId,
  cliente = false,
}: {
  servicoId: string
  cliente?: boolean
}) {
  const [consultas, setConsultas] = useState(false)
  const consultasId = useId()
  const q = useInfiniteQuery(
    cliente ? historicoClienteQuery(servicoId) : historicoQuery(servicoId, consultas),
  )
  const rows = q.data?.pages.flatMap((p) => p.rows) ?? []
  return (
    <Card
      className="gap-4"
      role="region"
      aria-label={cliente ? 'Andamento do serviço' : 'Histórico'}
    >
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <History className="size-5 text-muted-foreground" aria-hidden />
          {cliente ? 'Andamento do serviço' : 'Histórico'}
        </CardTitle>
        <CardDescription>
          {cliente ? 'O andamento do seu serviço.' : 'Quem fez o quê neste serviço.'}
        </CardDescription>
        {!cliente && (
          <div className="flex items-center gap-2 pt-1">
            <Switch id={consultasId} checked={consultas} onCheckedChange={setConsultas} />
            <Label htmlFor={consultasId} className="font-normal">
              Mostrar consultas
            </Label>
          </div>
        )}
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
