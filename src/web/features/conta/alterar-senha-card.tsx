import { KeyRound, Loader2 } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx'
import { Label } from '../../components/ui/label.tsx'
import { PasswordInput } from '../../components/ui/password-input.tsx'
import { ApiError } from '../../lib/api.ts'
import { notifyError, notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { alterarSenha } from './api.ts'
import { resolverTardio } from '../../lib/resolver-tardio.ts'
import type { SenhaAlteracao } from '#shared/schemas/conta.ts'
import { NOVA_SENHA_TITLES } from '#shared/senhas.ts'
import { UnsavedChangesGuard } from '../../components/unsaved-changes-guard.tsx'

const EMPTY: SenhaAlteracao = { senha_atual: '', nova_senha: '', confirmacao: '' }
const resolver = resolverTardio(() =>
  import('#shared/schemas/conta.ts').then((m) => m.SenhaAlteracaoSchema),
)

/**
 * SPEC §5 "Change password (client and admin)": the form of both profile screens, with SPEC's
 * toasts. The current password is asked first; the other sessions end on success.
 */
export function AlterarSenhaCard() {
  const form = useForm<SenhaAlteracao>({
    resolver,
    defaultValues: EMPTY,
  })
  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        await alterarSenha(values)
        notifySuccess('Senha alterada com sucesso!', 'Sua senha foi atualizada.')
        form.reset(EMPTY)
      } catch (err) {
        if (err instanceof ApiError && err.field === 'senha_atual')
          form.setError('senha_atual', { message: err.message })
        notifyError(
          'Erro ao alterar senha',
          err instanceof ApiError && err.status !== 0
            ? err.message
            : 'Ocorreu um erro inesperado ao alterar a senha.',
        )
      }
    },
    notifyInvalid('Erro', NOVA_SENHA_TITLES),
  )
  return (
    <Card>
      <CardHeader>
        <h2 className="flex items-center gap-2 text-base leading-none font-semibold">
          <span className="flex size-7 items-center justify-center rounded-md bg-primary/10 text-primary">
            <KeyRound className="size-4" />
          </span>
          Alterar Senha
        </h2>
        <CardDescription>Use pelo menos 8 caracteres e evite senhas comuns.</CardDescription>
      </CardHeader>
      <CardContent>
        <UnsavedChangesGuard when={form.formState.isDirty && !form.formState.isSubmitting} />
        <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
          <div className="grid content-start gap-2">
            <Label htmlFor="senha-atual">Senha atual</Label>
            <PasswordInput
              id="senha-atual"
              autoComplete="current-password"
              aria-invalid={Boolean(form.formState.errors.senha_atual)}
              {...form.register('senha_atual')}
            />
          </div>
          <div aria-hidden className="hidden sm:block" />
          <div className="grid content-start gap-2">
            <Label htmlFor="senha-nova">Nova senha</Label>
            <PasswordInput
              id="senha-nova"
              autoComplete="new-password"
              aria-invalid={Boolean(form.formState.errors.nova_senha)}
              {...form.register('nova_senha')}
            />
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor="senha-confirmacao">Confirmar nova senha</Label>
            <PasswordInput
              id="senha-confirmacao"
              autoComplete="new-password"
              aria-invalid={Boolean(form.formState.errors.confirmacao)}
              {...form.register('confirmacao')}
            />
          </div>
          <div className="flex justify-end sm:col-span-2">
            <Button
              type="submit"
              variant="secondary"
              disabled={form.formState.isSubmitting}
              className="w-full sm:w-auto"
            >
              {form.formState.isSubmitting && <Loader2 className="animate-spin" />}
              Alterar Senha
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  )
}
