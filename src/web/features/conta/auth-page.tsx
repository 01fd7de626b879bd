import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Leaf, Loader2 } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Navigate, useNavigate } from 'react-router'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { PasswordInput } from '../../components/ui/password-input.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx'
import { ApiError } from '../../lib/api.ts'
import { notifyError, notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { paths } from '../../paths.ts'
import { meQuery } from '../../lib/session.ts'
import { requestPasswordReset, signIn, signUp, verifySecondFactor } from './api.ts'
import {
  CadastroSchema,
  CodigoDoisFatoresSchema,
  CredenciaisSchema,
  RecuperarSenhaSchema,
  type Cadastro,
  type CodigoDoisFatores,
  type Credenciais,
} from '#shared/schemas/conta.ts'

/** SPEC §8: provider messages are shown as delivered; anything else is unexpected. */
function failure(title: string, err: unknown) {
  if (err instanceof ApiError) notifyError(title, err.message)
  else notifyError('Erro', 'Ocorreu um erro inesperado.')
}

export function AuthPage() {
  // A full load of /auth by a signed-in visitor is redirected by the server; here only a visit
  // from inside the app, whose session is already known, goes back (no request of its own).
  const { data: me } = useQuery({ ...meQuery(), enabled: false })
  if (me) return <Navigate to={paths.app} replace />
  return (
    <main className="flex min-h-svh items-center justify-center bg-gradient-to-br from-emerald-50 via-background to-teal-50 p-4">
      <div className="w-full max-w-md">
        <a href="/" className="mb-6 flex items-center justify-center gap-2 text-lg font-semibold">
          <span className="flex size-9 items-center justify-center rounded-lg bg-primary text-primary-foreground">
            <Leaf className="size-5" />
          </span>
          Portal do Cliente
        </a>
        <Card>
          <CardHeader className="text-center">
            <h1 className="text-xl leading-none font-semibold">Acesse sua conta</h1>
            <CardDescription>Acompanhe seus serviços e documentos ambientais.</CardDescription>
          </CardHeader>
          <CardContent>
            <Tabs defaultValue="login">
              <TabsList className="mb-4 w-full">
                <TabsTrigger value="login">Login</TabsTrigger>
                <TabsTrigger value="cadastro">Cadastro</TabsTrigger>
              </TabsList>
              <TabsContent value="login">
                <LoginForm />
              </TabsContent>
              <TabsContent value="cadastro">
                <RegisterForm />
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>
      </div>
    </main>
  )
}

function LoginForm() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [forgotOpen, setForgotOpen] = useState(false)
  // Issue 13: an account with the second factor is asked for its code after the password.
  const [segundaEtapa, setSegundaEtapa] = useState(false)
  const form = useForm<Credenciais>({
    resolver: zodResolver(CredenciaisSchema),
    defaultValues: { email: '', password: '' },
  })
  const { errors } = form.formState
  async function entrar() {
    await queryClient.fetchQuery({ ...meQuery(), staleTime: 0 })
    notifySuccess('Login realizado com sucesso!', 'Bem-vindo ao Portal do Cliente.')
    navigate(paths.app)
  }
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const result = await signIn(values)
      if (result?.twoFactorRedirect) setSegundaEtapa(true)
      else await entrar()
    } catch (err) {
      failure('Erro ao fazer login', err)
    }
  }, notifyInvalid())
  if (segundaEtapa)
    return (
      <SegundaEtapaForm
        onVerified={entrar}
        onBack={() => {
          setSegundaEtapa(false)
          form.setValue('password', '')
        }}
      />
    )
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <Field label="Email" htmlFor="login-email" error={errors.email?.message}>
        <Input
          id="login-email"
          type="email"
          autoComplete="email"
          placeholder="seu@email.com"
          aria-invalid={Boolean(errors.email)}
          {...form.register('email')}
        />
      </Field>
      <Field
        label="Senha"
        htmlFor="login-password"
        error={errors.password?.message}
        labelAside={
          <button
            type="button"
            onClick={() => setForgotOpen(true)}
            className="cursor-pointer text-sm text-primary hover:underline"
          >
            Esqueceu sua senha?
          </button>
        }
      >
        <PasswordInput
          id="login-password"
          autoComplete="current-password"
          aria-invalid={Boolean(errors.password)}
          {...form.register('password')}
        />
      </Field>
      <Button type="submit" disabled={form.formState.isSubmitting} className="w-full">
        {form.formState.isSubmitting && <Loader2 className="animate-spin" />}
        Entrar
      </Button>
      <ForgotPasswordDialog open={forgotOpen} onOpenChange={setForgotOpen} />
    </form>
  )
}

