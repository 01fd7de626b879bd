import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useDeferredValue, useEffect } from 'react'
import { PageHeader } from '../components/page-header.tsx'
import { CenteredSpinner } from '../components/ui/spinner.tsx'
import { depoisDaPintura } from '../lib/depois-da-pintura.ts'
import { notifyError } from '../lib/notify.ts'
import { useMe } from '../lib/session.ts'
import { meusDadosQuery } from '../features/clientes/api.ts'

/** The form and the cards: the `forms` chunk. */
const carregarConteudo = () => import('./meus-dados-conteudo.tsx')
const MeusDadosConteudo = lazy(() =>
  carregarConteudo().then((m) => ({ default: m.MeusDadosConteudo })),
)

/**
 * SPEC §2 Meus Dados: the client's record (clientes), and of conta the change-password form, the
 * second factor ("Segurança") and the open sessions; of notificacoes the e-mail choices
 * ("Notificações"); of privacidade "Privacidade e dados". The page's frame (its title, a spinner)
 * is a small chunk of its own, drawn before the form's code has come.
 */
export function MeusDadosPage() {
  const { data: me } = useMe()
  const { data, isPending, isError } = useQuery(meusDadosQuery())
  // The record's arrival draws the form in a deferred render: React draws it in slices, giving the
  // phone's main thread back between them, instead of one long task (the masks, the fields).
  const loaded = useDeferredValue(!isPending && !!me)

  useEffect(() => {
    if (isError) notifyError('Erro', 'Não foi possível carregar seus dados.')
  }, [isError])
  // The form's code is asked for once the frame has been painted (a frame, then a task), beside
  // the record: the title is what a phone paints first, and fetching and evaluating that large
  // chunk before the paint would hold it back.
  useEffect(() => depoisDaPintura(() => void carregarConteudo()), [])

  const spinner = <CenteredSpinner label="Carregando seus dados..." />
  return (
    <div className="mx-auto w-full max-w-4xl">
      <PageHeader
        title="Meus Dados"
        description="Mantenha seus dados cadastrais e endereço atualizados."
      />
      {!loaded || !me ? (
        spinner
      ) : (
        <Suspense fallback={spinner}>
          <MeusDadosConteudo cliente={data?.cliente ?? null} email={me.user.email} />
        </Suspense>
      )}
    </div>
  )
}
