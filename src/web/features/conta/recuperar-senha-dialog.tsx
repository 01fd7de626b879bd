import { Loader2 } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '../../components/ui/button.tsx'
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
import { notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { requestPasswordReset } from './api.ts'
import { failure } from './falha.ts'
import { RecuperarSenhaSchema } from '#shared/schemas/conta.ts'

/** "Esqueceu sua senha?" on /auth: the e-mail that receives the reset link (SPEC §4). */
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
