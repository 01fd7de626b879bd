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
import { AceiteCampo } from './aceite-campo.tsx'
import { formatDate } from '#shared/datas.ts'
import { ACEITE_TEXTO, VERSAO_AVISO } from '#shared/aviso-privacidade.ts'

/**
 * A client who accepted an older privacy notice and terms accepts the current version
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
            <h1 className="text-xl leading-tight font-semibold">
              Atualizamos nossa Política de Privacidade
            </h1>
            <CardDescription>
              Para continuar usando o portal, leia e aceite a nova versão da Política de Privacidade
              e dos Termos de Uso.
            </CardDescription>
            <p className="text-xs text-muted-foreground">Versão de {formatDate(VERSAO_AVISO)}</p>
          </CardHeader>
          <CardContent className="grid gap-4">
            <AceiteCampo
              id="aceite-aviso"
              checked={aceito}
              onChange={(checked) => {
                setAceito(checked)
                setErro(false)
              }}
              erro={erro && !aceito ? `Marque “${ACEITE_TEXTO}” para continuar.` : null}
            />
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
