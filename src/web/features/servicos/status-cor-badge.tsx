import { Badge } from '../../components/ui/badge.tsx'
import { cn } from '../../lib/utils.ts'

/** SPEC §4: badge colours of the client's service list, by status name. */
const CORES: Record<string, string> = {
  'Em andamento': 'bg-blue-100 text-blue-800 border-blue-200',
  'Aguardando cliente': 'bg-yellow-100 text-yellow-800 border-yellow-200',
  'Protocolado no órgão ambiental': 'bg-purple-100 text-purple-800 border-purple-200',
  Entregue: 'bg-green-100 text-green-800 border-green-200',
  Vencido: 'bg-red-100 text-red-800 border-red-200',
  'Em renovação': 'bg-teal-100 text-teal-800 border-teal-200',
}
const CINZA = 'bg-gray-100 text-gray-700 border-gray-200'

export function statusCor(nome: string | null | undefined) {
  return (nome && CORES[nome]) || CINZA
}

/** The status of a service in its colour (Meus Serviços); 'Sem status' when it has none. */
export function StatusCorBadge({
  nome,
  className,
}: {
  nome: string | null | undefined
  className?: string
}) {
  return (
    <Badge
      variant="outline"
      className={cn('whitespace-normal text-center', statusCor(nome), className)}
    >
      {nome || 'Sem status'}
    </Badge>
  )
}
