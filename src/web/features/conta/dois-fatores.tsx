import { useQueryClient } from '@tanstack/react-query'
import { Copy, Loader2, ShieldCheck } from 'lucide-react'
import { lazy, Suspense, useLayoutEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx'
import { GuardedDialog } from '../../components/data-table/form-dialog.tsx'
import {
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { PasswordInput } from '../../components/ui/password-input.tsx'
import { errorMessage, notifyError, notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { contaKeys } from '../../lib/query-keys.ts'
import { useMe } from '../../lib/session.ts'
import { confirmTwoFactor, disableTwoFactor, enableTwoFactor, generateBackupCodes } from './api.ts'
import { resolverTardio } from '../../lib/resolver-tardio.ts'
import type { CodigoAtivacao, SenhaConfirmacao } from '#shared/schemas/conta.ts'

const senhaResolver = resolverTardio(() =>
  import('#shared/schemas/conta.ts').then((m) => m.SenhaConfirmacaoSchema),
)
const codigoResolver = resolverTardio<CodigoAtivacao, { codigo: string }>(() =>
  import('#shared/schemas/conta.ts').then((m) => m.CodigoAtivacaoSchema),
)

// The QR code's library loads at the enrolment's step that shows it.
const QRCodeSVG = lazy(() => import('qrcode.react').then((m) => ({ default: m.QRCodeSVG })))

/** The base32 key of an otpauth:// URI, in groups of four for typing it by hand. */
const chaveManual = (uri: string) =>
  (new URL(uri).searchParams.get('secret') ?? '').replace(/(.{4})/g, '$1 ').trim()

/**
 * Tells the dialog around a form whether closing it would lose something (`GuardedDialog`'s
 * `dirty`), and that it no longer would once the form is gone. In the render's commit, not after
 * it: an Esc pressed right after typing (a slow phone, a quick hand) must find the dialog told.
 */
function useReportDirty(dirty: boolean, onDirtyChange?: (dirty: boolean) => void) {
  useLayoutEffect(() => {
    onDirtyChange?.(dirty)
    return () => onDirtyChange?.(false)
  }, [dirty, onDirtyChange])
}

/** Asks the password again (turning the second factor on or off, new recovery codes). */
function SenhaForm({
  id,
  submitLabel,
  onSubmit,
  onDirtyChange,
}: {
  id: string
  submitLabel: string
  onSubmit: (senha: string) => Promise<void>
  onDirtyChange?: (dirty: boolean) => void
}) {
  const form = useForm<SenhaConfirmacao>({
    resolver: senhaResolver,
    defaultValues: { senha: '' },
  })
  useReportDirty(form.formState.isDirty, onDirtyChange)
  const { errors } = form.formState
  const submit = form.handleSubmit(async ({ senha }) => {
    try {
      await onSubmit(senha)
    } catch (err) {
      form.setError('senha', { message: errorMessage(err) })
      notifyError('Erro', errorMessage(err))
    }
  }, notifyInvalid())
  return (
    <form
      onSubmit={(e) => {
        e.stopPropagation()
        void submit(e)
      }}
      noValidate
      className="grid gap-4"
    >
      <Field label="Sua senha" htmlFor={id} error={errors.senha?.message}>
        <PasswordInput
          id={id}
          autoComplete="current-password"
          aria-invalid={Boolean(errors.senha)}
          {...form.register('senha')}
        />
      </Field>
      <Button type="submit" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting && <Loader2 className="animate-spin" />}
        {submitLabel}
      </Button>
    </form>
  )
}

/** The 10 one-time recovery codes, shown once, with a copy button. */
function CodigosRecuperacao({ codes }: { codes: string[] }) {
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium">Códigos de recuperação</p>
      <p className="text-sm text-muted-foreground">
        Guarde estes códigos em um lugar seguro: cada um entra uma única vez no lugar do código do
        aplicativo, se você perder o celular. Eles não serão mostrados novamente.
      </p>
      <ul
        aria-label="Códigos de recuperação"
        className="grid grid-cols-2 gap-1 rounded-md border bg-muted/40 p-3 font-mono text-sm"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="w-fit"
        onClick={() =>
          navigator.clipboard
            .writeText(codes.join('\n'))
            .then(() => notifySuccess('Códigos copiados!'))
            .catch(() => notifyError('Erro', 'Não foi possível copiar. Anote os códigos.'))
        }
      >
        <Copy />
        Copiar códigos
      </Button>
    </div>
  )
}

/**
 * Turning the second factor on: the password, then the QR code, the key to type by
 * hand and the 10 recovery codes (shown once), then the app's first code. The admin's mandatory
 * enrolment and the client's optional one in Meus Dados.
 */
export function AtivarDoisFatores({
  onDone,
  onDirtyChange,
}: {
  onDone: () => void
  /** Whether leaving now would lose the password typed or an enrolment begun (QR code shown). */
  onDirtyChange?: (dirty: boolean) => void
}) {
  const queryClient = useQueryClient()
  const [setup, setSetup] = useState<{ totpURI: string; backupCodes: string[] } | null>(null)
  const [senhaDirty, setSenhaDirty] = useState(false)
  const form = useForm<CodigoAtivacao, unknown, { codigo: string }>({
    resolver: codigoResolver,
    defaultValues: { codigo: '' },
  })
  const [concluida, setConcluida] = useState(false)
  useReportDirty(!concluida && (senhaDirty || setup !== null), onDirtyChange)
  const { errors } = form.formState
  const confirmar = form.handleSubmit(async ({ codigo }) => {
    try {
      await confirmTwoFactor(codigo)
      setConcluida(true)
      await queryClient.invalidateQueries({ queryKey: contaKeys.all })
      notifySuccess(
        'Verificação em duas etapas ativada!',
        'A partir de agora, o login pede o código do aplicativo.',
      )
      onDone()
    } catch (err) {
      form.setError('codigo', { message: errorMessage(err) })
      notifyError('Código não aceito', errorMessage(err))
    }
  }, notifyInvalid())

  if (!setup)
    return (
      <div className="grid gap-4">
        <p className="text-sm text-muted-foreground">
          Você vai precisar de um aplicativo autenticador no celular (Google Authenticator,
          Microsoft Authenticator, Authy ou outro). Para começar, confirme sua senha.
        </p>
        <SenhaForm
          id="ativar-senha"
          submitLabel="Continuar"
          onSubmit={async (senha) => setSetup(await enableTwoFactor(senha))}
          onDirtyChange={setSenhaDirty}
        />
      </div>
    )
  return (
    <div className="grid gap-5">
      <div className="grid gap-3 sm:grid-cols-[auto_1fr] sm:items-start">
        <div className="mx-auto rounded-md border bg-white p-3">
          <Suspense fallback={<div className="size-[168px]" />}>
            <QRCodeSVG value={setup.totpURI} size={168} title="QR code do autenticador" />
          </Suspense>
        </div>
        <div className="grid gap-2 text-sm">
          <p>
            <span className="font-medium">1.</span> Escaneie o QR code com o aplicativo
            autenticador.
          </p>
          <p className="text-muted-foreground">Sem câmera? Digite esta chave no aplicativo:</p>
          <code
            aria-label="Chave do autenticador"
            className="rounded-md border bg-muted/40 px-2 py-1 font-mono text-sm break-all"
          >
            {chaveManual(setup.totpURI)}
          </code>
        </div>
      </div>
      <CodigosRecuperacao codes={setup.backupCodes} />
      <form
        onSubmit={(e) => {
          e.stopPropagation()
          void confirmar(e)
        }}
        noValidate
        className="grid gap-3"
      >
        <Field
          label="2. Código de 6 dígitos do aplicativo"
          htmlFor="ativar-codigo"
          error={errors.codigo?.message}
        >
          <Input
            id="ativar-codigo"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="123456"
            aria-invalid={Boolean(errors.codigo)}
            {...form.register('codigo')}
          />
        </Field>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting && <Loader2 className="animate-spin" />}
          Ativar verificação em duas etapas
        </Button>
      </form>
    </div>
  )
}

