import { Badge } from '../../components/ui/badge.tsx'
import { REAPROVEITADO } from '#shared/renovacao.ts'
import { validadeDocumento } from '#shared/renovacao.ts'

/**
 * Beside a document wherever it is listed: "Reaproveitado da licença anterior" (a renewal reused
 * it) and its validity, "Válido até …" / "Vencido em …" (none when its type never expires).
 */
export function DocumentoValidade({
  documento,
}: {
  documento: { reaproveitado: boolean; valido_ate: string | null }
}) {
  const validade = validadeDocumento(documento.valido_ate)
  if (!documento.reaproveitado && !validade) return null
  return (
    <span className="flex flex-wrap items-center gap-1">
      {documento.reaproveitado && (
        <Badge variant="outline" className="whitespace-normal">
          {REAPROVEITADO}
        </Badge>
      )}
      {validade && (
        <Badge variant={validade.vencido ? 'destructive' : 'secondary'}>{validade.texto}</Badge>
      )}
    </span>
  )
}
