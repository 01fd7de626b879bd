import { useQuery } from '@tanstack/react-query'
import { Download, ShieldCheck, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx'
import { PasswordInput } from '../../components/ui/password-input.tsx'
import { notifySuccess } from '../../lib/notify.ts'
import { EXPORTACAO_URL, minhasSolicitacoesQuery, useCreateSolicitacao } from './api.ts'
import { formatDate, formatDateTime } from '#shared/datas.ts'
import { resolverTardio } from '../../lib/resolver-tardio.ts'
import type { Exclusao } from '#shared/schemas/privacidade.ts'

const resolver = resolverTardio(() =>
  import('#shared/schemas/privacidade.ts').then((m) => m.ExclusaoSchema),
)

/**
 * Meus Dados → "Privacidade e dados": the client's export of everything the portal
 * holds about them (a zip streamed by the server) and the request to erase it.
 */
export function PrivacidadeCard() {
  const minhas = useQuery(minhasSolicitacoesQuery())
  const [pedindo, setPedindo] = useState(false)
  const ultima = minhas.data?.[0]
  const pendente = ultima?.estado === 'pendente'
  return (
    <Card>
      <CardHeader>
        <h2 className="flex items-center gap-2 text-lg leading-none font-semibold">
          <ShieldCheck className="size-5 text-primary" aria-hidden="true" />
          Privacidade e dados
        </h2>
        <CardDescription>
          Seus direitos pela LGPD: receba uma cópia de todos os seus dados ou peça a exclusão. Saiba
          mais na{' '}
          <a href="/privacidade" target="_blank" rel="noopener" className="text-primary underline">
            Política de Privacidade
          </a>
          .
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-muted-foreground">
            Um arquivo .zip com seus dados cadastrais, serviços, documentos e e-mails recebidos.
          </p>
          <Button asChild variant="outline" className="shrink-0">
            <a href={EXPORTACAO_URL} download>
              <Download />
              Baixar meus dados
            </a>
          </Button>
        </div>
        <div className="flex flex-col gap-3 border-t pt-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="text-sm">
            {pendente ? (
              <p role="status">
                Solicitação de exclusão enviada em {formatDateTime(ultima.pedido_em)}. Prazo de
                resposta: {formatDate(ultima.prazo)}.
              </p>
            ) : ultima?.estado === 'recusada' ? (
              <p role="status">
                Sua solicitação de {formatDate(ultima.pedido_em)} foi recusada: {ultima.motivo}
              </p>
            ) : (
              <p className="text-muted-foreground">
                A exclusão remove sua conta e seus documentos. O histórico das licenças, que a lei
                ambiental exige guardar, é mantido sem seus dados pessoais.
              </p>
            )}
          </div>
          <Button
            variant="destructive"
            className="shrink-0"
            disabled={pendente || minhas.isPending}
            onClick={() => setPedindo(true)}
          >
            <Trash2 />
            Solicitar exclusão
          </Button>
        </div>
      </CardContent>
      <SolicitarExclusaoDialog open={pedindo} onClose={() => setPedindo(false)} />
    </Card>
  )
}

function SolicitarExclusaoDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const criar = useCreateSolicitacao()
  const form = useForm<Exclusao>({
    resolver,
    defaultValues: { senha: '' },
  })
  const fechar = () => {
    form.reset({ senha: '' })
    onClose()
  }
  const enviar = form.handleSubmit((values) =>
    criar.mutate(values, {
      onSuccess: () => {
        notifySuccess(
          'Solicitação enviada!',
          'Responderemos em até 15 dias. Você receberá a resposta por e-mail.',
        )
        fechar()
      },
      onError: (err) => notifyFailure('Não foi possível enviar a solicitação.', err, form.setError),
    }),
  )
  return (
    <FormDialog
      open={open}
      onOpenChange={(o) => !o && fechar()}
      title="Solicitar exclusão dos meus dados"
      description="Digite sua senha para confirmar. A consultoria responde em até 15 dias; se atendida, sua conta e seus documentos são removidos e você não poderá mais entrar."
      submitLabel="Solicitar exclusão"
      pending={criar.isPending}
      dirty={form.formState.isDirty}
      onSubmit={enviar}
    >
      <Field
        label="Senha"
        htmlFor="exclusao-senha"
        required
        error={form.formState.errors.senha?.message}
      >
        <PasswordInput
          id="exclusao-senha"
          autoComplete="current-password"
          aria-invalid={Boolean(form.formState.errors.senha)}
          {...form.register('senha')}
        />
      </Field>
    </FormDialog>
  )
}
