import { startTransition, useEffect, useState } from 'react'
import type { ClienteDados } from '#shared/schemas/clientes.ts'
import { MeusDadosForm } from '../features/clientes/meus-dados-form.tsx'
import { AlterarSenhaCard } from '../features/conta/alterar-senha-card.tsx'
import { SegurancaCard } from '../features/conta/dois-fatores.tsx'
import { SessoesCard } from '../features/conta/sessoes-card.tsx'
import { NotificacoesCard } from '../features/notificacoes/notificacoes-card.tsx'
import { PrivacidadeCard } from '../features/privacidade/privacidade-card.tsx'

/** The cards below the form, in the screen's order. */
const CARDS = [AlterarSenhaCard, SegurancaCard, SessoesCard, NotificacoesCard, PrivacidadeCard]

/**
 * What Meus Dados shows once the record has come: the form, then the cards below it. It travels
 * in the `forms` chunk (its validation, masks and form library), loaded beside the page's frame.
 */
export function MeusDadosConteudo({
  cliente,
  email,
}: {
  cliente: ClienteDados | null
  email: string
}) {
  // The cards below the form (the password's, then those that ask for their own data: sessions,
  // e-mail choices, privacy) are drawn once the form is on screen, one per render of their own, so
  // the screen's content comes first, their requests follow it (issue 32: at most 10 requests
  // before a client screen shows) and no commit of them all at once holds a phone's main thread.
  const [shown, setShown] = useState(0)
  useEffect(() => {
    if (shown < CARDS.length) startTransition(() => setShown(shown + 1))
  }, [shown])

  return (
    <div className="grid gap-6">
      <MeusDadosForm key={cliente?.id ?? 'novo'} cliente={cliente} email={email} />
      {CARDS.slice(0, shown).map((CardAbaixo, i) => (
        <CardAbaixo key={i} />
      ))}
    </div>
  )
}
