import { useQuery } from '@tanstack/react-query'
import { BellRing, CalendarClock, ClipboardCheck, FileWarning } from 'lucide-react'
import { Link } from 'react-router'
import { paths } from '../../paths.ts'
import { resumoMeusServicosQuery } from './api.ts'
import { diasRestantes, isArquivado } from '#shared/dias-restantes.ts'
import type { MeuServico, ResumoMeusServicos } from '#shared/schemas/servicos.ts'
import { aguardaDocumentos } from '#shared/meus-servicos.ts'

// Meus Serviços' summary: what needs the client now, each count a link to its filter.

/** The summary's filters of the list (`?filtro=`), the same rules as its SQL counts. */
export const FILTROS = {
  documentos: {
    titulo: 'Serviços aguardando documentos',
    aplica: (s: MeuServico) => !isArquivado(s.status) && aguardaDocumentos(s),
  },
  vencendo: {
    titulo: 'Serviços que vencem nos próximos 120 dias',
    aplica: (s: MeuServico) => {
      const dias = diasRestantes(s.vigencia_fim, s.status)
      return !isArquivado(s.status) && dias !== null && dias >= 0 && dias <= 120
    },
  },
  avisos: {
    titulo: 'Serviços com avisos em aberto',
    aplica: (s: MeuServico) => s.avisos_abertos > 0,
  },
} as const
export type Filtro = keyof typeof FILTROS

export const plural = (n: number, um: string, varios: string) => (n === 1 ? um : varios)

/**
 * What needs the client now, counted by the server; each count opens its screen (the
 * documents of the one service concerned, else the list filtered to those services).
 */
export function Resumo({ servicos }: { servicos: MeuServico[] }) {
  const { data } = useQuery(resumoMeusServicosQuery())
  return <ResumoCards servicos={servicos} r={data ?? RESUMO_VAZIO} />
}

/** The summary's room while the list loads (the list does not move when the counts come). */
export function ResumoReservado() {
  return (
    <div className="invisible" aria-hidden>
      <ResumoCards servicos={[]} r={RESUMO_VAZIO} />
    </div>
  )
}

const RESUMO_VAZIO: ResumoMeusServicos = {
  precisam_documentos: 0,
  vencendo: 0,
  avisos_abertos: 0,
  condicionantes_a_cumprir: 0,
  condicionantes_atrasadas: 0,
}

function ResumoCards({ servicos, r }: { servicos: MeuServico[]; r: ResumoMeusServicos }) {
  const documentos = servicos.filter(FILTROS.documentos.aplica)
  const itens = [
    {
      n: r.precisam_documentos,
      texto: plural(
        r.precisam_documentos,
        'serviço aguardando documentos',
        'serviços aguardando documentos',
      ),
      to:
        documentos.length === 1
          ? paths.usuario.documentos(documentos[0].id)
          : `${paths.usuario.dashboard}?filtro=documentos`,
      icon: FileWarning,
      cor: 'text-amber-700 bg-amber-100',
    },
    {
      n: r.vencendo,
      texto: plural(r.vencendo, 'vence nos próximos 120 dias', 'vencem nos próximos 120 dias'),
      to: `${paths.usuario.dashboard}?filtro=vencendo`,
      icon: CalendarClock,
      cor: 'text-red-700 bg-red-100',
    },
    {
      n: r.avisos_abertos,
      texto: plural(r.avisos_abertos, 'aviso em aberto', 'avisos em aberto'),
      to: `${paths.usuario.dashboard}?filtro=avisos`,
      icon: BellRing,
      cor: 'text-blue-700 bg-blue-100',
    },
  ]
  const aCumprir = r.condicionantes_a_cumprir
  const atrasadas = r.condicionantes_atrasadas
  return (
    <>
      <ResumoItens itens={itens} />
      {aCumprir + atrasadas > 0 && (
        <section
          aria-label="Condicionantes a cumprir"
          className="-mt-3 mb-6 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl border bg-card px-3 py-2.5 text-sm shadow-xs sm:px-4"
        >
          <ClipboardCheck className="size-4 shrink-0 text-primary" />
          <span className="font-medium">Condicionantes a cumprir:</span>
          <span>{aCumprir} nos próximos 30 dias</span>
          {atrasadas > 0 && (
            <span className="font-medium text-red-700">
              {atrasadas} {plural(atrasadas, 'atrasada', 'atrasadas')}
            </span>
          )}
          <span className="w-full text-xs text-muted-foreground sm:w-auto">
            Veja cada uma em Documentos do serviço.
          </span>
        </section>
      )}
    </>
  )
}

function ResumoItens({
  itens,
}: {
  itens: { n: number; texto: string; to: string; icon: typeof FileWarning; cor: string }[]
}) {
  return (
    <section aria-label="Resumo" className="mb-6 grid grid-cols-3 gap-2 sm:gap-3">
      {itens.map(({ n, texto, to, icon: Icon, cor }) => {
        const conteudo = (
          <>
            <span
              className={`flex size-8 shrink-0 items-center justify-center rounded-full sm:size-10 ${cor}`}
            >
              <Icon className="size-4 sm:size-5" />
            </span>
            <span className="min-w-0">
              <span className="block text-2xl leading-none font-bold">{n}</span>
              <span className="mt-1 block text-xs leading-tight text-muted-foreground sm:mt-0 sm:inline sm:text-sm sm:leading-normal">
                {texto}
              </span>
            </span>
          </>
        )
        // Three side by side on a phone too (stacked inside), so the services stay in view.
        const base =
          'flex flex-col items-start gap-2 rounded-xl border bg-card p-3 shadow-xs sm:flex-row sm:items-center sm:gap-3 sm:p-4'
        return n > 0 ? (
          <Link key={texto} to={to} className={`${base} transition-colors hover:bg-accent`}>
            {conteudo}
          </Link>
        ) : (
          <div key={texto} className={base}>
            {conteudo}
          </div>
        )
      })}
    </section>
  )
}
