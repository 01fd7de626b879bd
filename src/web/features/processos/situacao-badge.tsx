import { Badge } from '../../components/ui/badge.tsx'
import { ROTULO_SITUACAO_EXIGENCIA, type SituacaoExigencia } from '#shared/processo.ts'

/** An exigência's "Situação": Aberta, Respondida or Vencida (red). */
export function SituacaoBadge({ situacao }: { situacao: SituacaoExigencia }) {
  const variant =
    situacao === 'vencida' ? 'destructive' : situacao === 'respondida' ? 'secondary' : 'outline'
  return <Badge variant={variant}>{ROTULO_SITUACAO_EXIGENCIA[situacao]}</Badge>
}
