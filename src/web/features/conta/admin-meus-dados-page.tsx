import { zodResolver } from '@hookform/resolvers/zod'
import { KeyRound, Loader2, ShieldCheck } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { PageHeader } from '../../components/page-header.tsx'
import { Button } from '../../components/ui/button.tsx'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx'
import { Input } from '../../components/ui/input.tsx'
import { Label } from '../../components/ui/label.tsx'
import { PasswordInput } from '../../components/ui/password-input.tsx'
import { ApiError } from '../../lib/api.ts'
import { notifyError, notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { changePassword, useMe } from '../auth/api.ts'
import { NOVA_SENHA_TITLES, NovaSenhaSchema, type NovaSenha } from '#shared/schemas/auth.ts'

/** SPEC §2 "Admin profile": read-only e-mail and role, and the change-password form. */
export function AdminMeusDadosPage() {
  const { data: me } = useMe()
  const form = useForm<NovaSenha>({
    resolver: zodResolver(NovaSenhaSchema),
    defaultValues: { nova_senha: '', confirmacao: '' },
  })
  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        await changePassword(values)
        notifySuccess('Senha alterada com sucesso!', 'Sua senha foi atualizada.')
        form.reset()
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
    <>
      <PageHeader title="Meus Dados" description="Informações da sua conta de administrador." />
      <div className="grid max-w-3xl gap-6">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <ShieldCheck className="size-5 text-primary" />
              Informações da conta
            </CardTitle>
            <CardDescription>Estes dados não podem ser alterados aqui.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label htmlFor="admin-email">Email</Label>
              <Input id="admin-email" type="email" readOnly value={me?.user.email ?? ''} />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="admin-perfil">Perfil</Label>
              <Input id="admin-perfil" readOnly value="Administrador" />
            </div>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <KeyRound className="size-5 text-primary" />
              Alterar senha
            </CardTitle>
            <CardDescription>A nova senha deve ter pelo menos 6 caracteres.</CardDescription>
          </CardHeader>
          <CardContent>
            <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
              <div className="grid gap-2">
                <Label htmlFor="admin-nova-senha">Nova senha</Label>
                <PasswordInput
                  id="admin-nova-senha"
                  autoComplete="new-password"
                  aria-invalid={Boolean(form.formState.errors.nova_senha)}
                  {...form.register('nova_senha')}
                />
              </div>
              <div className="grid gap-2">
                <Label htmlFor="admin-confirmacao">Confirmar nova senha</Label>
                <PasswordInput
                  id="admin-confirmacao"
                  autoComplete="new-password"
                  aria-invalid={Boolean(form.formState.errors.confirmacao)}
                  {...form.register('confirmacao')}
                />
              </div>
              <div className="sm:col-span-2">
                <Button type="submit" disabled={form.formState.isSubmitting}>
                  {form.formState.isSubmitting && <Loader2 className="animate-spin" />}
                  Alterar Senha
                </Button>
              </div>
            </form>
          </CardContent>
        </Card>
      </div>
    </>
  )
}
