import { FileText } from 'lucide-react'
import { Card, CardContent } from '../../components/ui/card.tsx'
import { BaixarDocumentoButton, DocumentoBadge } from './documento-enviado.tsx'
import { DocumentoValidade } from './documento-validade.tsx'
import { formatDate } from '#shared/datas.ts'
import type { DocumentoEnviado } from '#shared/schemas/documentos.ts'
import { badgeExtra } from '#shared/badges-documentos.ts'

/** SPEC §2 "Documentos Disponibilizados": what the administration made available, to download. */
export function DocumentosDisponibilizados({ extras }: { extras: DocumentoEnviado[] }) {
  return (
    <section aria-labelledby="extras-titulo" className="mt-10 grid gap-4">
      <div>
        <h2 id="extras-titulo" className="text-lg font-semibold">
          Documentos Disponibilizados
        </h2>
        <p className="text-sm text-muted-foreground">
          Documentos inseridos pela administração para este serviço.
        </p>
      </div>
      <ul className="grid gap-3">
        {extras.map((d) => (
          <li key={d.id}>
            <ExtraCard doc={d} />
          </li>
        ))}
      </ul>
    </section>
  )
}

function ExtraCard({ doc }: { doc: DocumentoEnviado }) {
  const badge = badgeExtra(doc)
  return (
    <Card className="py-4" role="article" aria-label={doc.tipo}>
      <CardContent className="flex flex-col gap-3 px-5 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 items-start gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
            <FileText className="size-4" />
          </span>
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-2">
              <h3 className="font-medium">{doc.tipo}</h3>
              <DocumentoBadge badge={badge} />
              <DocumentoValidade documento={doc} />
            </div>
            <p className="text-xs text-muted-foreground">
              Disponibilizado em {formatDate(doc.data_envio)}
            </p>
          </div>
        </div>
        <BaixarDocumentoButton doc={doc} tipo={doc.tipo} className="sm:w-auto" />
      </CardContent>
    </Card>
  )
}