type Acao = 'ativar' | 'desativar' | 'codigos' | null

/**
 * Meus Dados, "Segurança": whether the second factor is on; turn it on, off (clients
 * only: it is mandatory for administrators) or get 10 new recovery codes.
 */
export function SegurancaCard() {
  const { data: me } = useMe()
  const queryClient = useQueryClient()
  const [acao, setAcao] = useState<Acao>(null)
  const [novosCodigos, setNovosCodigos] = useState<string[] | null>(null)
  const [dirty, setDirty] = useState(false)
  if (!me) return null
  const ativa = me.user.twoFactorEnabled
  const fechar = () => {
    setAcao(null)
    setNovosCodigos(null)
  }
  return (
    <Card>
      <CardHeader>
        <h2 className="flex items-center gap-2 text-base leading-none font-semibold">
          <span className="flex size-7 items-center justify-center rounded-md bg-primary/10 text-primary">
            <ShieldCheck className="size-4" />
          </span>
          Segurança
        </h2>
        <CardDescription>
          Verificação em duas etapas: além da senha, o login pede um código do aplicativo
          autenticador do seu celular.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          Verificação em duas etapas:
          <Badge variant={ativa ? 'default' : 'outline'}>{ativa ? 'Ativa' : 'Inativa'}</Badge>
        </div>
        <div className="flex flex-wrap gap-2">
          {ativa ? (
            <>
              <Button variant="secondary" onClick={() => setAcao('codigos')}>
                Gerar novos códigos de recuperação
              </Button>
              {me.role !== 'admin' && (
                <Button variant="outline" onClick={() => setAcao('desativar')}>
                  Desativar
                </Button>
              )}
            </>
          ) : (
            <Button onClick={() => setAcao('ativar')}>Ativar verificação em duas etapas</Button>
          )}
        </div>
      </CardContent>
      <GuardedDialog open={acao !== null} onOpenChange={(open) => !open && fechar()} dirty={dirty}>
        <DialogContent className="max-h-[90svh] overflow-y-auto">
          {acao === 'ativar' && (
            <>
              <DialogHeader>
                <DialogTitle>Ativar verificação em duas etapas</DialogTitle>
                <DialogDescription>Proteja sua conta com um código do celular.</DialogDescription>
              </DialogHeader>
              <AtivarDoisFatores onDone={fechar} onDirtyChange={setDirty} />
            </>
          )}
          {acao === 'desativar' && (
            <>
              <DialogHeader>
                <DialogTitle>Desativar verificação em duas etapas</DialogTitle>
                <DialogDescription>
                  Sua conta volta a pedir só a senha. Confirme sua senha para desativar.
                </DialogDescription>
              </DialogHeader>
              <SenhaForm
                id="desativar-senha"
                submitLabel="Desativar"
                onDirtyChange={setDirty}
                onSubmit={async (senha) => {
                  await disableTwoFactor(senha)
                  await queryClient.invalidateQueries({ queryKey: contaKeys.all })
                  notifySuccess('Verificação em duas etapas desativada.')
                  fechar()
                }}
              />
            </>
          )}
          {acao === 'codigos' && (
            <>
              <DialogHeader>
                <DialogTitle>Novos códigos de recuperação</DialogTitle>
                <DialogDescription>
                  Os códigos anteriores deixam de valer. Confirme sua senha para gerar novos.
                </DialogDescription>
              </DialogHeader>
              {novosCodigos ? (
                <>
                  <CodigosRecuperacao codes={novosCodigos} />
                  <DialogFooter>
                    <Button onClick={fechar}>Concluir</Button>
                  </DialogFooter>
                </>
              ) : (
                <SenhaForm
                  id="codigos-senha"
                  submitLabel="Gerar códigos"
                  onDirtyChange={setDirty}
                  onSubmit={async (senha) => {
                    setNovosCodigos((await generateBackupCodes(senha)).backupCodes)
                    notifySuccess('Novos códigos de recuperação gerados!')
                  }}
                />
              )}
            </>
          )}
        </DialogContent>
      </GuardedDialog>
    </Card>
  )
}
