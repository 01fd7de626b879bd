import { zodResolver } from '@hookform/resolvers/zod'
import { Wand2 } from 'lucide-react'
import { Controller, useForm, type Resolver } from 'react-hook-form'
import type { z } from 'zod'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { Button } from '../../components/ui/button.tsx'
import { FormDateField } from '../../components/ui/date-field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { MaskedInput } from '../../components/ui/masked-input.tsx'
import { notifyError, notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { useCreateCliente, useUpdateCliente } from './api.ts'
import { CepField, fillEndereco } from './cep-field.tsx'
import { formatDocumento } from '#shared/documento.ts'
import {
  ClienteCreateSchema,
  ClienteFormSchema,
  gerarSenhaTemporaria,
  type Cliente,
} from '#shared/schemas/clientes.ts'

type Values = z.input<typeof ClienteCreateSchema>
type Output = z.output<typeof ClienteCreateSchema>

const SAVE_ERROR = 'Não foi possível salvar o cliente.'

/** SPEC §2/§5: the new/edit client dialog; on create it also sets the account's temporary password. */
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
      telefone: cliente?.telefone ?? '',
      nascimento: cliente?.nascimento ?? '',
      cep: cliente?.cep ?? '',
      logradouro: cliente?.logradouro ?? '',
      complemento: cliente?.complemento ?? '',
      bairro: cliente?.bairro ?? '',
      localidade: cliente?.localidade ?? '',
      uf: cliente?.uf ?? '',
      senha_temporaria: '',
    },
  })
  const errors = form.formState.errors

  const onSubmit = form.handleSubmit((values) => {
    if (isNew) {
      criar.mutate(values, {
        onSuccess: ({ aviso }) => {
          // SPEC §8: the client exists, but its account could not be made.
          if (aviso) notifyError('Erro', aviso)
          else
            notifySuccess('Salvo com sucesso!', 'Cliente adicionado com conta de acesso ao portal.')
          onClose()
        },
        onError: (err) => notifyFailure(SAVE_ERROR, err, form.setError),
      })
    } else {
      const { senha_temporaria: _ignored, ...body } = values
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

  const masked = (
    name: 'documento' | 'telefone' | 'uf',
    id: string,
    mask: 'documento' | 'telefone' | 'uf',
    extra: Record<string, unknown> = {},
  ) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <MaskedInput
          id={id}
          mask={mask}
          value={(field.value as string | null | undefined) ?? ''}
          onValueChange={field.onChange}
          onBlur={field.onBlur}
          name={field.name}
          aria-invalid={Boolean(errors[name])}
          {...extra}
        />
      )}
    />
  )

  return (
    <FormDialog
      dirty={form.formState.isDirty}
      open
      onOpenChange={(o) => !o && onClose()}
      title={isNew ? 'Novo Cliente' : 'Editar Cliente'}
      description={
        isNew
          ? 'O cliente recebe uma conta no portal com a senha temporária abaixo.'
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
          {masked('documento', 'cliente-documento', 'documento', {
            inputMode: 'text',
            autoComplete: 'off',
          })}
        </Field>
        <Field label="Telefone" htmlFor="cliente-telefone" error={errors.telefone?.message}>
          {masked('telefone', 'cliente-telefone', 'telefone', { inputMode: 'tel', type: 'tel' })}
        </Field>
        <Field label="Data de nascimento" htmlFor="cliente-nascimento">
          <FormDateField control={form.control} name="nascimento" id="cliente-nascimento" />
        </Field>
      </fieldset>

      <fieldset className="grid gap-4 sm:grid-cols-6">
        <legend className="mb-3 text-sm font-semibold text-foreground">Endereço</legend>
        <Field
          label="CEP"
          htmlFor="cliente-cep"
          error={errors.cep?.message}
          className="sm:col-span-3"
        >
          <Controller
            control={form.control}
            name="cep"
            render={({ field }) => (
              <CepField
                id="cliente-cep"
                name={field.name}
                value={field.value}
                onValueChange={field.onChange}
                onBlur={field.onBlur}
                onFound={(endereco) => fillEndereco(form, endereco)}
                invalid={Boolean(errors.cep)}
              />
            )}
          />
        </Field>
        <Field
          label="Logradouro"
          htmlFor="cliente-logradouro"
          error={errors.logradouro?.message}
          className="sm:col-span-3"
        >
          <Input id="cliente-logradouro" {...form.register('logradouro')} />
        </Field>
        <Field
          label="Complemento"
          htmlFor="cliente-complemento"
          error={errors.complemento?.message}
          className="sm:col-span-3"
        >
          <Input id="cliente-complemento" {...form.register('complemento')} />
        </Field>
        <Field
          label="Bairro"
          htmlFor="cliente-bairro"
          error={errors.bairro?.message}
          className="sm:col-span-3"
        >
          <Input id="cliente-bairro" {...form.register('bairro')} />
        </Field>
        <Field
          label="Cidade"
          htmlFor="cliente-localidade"
          error={errors.localidade?.message}
          className="sm:col-span-4"
        >
          <Input id="cliente-localidade" {...form.register('localidade')} />
        </Field>
        <Field label="UF" htmlFor="cliente-uf" error={errors.uf?.message} className="sm:col-span-2">
          {masked('uf', 'cliente-uf', 'uf', { maxLength: 2 })}
        </Field>
      </fieldset>

      {isNew && (
        <fieldset className="grid gap-2">
          <legend className="mb-3 text-sm font-semibold text-foreground">Acesso ao portal</legend>
          <Field
            label="Senha temporária"
            htmlFor="cliente-senha"
            error={errors.senha_temporaria?.message}
            required
            hint="Mínimo de 6 caracteres. Informe-a ao cliente: ele poderá trocá-la em Meus Dados."
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
                  form.setValue('senha_temporaria', gerarSenhaTemporaria(), {
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
        </fieldset>
      )}
    </FormDialog>
  )
}
