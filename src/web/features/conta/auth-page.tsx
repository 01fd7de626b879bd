import { zodResolver } from '@hookform/resolvers/zod'
import { useQueryClient } from '@tanstack/react-query'
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
import { Input } from '../../components/ui/input.tsx'
import { Label } from '../../components/ui/label.tsx'
import { PasswordInput } from '../../components/ui/password-input.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx'
import { ApiError } from '../../lib/api.ts'
import { notifyError, notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { paths } from '../../paths.ts'
import { meQuery, useMe } from '../../lib/session.ts'
import { requestPasswordReset, signIn, signUp } from './api.ts'
import { CredenciaisSchema, RecuperarSenhaSchema, type Credenciais } from '#shared/schemas/conta.ts'

/** SPEC §8: provider messages are shown as delivered; anything else is unexpected. */
function failure(title: string, err: unknown) {
  if (err instanceof ApiError) notifyError(title, err.message)
  else notifyError('Erro', 'Ocorreu um erro inesperado.')
}

export function AuthPage() {
  const { data: me } = useMe()
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
  const form = useForm<Credenciais>({
    resolver: zodResolver(CredenciaisSchema),
    defaultValues: { email: '', password: '' },
  })
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await signIn(values)
      await queryClient.fetchQuery({ ...meQuery(), staleTime: 0 })
      notifySuccess('Login realizado com sucesso!', 'Bem-vindo ao Portal do Cliente.')
      navigate(paths.app)
    } catch (err) {
      failure('Erro ao fazer login', err)
    }
  }, notifyInvalid())
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor="login-email">Email</Label>
        <Input
          id="login-email"
          type="email"
          autoComplete="email"
          placeholder="seu@email.com"
          {...form.register('email')}
        />
      </div>
      <div className="grid gap-2">
        <div className="flex items-center justify-between">
          <Label htmlFor="login-password">Senha</Label>
          <button
            type="button"
            onClick={() => setForgotOpen(true)}
            className="cursor-pointer text-sm text-primary hover:underline"
          >
            Esqueceu sua senha?
          </button>
        </div>
        <PasswordInput
          id="login-password"
          autoComplete="current-password"
          {...form.register('password')}
        />
      </div>
      <Button type="submit" disabled={form.formState.isSubmitting} className="w-full">
        {form.formState.isSubmitting && <Loader2 className="animate-spin" />}
        Entrar
      </Button>
      <ForgotPasswordDialog open={forgotOpen} onOpenChange={setForgotOpen} />
    </form>
  )
}

function RegisterForm() {
  const form = useForm<Credenciais>({
    resolver: zodResolver(CredenciaisSchema),
    defaultValues: { email: '', password: '' },
  })
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
      <div className="grid gap-2">
        <Label htmlFor="register-email">Email</Label>
        <Input
          id="register-email"
          type="email"
          autoComplete="email"
          placeholder="seu@email.com"
          {...form.register('email')}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="register-password">Senha</Label>
        <PasswordInput
          id="register-password"
          autoComplete="new-password"
          {...form.register('password')}
        />
        <p className="text-xs text-muted-foreground">Mínimo de 6 caracteres.</p>
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
          <div className="grid gap-2">
            <Label htmlFor="reset-email">Email</Label>
            <Input
              id="reset-email"
              type="email"
              autoComplete="email"
              placeholder="seu@email.com"
              {...form.register('email')}
            />
          </div>
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
