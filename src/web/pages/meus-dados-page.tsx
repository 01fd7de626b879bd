import { useQuery } from '@tanstack/react-query'
import { startTransition, useDeferredValue, useEffect, useState } from 'react'
import { PageHeader } from '../components/page-header.tsx'
import { CenteredSpinner } from '../components/ui/spinner.tsx'
import { notifyError } from '../lib/notify.ts'
import { useMe } from '../lib/session.ts'
import { meusDadosQuery } from '../features/clientes/api.ts'
import { MeusDadosForm } from '../features/clientes/meus-dados-form.tsx'
import { AlterarSenhaCard } from '../features/conta/alterar-senha-card.tsx'
import { SegurancaCard } from '../features/conta/dois-fatores.tsx'
import { SessoesCard } from '../features/conta/sessoes-card.tsx'
import { NotificacoesCard } from '../features/notificacoes/notificacoes-card.tsx'
import { PrivacidadeCard } from '../features/privacidade/privacidade-card.tsx'

/**
 * SPEC §2 Meus Dados: the client's record (clientes), and of conta the change-password form, the
 * second factor ("Segurança") and the open sessions; of notificacoes the e-mail choices
 * ("Notificações"); of privacidade "Privacidade e dados".
 */
export function MeusDadosPage() {
  const { data: me } = useMe()
  const { data, isPending, isError } = useQuery(meusDadosQuery())
  // The record's arrival draws the form in a deferred render: React draws it in slices, giving the
  // phone's main thread back between them, instead of one long task (the masks, the fields).
  const loaded = useDeferredValue(!isPending && !!me)
  // The cards below the form (the password's, then those that ask for their own data: sessions,
  // e-mail choices, privacy) are drawn once the form is on screen, in a render of their own, so the screen's content comes
  // first and their requests follow it (issue 32: at most 10 requests before a client screen shows).
  const [below, setBelow] = useState(false)
  useEffect(() => {
    if (loaded) startTransition(() => setBelow(true))
  }, [loaded])

  useEffect(() => {
    if (isError) notifyError('Erro', 'Não foi possível carregar seus dados.')
  }, [isError])

  return (
    <div className="mx-auto w-full max-w-4xl">
      <PageHeader
        title="Meus Dados"
        description="Mantenha seus dados cadastrais e endereço atualizados."
      />
      {!loaded || !me ? (
        <CenteredSpinner label="Carregando seus dados..." />
      ) : (
        <div className="grid gap-6">
          <MeusDadosForm
            key={data?.cliente?.id ?? 'novo'}
            cliente={data?.cliente ?? null}
            email={me.user.email}
          />
          {below && (
            <>
              <AlterarSenhaCard />
              <SegurancaCard />
              <SessoesCard />
              <NotificacoesCard />
              <PrivacidadeCard />
            </>
          )}
        </div>
      )}
    </div>
  )
}
