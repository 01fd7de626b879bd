import { Controller, type FieldValues, type UseFormReturn } from 'react-hook-form'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { FormMaskedInput } from '../../components/ui/masked-input.tsx'
import { CepField, fillEndereco } from './cep-field.tsx'

type Campo = 'telefone' | 'cep' | 'logradouro' | 'complemento' | 'bairro' | 'localidade' | 'uf'
type ContatoEndereco = Record<Campo, string | null | undefined>

/** The group's starting values from a client record: empty text where it has none. */
export const contatoEnderecoValues = (c?: Partial<ContatoEndereco> | null) => ({
  telefone: c?.telefone ?? '',
  cep: c?.cep ?? '',
  logradouro: c?.logradouro ?? '',
  complemento: c?.complemento ?? '',
  bairro: c?.bairro ?? '',
  localidade: c?.localidade ?? '',
  uf: c?.uf ?? '',
})

/**
 * Where the fields stand. `dialogo`: the client dialog, someone else's record typed by the
 * administration: the browser does not fill it in, no examples, two fields a row from 640 px.
 * `pagina`: Meus Dados, the signed-in client's own record: the browser may fill it in
 * (`autocomplete`), empty fields show an example, the street has a row of its own.
 */
type Variant = 'dialogo' | 'pagina'

type Props<T extends FieldValues, Out> = {
  /** A client record form: its values hold these fields as text. */
  form: UseFormReturn<T, unknown, Out>
  /** The ids are `<idPrefix>-<field>` (and `<idPrefix>-<field>-erro` for the message). */
  idPrefix: string
  variant: Variant
}

/** The group is typed once for its own fields; each form keeps its schema and messages. */
const asContatoEndereco = <T extends FieldValues, Out>(form: UseFormReturn<T, unknown, Out>) =>
  form as unknown as UseFormReturn<ContatoEndereco>

/** The six-column grid of the address and each field's place in it. */
const LAYOUT: Record<Variant, Record<'grid' | Exclude<Campo, 'telefone'>, string>> = {
  dialogo: {
    grid: 'grid gap-4 sm:grid-cols-6',
    cep: 'sm:col-span-3',
    logradouro: 'sm:col-span-3',
    complemento: 'sm:col-span-3',
    bairro: 'sm:col-span-3',
    localidade: 'sm:col-span-4',
    uf: 'sm:col-span-2',
  },
  pagina: {
    grid: 'grid grid-cols-6 gap-4',
    cep: 'col-span-6 sm:col-span-3',
    logradouro: 'col-span-6',
    complemento: 'col-span-6 sm:col-span-3',
    bairro: 'col-span-6 sm:col-span-3',
    localidade: 'col-span-4',
    uf: 'col-span-2',
  },
}

/** What only the client's own record (`pagina`) adds to a field: its autofill and example. */
const proprio = (variant: Variant, autoComplete?: string, placeholder?: string) =>
  variant === 'pagina' ? { autoComplete, placeholder } : {}

/** SPEC §5: the client's phone, masked (00) 00000-0000. */
export function TelefoneField<T extends FieldValues, Out>({
  form,
  idPrefix,
  variant,
}: Props<T, Out>) {
  const f = asContatoEndereco(form)
  const id = `${idPrefix}-telefone`
  return (
    <Field label="Telefone" htmlFor={id} error={f.formState.errors.telefone?.message}>
      <FormMaskedInput
        control={f.control}
        name="telefone"
        id={id}
        mask="telefone"
        inputMode="tel"
        type="tel"
        {...proprio(variant, 'tel', '(00) 00000-0000')}
      />
    </Field>
  )
}

/**
 * SPEC §2/§7: the address of a client record, its CEP looked up ('Buscar CEP' or Enter) to fill
 * the street, district, city and state. Used by the client dialog and Meus Dados.
 */
export function EnderecoFields<T extends FieldValues, Out>({
  form,
  idPrefix,
  variant,
}: Props<T, Out>) {
  const f = asContatoEndereco(form)
  const { errors } = f.formState
  const layout = LAYOUT[variant]
  const id = (campo: Campo) => `${idPrefix}-${campo}`
  const aria = (campo: Campo) => ({
    'aria-invalid': errors[campo] ? true : undefined,
    'aria-describedby': errors[campo] ? `${id(campo)}-erro` : undefined,
  })
  const texto = (
    campo: 'logradouro' | 'complemento' | 'bairro' | 'localidade',
    label: string,
    autoComplete?: string,
    placeholder?: string,
  ) => (
    <Field
      label={label}
      htmlFor={id(campo)}
      error={errors[campo]?.message}
      className={layout[campo]}
    >
      <Input
        id={id(campo)}
        {...aria(campo)}
        {...proprio(variant, autoComplete, placeholder)}
        {...f.register(campo)}
      />
    </Field>
  )

  return (
    <div className={layout.grid}>
      <Field label="CEP" htmlFor={id('cep')} error={errors.cep?.message} className={layout.cep}>
        <Controller
          control={f.control}
          name="cep"
          render={({ field }) => (
            <CepField
              id={id('cep')}
              name={field.name}
              value={field.value}
              onValueChange={field.onChange}
              onBlur={field.onBlur}
              onFound={(endereco) => fillEndereco(f, endereco)}
              invalid={Boolean(errors.cep)}
              describedBy={errors.cep ? `${id('cep')}-erro` : undefined}
            />
          )}
        />
      </Field>
      {texto('logradouro', 'Logradouro', 'address-line1', 'Rua, avenida, número')}
      {texto('complemento', 'Complemento', 'address-line2', 'Apartamento, sala, bloco')}
      {texto('bairro', 'Bairro')}
      {texto('localidade', 'Cidade', 'address-level2')}
      <Field label="UF" htmlFor={id('uf')} error={errors.uf?.message} className={layout.uf}>
        <FormMaskedInput
          control={f.control}
          name="uf"
          id={id('uf')}
          mask="uf"
          maxLength={2}
          {...proprio(variant, 'address-level1', 'ES')}
        />
      </Field>
    </div>
  )
}
