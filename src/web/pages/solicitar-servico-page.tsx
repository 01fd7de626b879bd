import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { PageHeader } from '../components/page-header.tsx'
import { CenteredSpinner } from '../components/ui/spinner.tsx'
import { notifyError } from '../lib/notify.ts'
import { paths } from '../paths.ts'
import { meusDadosQuery } from '../features/clientes/api.ts'
import { SolicitarServicoWizard } from '../features/servicos/solicitar-servico-wizard.tsx'

/** SPEC §2, §4 Solicitar Serviço: the client record check, then a 3-step wizard. */
export function SolicitarServicoPage() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [ready, setReady] = useState(false)
  const checked = useRef(false)

  useEffect(() => {
    if (checked.current) return
    checked.current = true
    const toMeusDados = () => navigate(paths.usuario.meusDados, { replace: true })
    queryClient
      .fetchQuery({ ...meusDadosQuery(), staleTime: 0 })
      .then(({ cliente }) => {
        // SPEC §8: no record is a failed lookup ('Cadastro necessário'); a record missing
        // nome, documento or email is incomplete.
        if (!cliente) {
          notifyError('Cadastro necessário', 'Complete seu cadastro antes de solicitar serviços.')
          return toMeusDados()
        }
        if (!cliente.nome.trim() || !cliente.documento.trim() || !cliente.email.trim()) {
          notifyError(
            'Cadastro incompleto',
            'Por favor, complete seus dados pessoais antes de solicitar um serviço.',
          )
          return toMeusDados()
        }
        setReady(true)
      })
      .catch(() => {
        notifyError('Cadastro necessário', 'Complete seu cadastro antes de solicitar serviços.')
        toMeusDados()
      })
  }, [navigate, queryClient])

  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageHeader
        title="Solicitar Serviço"
        description="Escolha o serviço ambiental que você precisa em três passos."
      />
      {ready ? <SolicitarServicoWizard /> : <CenteredSpinner label="Verificando seu cadastro..." />}
    </div>
  )
}
