import { zodResolver } from '@hookform/resolvers/zod'
import { Leaf, Loader2 } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx'
import { Field } from '../../components/ui/field.tsx'
import { PasswordInput } from '../../components/ui/password-input.tsx'
import { ApiError } from '../../lib/api.ts'
import { notifyError, notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { paths } from '../../paths.ts'
import { resetPassword } from './api.ts'
import { NovaSenhaSchema, type NovaSenha } from '#shared/schemas/conta.ts'
import { NOVA_SENHA_TITLES } from '#shared/senhas.ts'

/**
 * Opened from the reset e-mail (choose a new password) or from an invitation (`convite=1`: a new
 * client chooses their first password); the same link kind, the texts differ.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const convite = params.get('convite') === '1'
  const navigate = useNavigate()
  const form = useForm<NovaSenha>({
    resolver: zodResolver(NovaSenhaSchema),
    defaultValues: { nova_senha: '', confirmacao: '' },
  })
  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        await resetPassword(token, values.nova_senha)
        if (convite)
          notifySuccess(
            'Senha criada com sucesso!',
            'Entre com seu email e a senha que você criou.',
          )
        else notifySuccess('Senha alterada com sucesso!', 'Sua senha foi atualizada.')
        navigate(paths.auth, { replace: true })
      } catch (err) {
        notifyError(
          'Erro ao alterar senha',
          err instanceof ApiError ? err.message : 'Ocorreu um erro inesperado ao alterar a senha.',
        )
      }
    },
    notifyInvalid('Erro', NOVA_SENHA_TITLES),
  )
  return (
    <main className="flex min-h-svh items-center justify-center bg-gradient-to-br from-emerald-50 via-background to-teal-50 p-4">
      <Card className="w-full max-w-md">
        <CardHeader className="text-center">
          <span className="mx-auto flex size-10 items-center justify-center rounded-lg bg-primary text-primary-foreground">
            <Leaf className="size-5" />
          </span>
          <h1 className="text-xl leading-none font-semibold">
            {convite ? 'Crie sua senha' : 'Redefinir senha'}
          </h1>
          <CardDescription>
            {convite
              ? 'Bem-vindo ao Portal do Cliente! Escolha a senha da sua conta.'
              : 'Escolha uma nova senha para sua conta.'}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {token ? (
            <form onSubmit={onSubmit} noValidate className="grid gap-4">
              <Field
                label="Nova senha"
                htmlFor="nova-senha"
                error={form.formState.errors.nova_senha?.message}
              >
                <PasswordInput
                  id="nova-senha"
                  autoComplete="new-password"
                  aria-invalid={Boolean(form.formState.errors.nova_senha)}
                  {...form.register('nova_senha')}
                />
              </Field>
              <Field
                label="Confirmar nova senha"
                htmlFor="confirmacao"
                error={form.formState.errors.confirmacao?.message}
              >
                <PasswordInput
                  id="confirmacao"
                  autoComplete="new-password"
                  aria-invalid={Boolean(form.formState.errors.confirmacao)}
                  {...form.register('confirmacao')}
                />
              </Field>
              <Button type="submit" disabled={form.formState.isSubmitting}>
                {form.formState.isSubmitting && <Loader2 className="animate-spin" />}
                {convite ? 'Criar senha' : 'Salvar nova senha'}
              </Button>
            </form>
          ) : (
            <p className="text-center text-sm text-muted-foreground">
              Link inválido. Peça um novo email em{' '}
              <Link to={paths.auth} className="text-primary underline">
                Recuperar Senha
              </Link>
              .
            </p>
          )}
        </CardContent>
      </Card>
    </main>
  )
}
