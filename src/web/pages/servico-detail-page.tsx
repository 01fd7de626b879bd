import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { buttonVariants } from '../components/ui/button.tsx'
import { CenteredSpinner } from '../components/ui/spinner.tsx'
import { ApiError } from '../lib/api.ts'
import { notifyError } from '../lib/notify.ts'
import { paths } from '../paths.ts'
import { AvisosCard } from '../features/avisos/avisos-card.tsx'
import { cadastroOptionsQuery } from '../features/cadastros/api.ts'
import { HistoricoCard } from '../features/auditoria/historico-card.tsx'
import { MensagensCard } from '../features/mensagens/mensagens-card.tsx'
import { DocumentosCard } from '../features/documentos/documentos-card.tsx'
import { CondicionantesCard } from '../features/condicionantes/condicionantes-card.tsx'
import { ProcessoCard } from '../features/processos/processo-card.tsx'
import { RenovacaoCard } from '../features/renovacoes/renovacao-card.tsx'
import { filtrosQuery, servicoQuery } from '../features/servicos/api.ts'
import { ServicoDetail } from '../features/servicos/servico-detail.tsx'
import type { Orgao, TipoServico } from '#shared/schemas/cadastros.ts'

/** SPEC §2 Service detail (admin). Opening it marks the service as seen. Its Mensagens and Histórico. */
export function ServicoDetailPage() {
  const { servicoId = '' } = useParams()
  const navigate = useNavigate()
  const detalhe = useQuery(servicoQuery(servicoId))
  const filtros = useQuery(filtrosQuery())
  const tipos = useQuery(cadastroOptionsQuery<TipoServico>('tipos-servicos'))
  const orgaos = useQuery(cadastroOptionsQuery<Orgao>('orgaos'))

  useEffect(() => {
    if (!detalhe.isError) return
    if (
      detalhe.error instanceof ApiError &&
      (detalhe.error.status === 404 || detalhe.error.status === 400)
    ) {
      notifyError('Erro', 'Serviço não encontrado.')
      navigate(paths.admin.servicos, { replace: true })
    } else {
      notifyError('Erro', 'Não foi possível carregar os dados.')
    }
  }, [detalhe.isError, detalhe.error, navigate])

  if (detalhe.isPending) return <CenteredSpinner />
  if (!detalhe.data)
    return (
      <div className="py-16 text-center text-muted-foreground">
        <p>Não foi possível carregar os dados.</p>
        <Link to={paths.admin.servicos} className={buttonVariants({ variant: 'link' })}>
          Voltar para o Dashboard
        </Link>
      </div>
    )
  const servico = detalhe.data
  return (
    <ServicoDetail
      key={servico.id}
      servico={servico}
      main={
        <>
          <DocumentosCard
            servicoId={servico.id}
            tipoServico={servico.tipo}
            protocolo={servico.protocolo}
            tiposDocumentos={filtros.data?.tipos_documentos}
          />
          <CondicionantesCard servicoId={servico.id} />
          <MensagensCard servicoId={servico.id} lado="consultoria" />
        </>
      }
      aside={
        <>
          <ProcessoCard
            servicoId={servico.id}
            orgaos={orgaos.data}
            tiposDocumentos={filtros.data?.tipos_documentos}
          />
          <RenovacaoCard
            servicoId={servico.id}
            tipoServicoId={servico.tipo_servico_id}
            tipos={tipos.data}
          />
          <AvisosCard servicoId={servico.id} />
          <HistoricoCard servicoId={servico.id} />
        </>
      }
    />
  )
}
