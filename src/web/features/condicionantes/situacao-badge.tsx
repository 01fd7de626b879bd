import { FileDown } from 'lucide-react'
import { Badge } from '../../components/ui/badge.tsx'
import { buttonVariants } from '../../components/ui/button.tsx'
import { relatorioUrl } from './api.ts'
import { cn } from '../../lib/utils.ts'
import { ROTULO_SITUACAO, type SituacaoEntrega } from '#shared/condicionantes.ts'

/** The traffic light of an entrega: verde no prazo, amarelo próxima, vermelho atrasada. */
const COR: Record<SituacaoEntrega, string> = {
  no_prazo: 'border-green-300 bg-green-50 text-green-800',
  proxima: 'border-amber-300 bg-amber-50 text-amber-900',
  atrasada: 'border-red-300 bg-red-50 text-red-800',
  em_analise: 'border-sky-300 bg-sky-50 text-sky-900',
  cumprida: 'border-green-600 bg-green-600 text-white',
  nao_se_aplica: 'border-slate-300 bg-slate-100 text-slate-700',
}

export function SituacaoBadge({ situacao }: { situacao: SituacaoEntrega }) {
  return (
    <Badge variant="outline" className={cn(COR[situacao])} data-situacao={situacao}>
      <span
        aria-hidden
        className={cn(
          'size-2 rounded-full',
          situacao === 'no_prazo' || situacao === 'cumprida'
            ? 'bg-green-600'
            : situacao === 'proxima'
              ? 'bg-amber-500'
              : situacao === 'atrasada'
                ? 'bg-red-600'
                : 'bg-slate-400',
          situacao === 'cumprida' && 'bg-white',
        )}
      />
      {ROTULO_SITUACAO[situacao]}
    </Badge>
  )
}

/** The report's two downloads, on the card of the service detail and on the client's. */
export function RelatorioLinks({ servicoId }: { servicoId: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-muted-foreground">Relatório de cumprimento:</span>
      {(['pdf', 'xlsx'] as const).map((f) => (
        <a
          key={f}
          href={relatorioUrl(servicoId, f)}
          download
          className={buttonVariants({ variant: 'outline', size: 'sm' })}
          aria-label={`Baixar o relatório de cumprimento de condicionantes em ${f.toUpperCase()}`}
        >
          <FileDown />
          {f.toUpperCase()}
        </a>
      ))}
    </div>
  )
}
