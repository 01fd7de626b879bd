import { Download } from 'lucide-react'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { saveBlob } from '../../lib/api.ts'
import { notifyError } from '../../lib/notify.ts'
import { downloadDocumento } from './api.ts'
import { downloadName } from '#shared/arquivos.ts'
import type { DocumentoEnviado } from '#shared/schemas/documentos.ts'

/** The colours of a document's badge that is not a warning ('Pendente', 'Rejeitado'). */
const CORES: Partial<Record<string, string>> = {
  Aprovado: 'border-green-200 bg-green-100 text-green-800',
  'Em análise': 'border-blue-200 bg-blue-100 text-blue-800',
  Disponível: 'border-emerald-200 bg-emerald-50 text-emerald-800',
}

/** SPEC §4: the badge of a document (`badgeExigido` or `badgeExtra`). */
export function DocumentoBadge({ badge }: { badge: { label: string; destructive: boolean } }) {
  return (
    <Badge
      variant={badge.destructive ? 'destructive' : 'outline'}
      className={badge.destructive ? undefined : CORES[badge.label]}
    >
      {badge.label}
    </Badge>
  )
}

/** 'Baixar': saves the file of a document the client sees, named after its type. */
export function BaixarDocumentoButton({
  doc,
  tipo,
  className,
}: {
  doc: DocumentoEnviado
  /** The type it is named by ("Baixar Contrato Social"). */
  tipo: string
  className?: string
}) {
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={() => void baixar(doc)}
      aria-label={`Baixar ${tipo}`}
      className={className}
    >
      <Download />
      Baixar
    </Button>
  )
}

async function baixar(doc: DocumentoEnviado) {
  try {
    saveBlob(await downloadDocumento(doc.id), downloadName(doc.tipo, doc.arquivo))
  } catch {
    notifyError('Erro', 'Não foi possível baixar o documento.')
  }
}