/** Sign-in's second step: the authenticator's 6-digit code, or one of the recovery codes. */
function SegundaEtapaForm({
  onVerified,
  onBack,
}: {
  onVerified: () => Promise<void>
  onBack: () => void
}) {
  const form = useForm<CodigoDoisFatores, unknown, { codigo: string }>({
    resolver: zodResolver(CodigoDoisFatoresSchema),
    defaultValues: { codigo: '' },
  })
  const { errors } = form.formState
  const onSubmit = form.handleSubmit(async ({ codigo }) => {
    try {
      await verifySecondFactor(codigo)
      await onVerified()
    } catch (err) {
      failure('Código não aceito', err)
      form.setFocus('codigo')
    }
  }, notifyInvalid())
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <div className="grid gap-1 text-center">
        <h2 className="font-semibold">Verificação em duas etapas</h2>
        <p className="text-sm text-muted-foreground">
          Digite o código de 6 dígitos do seu aplicativo autenticador. Sem o aplicativo, use um dos
          seus códigos de recuperação.
        </p>
      </div>
      <Field label="Código" htmlFor="login-codigo" error={errors.codigo?.message}>
        <Input
          id="login-codigo"
          autoComplete="one-time-code"
          autoFocus
          placeholder="123456"
          aria-invalid={Boolean(errors.codigo)}
          {...form.register('codigo')}
        />
      </Field>
      <Button type="submit" disabled={form.formState.isSubmitting} className="w-full">
        {form.formState.isSubmitting && <Loader2 className="animate-spin" />}
        Verificar
      </Button>
      <Button type="button" variant="ghost" onClick={onBack} className="w-full">
        Voltar
      </Button>
    </form>
  )
}

function RegisterForm() {
  const form = useForm<Cadastro>({
    resolver: zodResolver(CadastroSchema),
    defaultValues: { email: '', password: '', aceite_termos: false },
  })
  const { errors } = form.formState
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await signUp(values)
      notifySuccess('Conta criada com sucesso!', 'Verifique seu email para confirmar a conta.')
      form.reset()
    } catch (err) {
      failure('Erro ao criar conta', err)
    }
  }, notifyInvalid())
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <Field label="Email" htmlFor="register-email" error={errors.email?.message}>
        <Input
          id="register-email"
          type="email"
          autoComplete="email"
          placeholder="seu@email.com"
          aria-invalid={Boolean(errors.email)}
          {...form.register('email')}
        />
      </Field>
      <Field
        label="Senha"
        htmlFor="register-password"
        error={errors.password?.message}
        hint="Mínimo de 6 caracteres."
      >
        <PasswordInput
          id="register-password"
          autoComplete="new-password"
          aria-invalid={Boolean(errors.password)}
          {...form.register('password')}
        />
      </Field>
      {/* Issue 15: the privacy notice and terms are accepted at sign-up (both open in a new tab). */}
      <div className="grid gap-1">
        <div className="flex items-start gap-2">
          <input
            id="register-aceite"
            type="checkbox"
            className="mt-0.5 size-4 shrink-0 accent-primary"
            aria-invalid={Boolean(errors.aceite_termos)}
            aria-describedby={errors.aceite_termos ? 'register-aceite-erro' : undefined}
            {...form.register('aceite_termos')}
          />
          <label htmlFor="register-aceite" className="text-sm leading-snug">
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
            <a href="/termos" target="_blank" rel="noopener" className="text-primary underline">
              Termos de Uso
            </a>
          </label>
        </div>
        {errors.aceite_termos && (
          <p id="register-aceite-erro" className="text-xs text-destructive">
            {errors.aceite_termos.message}
          </p>
        )}
      </div>
      <Button type="submit" disabled={form.formState.isSubmitting} className="w-full">
        {form.formState.isSubmitting && <Loader2 className="animate-spin" />}
        Criar conta
      </Button>
    </form>
  )
}

function ForgotPasswordDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (v: boolean) => void
}) {
  const form = useForm<{ email: string }>({
    resolver: zodResolver(RecuperarSenhaSchema),
    defaultValues: { email: '' },
  })
  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      await requestPasswordReset(email)
      notifySuccess('Email enviado!', 'Verifique sua caixa de entrada para redefinir a senha.')
      form.reset({ email: '' })
    } catch (err) {
      failure('Erro ao enviar email', err)
    }
  }, notifyInvalid())
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Recuperar Senha</DialogTitle>
          <DialogDescription>
            Digite seu email para receber um link de redefinição de senha.
          </DialogDescription>
        </DialogHeader>
        <form
          onSubmit={(e) => {
            e.stopPropagation()
            void onSubmit(e)
          }}
          noValidate
          className="grid gap-4"
        >
          <Field label="Email" htmlFor="reset-email" error={form.formState.errors.email?.message}>
            <Input
              id="reset-email"
              type="email"
              autoComplete="email"
              placeholder="seu@email.com"
              aria-invalid={Boolean(form.formState.errors.email)}
              {...form.register('email')}
            />
          </Field>
          <DialogFooter>
            <Button type="submit" disabled={form.formState.isSubmitting}>
              {form.formState.isSubmitting && <Loader2 className="animate-spin" />}
              Enviar link
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
