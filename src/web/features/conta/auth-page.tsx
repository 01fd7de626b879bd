import { useQueryClient } from '@tanstack/react-query'
import { Leaf, Loader2 } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { Navigate, useNavigate } from 'react-router'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { PasswordInput } from '../../components/ui/password-input.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx'
import { useLightForm } from '../../lib/light-form.ts'
import { notifyError, notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { paths } from '../../paths.ts'
import { meQuery } from '../../lib/me-query.ts'
import { AceiteCampo } from './aceite-campo.tsx'
import { signIn, signUp, verifySecondFactor } from './api.ts'
import { failure } from './falha.ts'
import type { CodigoDoisFatores, Credenciais } from '#shared/schemas/conta.ts'

// /auth stays under 120 KB of JavaScript: its forms are `useLightForm` (no
// react-hook-form), zod and the schemas load at the first validation, and the "Esqueceu sua
// senha?" dialog when it is first opened.
const contaSchemas = () => import('#shared/schemas/conta.ts')
const credenciais = () => contaSchemas().then((m) => m.CredenciaisSchema)
const codigo = () => contaSchemas().then((m) => m.CodigoDoisFatoresSchema)
/** ACEITE_OBRIGATORIO of shared/schemas/conta.ts, written here: that module (zod) loads lazily. */
const ACEITE_OBRIGATORIO =
  'Para criar sua conta, aceite a Política de Privacidade e os Termos de Uso.'
const RecuperarSenhaDialog = lazy(() =>
  import('./recuperar-senha-dialog.tsx').then((m) => ({ default: m.RecuperarSenhaDialog })),
)

export function AuthPage() {
  // A full load of /auth by a signed-in visitor is redirected by the server; here only a visit
  // from inside the app, whose session is already known, goes back (no request of its own).
  const me = useQueryClient().getQueryData(meQuery().queryKey)
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
  const [forgotLoaded, setForgotLoaded] = useState(false)
  // An account with the second factor is asked for its code after the password.
  const [segundaEtapa, setSegundaEtapa] = useState(false)
  const form = useLightForm<Credenciais>({
    schema: credenciais,
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
            onClick={() => {
              setForgotLoaded(true)
              setForgotOpen(true)
            }}
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
      {forgotLoaded && (
        <Suspense fallback={null}>
          <RecuperarSenhaDialog open={forgotOpen} onOpenChange={setForgotOpen} />
        </Suspense>
      )}
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
  const form = useLightForm<CodigoDoisFatores, { codigo: string }>({
    schema: codigo,
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
  const form = useLightForm<Credenciais>({
    schema: credenciais,
    defaultValues: { email: '', password: '' },
  })
  const { errors } = form.formState
  // The privacy notice and terms are accepted here (a checkbox, kept apart from the
  // light form's text fields); the server refuses a sign-up without it.
  const [aceite, setAceite] = useState(false)
  const [aceiteErro, setAceiteErro] = useState(false)
  const onSubmit = form.handleSubmit(
    async (values) => {
      if (!aceite) {
        setAceiteErro(true)
        notifyError('Erro', ACEITE_OBRIGATORIO)
        return
      }
      try {
        await signUp({ ...values, aceite_termos: true })
        notifySuccess('Conta criada com sucesso!', 'Verifique seu email para confirmar a conta.')
        form.reset()
        setAceite(false)
      } catch (err) {
        failure('Erro ao criar conta', err)
      }
    },
    (errors) => {
      if (!aceite) setAceiteErro(true)
      notifyInvalid()(errors)
    },
  )
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
        hint="Mínimo de 8 caracteres; evite senhas comuns."
      >
        <PasswordInput
          id="register-password"
          autoComplete="new-password"
          aria-invalid={Boolean(errors.password)}
          {...form.register('password')}
        />
      </Field>
      <AceiteCampo
        id="register-aceite"
        checked={aceite}
        onChange={(checked) => {
          setAceite(checked)
          if (checked) setAceiteErro(false)
        }}
        erro={aceiteErro ? ACEITE_OBRIGATORIO : null}
      />
      <Button type="submit" disabled={form.formState.isSubmitting} className="w-full">
        {form.formState.isSubmitting && <Loader2 className="animate-spin" />}
        Criar conta
      </Button>
    </form>
  )
}
