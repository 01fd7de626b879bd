import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { Send, Wand2 } from 'lucide-react'
import { useForm, type Resolver } from 'react-hook-form'
import type { z } from 'zod'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { Button } from '../../components/ui/button.tsx'
import { FormDateField } from '../../components/ui/date-field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { FormMaskedInput } from '../../components/ui/masked-input.tsx'
import { notifyError, notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { clienteQuery, useConvidarCliente, useCreateCliente, useUpdateCliente } from './api.ts'
import { contatoEnderecoValues, EnderecoFields, TelefoneField } from './contato-endereco-fields.tsx'
import { formatDocumento } from '#shared/documento.ts'
import {
  ClienteCreateSchema,
  ClienteFormSchema,
  CONVITE_VALIDADE_DIAS,
  generateSenhaTemporaria,
  type Cliente,
} from '#shared/schemas/clientes.ts'

type Values = z.input<typeof ClienteCreateSchema>
type Output = z.output<typeof ClienteCreateSchema>

const SAVE_ERROR = 'Não foi possível salvar o cliente.'

/**
 * SPEC §2/§5: the new/edit client dialog. On create it also chooses the account's access: an
 * invitation by e-mail (the default) or a temporary password; on edit it can send the invitation
 * again.
 */
export function ClienteDialog({ cliente, onClose }: { cliente?: Cliente; onClose: () => void }) {
  const isNew = !cliente
  const criar = useCreateCliente()
  const atualizar = useUpdateCliente()
  const pending = criar.isPending || atualizar.isPending
  const form = useForm<Values, unknown, Output>({
    resolver: zodResolver(isNew ? ClienteCreateSchema : ClienteFormSchema) as unknown as Resolver<
      Values,
      unknown,
      Output
    >,
    defaultValues: {
      nome: cliente?.nome ?? '',
      email: cliente?.email ?? '',
      documento: cliente ? formatDocumento(cliente.documento) : '',
      nascimento: cliente?.nascimento ?? '',
      ...contatoEnderecoValues(cliente),
      acesso: 'convite',
      senha_temporaria: '',
    },
  })
  const acesso = form.watch('acesso')
  const errors = form.formState.errors

  const onSubmit = form.handleSubmit((values) => {
    if (isNew) {
      criar.mutate(values, {
        onSuccess: ({ aviso, convite }) => {
          // SPEC §8: the client exists, but its account could not be made.
          if (aviso) notifyError('Erro', aviso)
          else if (convite)
            notifySuccess(
              'Salvo com sucesso!',
              `Cliente adicionado. Enviamos um convite para ${convite} criar a senha (válido por ${CONVITE_VALIDADE_DIAS} dias).`,
            )
          else
            notifySuccess('Salvo com sucesso!', 'Cliente adicionado com conta de acesso ao portal.')
          onClose()
        },
        onError: (err) => notifyFailure(SAVE_ERROR, err, form.setError),
      })
    } else {
      const { senha_temporaria: _senha, acesso: _acesso, ...body } = values
      atualizar.mutate(
        { id: cliente.id, body },
        {
          onSuccess: () => {
            notifySuccess('Salvo com sucesso!', 'Dados do cliente atualizados.')
            onClose()
          },
          onError: (err) => notifyFailure(SAVE_ERROR, err, form.setError),
        },
      )
    }
  }, notifyInvalid('Erro'))

  return (
    <FormDialog
      dirty={form.formState.isDirty}
      open
      onOpenChange={(o) => !o && onClose()}
      title={isNew ? 'Novo Cliente' : 'Editar Cliente'}
      description={
        isNew
          ? 'O cliente recebe uma conta no portal: um convite por email para criar a senha, ou uma senha temporária.'
          : 'Altere os dados cadastrais do cliente.'
      }
      submitLabel={isNew ? 'Adicionar Cliente' : 'Salvar'}
      pending={pending}
      onSubmit={onSubmit}
      className="sm:max-w-2xl"
    >
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-3 text-sm font-semibold text-foreground">Dados do cliente</legend>
        <Field
          label="Nome"
          htmlFor="cliente-nome"
          error={errors.nome?.message}
          required
          className="sm:col-span-2"
        >
          <Input
            id="cliente-nome"
            autoFocus
            autoComplete="off"
            aria-invalid={Boolean(errors.nome)}
            {...form.register('nome')}
          />
        </Field>
        <Field label="Email" htmlFor="cliente-email" error={errors.email?.message} required>
          <Input
            id="cliente-email"
            type="email"
            autoComplete="off"
            aria-invalid={Boolean(errors.email)}
            {...form.register('email')}
          />
        </Field>
        <Field
          label="Documento (CPF ou CNPJ)"
          htmlFor="cliente-documento"
          error={errors.documento?.message}
          required
        >
          <FormMaskedInput
            control={form.control}
            name="documento"
            id="cliente-documento"
            mask="documento"
            inputMode="text"
            autoComplete="off"
          />
        </Field>
        <TelefoneField form={form} idPrefix="cliente" variant="dialogo" />
        <Field label="Data de nascimento" htmlFor="cliente-nascimento">
          <FormDateField control={form.control} name="nascimento" id="cliente-nascimento" />
        </Field>
      </fieldset>

      <fieldset>
        <legend className="mb-3 text-sm font-semibold text-foreground">Endereço</legend>
        <EnderecoFields form={form} idPrefix="cliente" variant="dialogo" />
      </fieldset>

      {isNew ? (
        <fieldset className="grid gap-3">
          <legend className="mb-3 text-sm font-semibold text-foreground">Acesso ao portal</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {(
              [
                [
                  'convite',
                  'Convidar por e-mail',
                  `O cliente recebe um link para criar a própria senha (válido por ${CONVITE_VALIDADE_DIAS} dias).`,
                ],
                [
                  'senha',
                  'Definir senha temporária',
                  'Você informa a senha ao cliente, que poderá trocá-la em Meus Dados.',
                ],
              ] as const
            ).map(([valor, titulo, texto]) => (
              <label
                key={valor}
                className="flex cursor-pointer gap-3 rounded-lg border p-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/5 has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50"
              >
                <input
                  type="radio"
                  value={valor}
                  className="mt-0.5 size-4 accent-primary"
                  {...form.register('acesso')}
                />
                <span className="grid gap-1">
                  <span className="font-medium">{titulo}</span>
                  <span className="text-muted-foreground">{texto}</span>
                </span>
              </label>
            ))}
          </div>
          {acesso === 'senha' && (
            <Field
              label="Senha temporária"
              htmlFor="cliente-senha"
              error={errors.senha_temporaria?.message}
              required
              hint="Mínimo de 8 caracteres. Informe-a ao cliente: ele poderá trocá-la em Meus Dados."
            >
              <div className="flex gap-2">
                <div className="min-w-0 flex-1">
                  {/* Visible on purpose: the admin passes this password on to the client. */}
                  <Input
                    id="cliente-senha"
                    autoComplete="off"
                    spellCheck={false}
                    className="font-mono"
                    aria-invalid={Boolean(errors.senha_temporaria)}
                    {...form.register('senha_temporaria')}
                  />
                </div>
                <Button
                  type="button"
                  variant="outline"
                  onClick={() =>
                    form.setValue('senha_temporaria', generateSenhaTemporaria(), {
                      shouldDirty: true,
                      shouldValidate: false,
                    })
                  }
                >
                  <Wand2 />
                  Gerar senha
                </Button>
              </div>
            </Field>
          )}
        </fieldset>
      ) : (
        cliente.conta && <ConviteAcesso cliente={cliente} />
      )}
    </FormDialog>
  )
}

/**
 * "Enviar convite" on the edit dialog: a new link for the client to choose their password
 * (an invitation not used in time, a client who lost access to the first e-mail).
 */
function ConviteAcesso({ cliente }: { cliente: Cliente }) {
  const convidar = useConvidarCliente()
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-3 text-sm font-semibold text-foreground">Acesso ao portal</legend>
      <p className="text-sm text-muted-foreground">
        Envie um novo link para {cliente.email} criar a senha de acesso (válido por{' '}
        {CONVITE_VALIDADE_DIAS} dias; os links anteriores deixam de valer).
      </p>
      <div>
        <Button
          type="button"
          variant="outline"
          disabled={convidar.isPending}
          onClick={() =>
            convidar.mutate(cliente.id, {
              onSuccess: () =>
                notifySuccess(
                  'Convite enviado!',
                  `Enviamos um link para ${cliente.email} criar a senha.`,
                ),
              onError: (err) => notifyFailure('Não foi possível enviar o convite.', err),
            })
          }
        >
          <Send />
          {convidar.isPending ? 'Enviando...' : 'Enviar convite'}
        </Button>
      </div>
    </fieldset>
  )
}

/**
 * "Editar": the client's record read fresh from the server (which records the administrator's
 * read), then the same dialog.
 */
export function EditarClienteDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const { data, isError } = useQuery(clienteQuery(id))
  useEffect(() => {
    if (!isError) return
    notifyError('Erro', 'Não foi possível carregar o cliente.')
    onClose()
  }, [isError, onClose])
  return data ? <ClienteDialog cliente={data} onClose={onClose} /> : null
}
