import { useQuery } from '@tanstack/react-query'
import { ChevronLeft, ChevronRight, FileText } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { Button } from '../../components/ui/button.tsx'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx'
import { paths } from '../../paths.ts'
import { buscaDocumentosQuery } from './api.ts'
import { DocumentoBadge } from './documento-enviado.tsx'
import { formatDateTime } from '#shared/datas.ts'
import type { DocumentoEncontrado } from '#shared/schemas/documentos.ts'
import { badgeExigido } from '#shared/badges-documentos.ts'

/**
 * Under the dashboard's "Buscar": the documents whose type or file name has the words typed (the
 * dashboard's own list finds services by client, type and protocol). Each opens its service.
 * Nothing while nothing is found.
 */
export function DocumentosEncontrados({ q }: { q: string }) {
  // Back to the first page whenever the words change.
  const [pagina, setPagina] = useState({ q, page: 1 })
  const page = pagina.q === q ? pagina.page : 1
  const busca = useQuery(buscaDocumentosQuery(q, page))
  const data = busca.data
  if (!data?.total) return null
  const paginas = Math.ceil(Math.min(data.total, 1000) / data.page_size)
  const total =
    data.total > 1000
      ? 'mais de 1.000 documentos'
      : `${data.total} ${data.total === 1 ? 'documento' : 'documentos'}`
  return (
    <section aria-labelledby="documentos-encontrados" className="mt-6">
      <Card>
        <CardHeader>
          <CardTitle id="documentos-encontrados">Documentos encontrados</CardTitle>
          <CardDescription>
            {total} com “{q}” no tipo ou no nome do arquivo.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="divide-y" aria-label="Documentos encontrados">
            {data.rows.map((d) => (
              <Encontrado key={d.id} d={d} />
            ))}
          </ul>
          {paginas > 1 && (
            <nav
              aria-label="Páginas de documentos"
              className="mt-3 flex items-center justify-end gap-2 text-sm"
            >
              <span className="text-muted-foreground">
                Página {page} de {paginas}
              </span>
              <Button
                variant="outline"
                size="sm"
                disabled={page <= 1}
                onClick={() => setPagina({ q, page: page - 1 })}
                aria-label="Documentos: página anterior"
              >
                <ChevronLeft />
              </Button>
              <Button
                variant="outline"
                size="sm"
                disabled={page >= paginas}
                onClick={() => setPagina({ q, page: page + 1 })}
                aria-label="Documentos: próxima página"
              >
                <ChevronRight />
              </Button>
            </nav>
          )}
        </CardContent>
      </Card>
    </section>
  )
}

function Encontrado({ d }: { d: DocumentoEncontrado }) {
  return (
    <li className="flex items-start gap-3 py-3 first:pt-0 last:pb-0">
      <FileText className="mt-1 size-4 shrink-0 text-primary" aria-hidden />
      <div className="min-w-0 flex-1">
        <Link
          to={paths.admin.servico(d.servico_id)}
          className="font-medium break-words text-foreground hover:underline"
        >
          {d.tipo}
        </Link>
        <p className="text-sm break-all text-muted-foreground">{d.arquivo}</p>
        <p className="text-xs text-muted-foreground">
          {d.cliente_nome} · {d.tipo_servico}
          {d.protocolo && ` (${d.protocolo})`} ·{' '}
          {d.enviado_por === 'cliente' ? 'enviado pelo cliente' : 'enviado pela consultoria'} em{' '}
          {formatDateTime(d.enviado_em)}
        </p>
      </div>
      {d.enviado_por === 'cliente' && <DocumentoBadge badge={badgeExigido(d)} />}
    </li>
  )
}
