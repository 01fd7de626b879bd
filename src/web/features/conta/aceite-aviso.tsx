import { useQueryClient } from '@tanstack/react-query'
import { Leaf, Loader2 } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx'
import { ApiError } from '../../lib/api.ts'
import { notifyError } from '../../lib/notify.ts'
import { contaKeys } from '../../lib/query-keys.ts'
import { signOut, useMe } from '../../lib/session.ts'
import { acceptNotice } from './api.ts'
import { ACEITE_TEXTO } from '#shared/schemas/conta.ts'

/**
 * Issue 15: a client who accepted an older privacy notice and terms accepts the current version
 * here, after signing in and before entering the app (`aceite_pendente` of `/api/me`).
 */
export function AceiteAvisoGate({ children }: { children: ReactNode }) {
  const { data: me } = useMe()
  if (!me?.aceite_pendente) return children
  return <AceiteAvisoScreen />
}

function AceiteAvisoScreen() {
  const queryClient = useQueryClient()
  const [aceito, setAceito] = useState(false)
  const [erro, setErro] = useState(false)
  const [enviando, setEnviando] = useState(false)
  const onContinue = async () => {
    if (!aceito) return setErro(true)
    setEnviando(true)
    try {
      await acceptNotice()
      await queryClient.invalidateQueries({ queryKey: contaKeys.me() })
    } catch (err) {
      notifyError('Erro', err instanceof ApiError ? err.message : 'Ocorreu um erro inesperado.')
    } finally {
      setEnviando(false)
    }
  }
  return (
    <main className="flex min-h-svh items-center justify-center bg-gradient-to-br from-emerald-50 via-background to-teal-50 p-4">
      <div className="w-full max-w-lg">
        <a href="/" className="mb-6 flex items-center justify-center gap-2 text-lg font-semibold">
          <span className="flex size-9 items-center justify-center rounded-lg bg-primary text-primary-foreground">
            <Leaf className="size-5" />
          </span>
          Portal do Cliente
        </a>
        <Card>
          <CardHeader>
            <h1 className="text-xl leading-none font-semibold">
              Atualizamos nossa Política de Privacidade
            </h1>
            <CardDescription>
              Para continuar usando o portal, leia e aceite a nova versão da Política de Privacidade
              e dos Termos de Uso.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <div className="grid gap-1">
              <div className="flex items-start gap-2">
                <input
                  id="aceite-aviso"
                  type="checkbox"
                  className="mt-0.5 size-4 shrink-0 accent-primary"
                  checked={aceito}
                  aria-invalid={erro && !aceito}
                  onChange={(e) => {
                    setAceito(e.target.checked)
                    setErro(false)
                  }}
                />
                <label htmlFor="aceite-aviso" className="text-sm leading-snug">
                  Li e aceito a{' '}
                  <a
                    href="/privacidade"
                    target="_blank"
                    rel="noopener"
                    className="text-primary underline"
                  >
                    Política de Privacidade
                  </a>{' '}
                  e os{' '}
                  <a
                    href="/termos"
                    target="_blank"
                    rel="noopener"
                    className="text-primary underline"
                  >
                    Termos de Uso
                  </a>
                </label>
              </div>
              {erro && !aceito && (
                <p className="text-xs text-destructive">Marque “{ACEITE_TEXTO}” para continuar.</p>
              )}
            </div>
            <Button type="button" onClick={() => void onContinue()} disabled={enviando}>
              {enviando && <Loader2 className="animate-spin" />}
              Continuar
            </Button>
            <button
              type="button"
              onClick={() => void signOut()}
              className="cursor-pointer justify-self-center text-sm text-muted-foreground hover:underline"
            >
              Sair
            </button>
          </CardContent>
        </Card>
      </div>
    </main>
  )
}
