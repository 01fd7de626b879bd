import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { FormDialog } from '../../components/data-table/form-dialog.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { requestPasswordReset } from './api.ts'
import { failure } from './falha.ts'
import { RecuperarSenhaSchema } from '#shared/schemas/conta.ts'

/**
 * "Esqueceu sua senha?" on /auth: the e-mail that receives the reset link (SPEC §4). Closing it
 * with an e-mail typed asks first, as every form dialog does (`FormDialog`).
 */
export function RecuperarSenhaDialog({
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
    <FormDialog
      open={open}
      onOpenChange={(o) => {
        if (!o) form.reset({ email: '' })
        onOpenChange(o)
      }}
      title="Recuperar Senha"
      description="Digite seu email para receber um link de redefinição de senha."
      submitLabel="Enviar link"
      pending={form.formState.isSubmitting}
      dirty={form.formState.isDirty}
      // The dialog is portaled, but React bubbles its submit to the sign-in form around it.
      onSubmit={(e) => {
        e.stopPropagation()
        void onSubmit(e)
      }}
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
    </FormDialog>
  )
}
