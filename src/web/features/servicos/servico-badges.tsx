import { Badge } from '../../components/ui/badge.tsx'
import { cn } from '../../lib/utils.ts'
import { statusCor } from './status-cor-badge.tsx'
import { adminStatusBadge, diasRestantesBadge } from '#shared/dias-restantes.ts'

/** System statuses with a colour of their own beside SPEC §4's variants. */
const COR_PROPRIA = new Set(['Em renovação'])

/**
 * SPEC §4 "Admin status badge": the status in the theme's variants, chosen by words of its name
 * (the dashboard and the service detail).
 */
export function StatusBadge({ nome, className }: { nome: string | null; className?: string }) {
  const b = adminStatusBadge(nome)
  return (
    <Badge
      variant={b.variant}
      className={cn(nome && COR_PROPRIA.has(nome) && statusCor(nome), className)}
    >
      {b.label}
    </Badge>
  )
}

/** SPEC §4: the Dias Restantes badge. */
export function DiasRestantesBadge({
  vigenciaFim,
  statusNome,
}: {
  vigenciaFim: string | null
  statusNome: string | null
}) {
  const b = diasRestantesBadge(vigenciaFim, statusNome)
  return <Badge variant={b.variant}>{b.label}</Badge>
}

/** SPEC §4: 'Novo' while the administration has not opened the service. */
export function NovoBadge({ className }: { className?: string }) {
  return <Badge className={cn('bg-amber-700 text-white', className)}>Novo</Badge>
}
