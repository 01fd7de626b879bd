import type { DataTableColumn } from '../../components/data-table/data-table.tsx'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { Input } from '../../components/ui/input.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { CadastroPage, type CadastroDialogProps } from './cadastro-page.tsx'
import { useCadastroForm } from './use-cadastro-form.ts'
import { formatDate } from '#shared/datas.ts'
import type { Categoria, CategoriaFormSchema } from '#shared/schemas/cadastros.ts'

type Row = Categoria
type Schema = typeof CategoriaFormSchema

/** Texts of one catalogue made of a name and a description (categories, statuses). */
export type NomeDescricaoTexts = {
  title: string
  description: string
  /** 'categoria' / 'status' and its article: 'a' or 'o'. */
  singular: string
  article: 'a' | 'o'
  plural: (n: number) => string
  novo: string
  searchPlaceholder: string
  loadError: string
  saveError: string
  deleteError: string
  deleted: string
  emptyTitle: string
  emptyDescription: string
}

const columns: DataTableColumn<Row>[] = [
  {
    id: 'nome',
    header: 'Nome',
    card: 'title',
    cell: (r) => <span className="font-medium">{r.nome}</span>,
  },
  {
    id: 'descricao',
    header: 'Descrição',
    className: 'max-w-md',
    cell: (r) =>
      r.descricao ? (
        <span className="line-clamp-2 text-muted-foreground" title={r.descricao}>
          {r.descricao}
        </span>
      ) : (
        '-'
      ),
  },
  {
    id: 'created_at',
    header: 'Criado em',
    className: 'w-32 whitespace-nowrap',
    cell: (r) => formatDate(r.created_at),
  },
]

/**
 * SPEC §2 "Categories and statuses": searchable table of name, description and created date,
 * create/edit dialog, delete after the lists' confirmation dialog.
 */
export function NomeDescricaoPage({
  resource,
  schema,
  texts,
}: {
  resource: 'categorias' | 'status'
  schema: Schema
  texts: NomeDescricaoTexts
}) {
  const Singular = texts.singular.charAt(0).toUpperCase() + texts.singular.slice(1)
  return (
    <CadastroPage<Row>
      resource={resource}
      texts={{
        title: texts.title,
        description: texts.description,
        label: `Lista de ${texts.title.toLowerCase()}`,
        count: texts.plural,
        loadError: texts.loadError,
        search: { label: `Buscar ${texts.singular}`, placeholder: texts.searchPlaceholder },
        novo: texts.novo,
        empty: { title: texts.emptyTitle, description: texts.emptyDescription },
        excluir: {
          title: `Excluir ${texts.singular}?`,
          description: (r) => (
            <p>
              {Singular} <strong className="text-foreground">{r?.nome}</strong> será excluíd
              {texts.article}. Esta ação não pode ser desfeita.
            </p>
          ),
          pending: 'Excluindo...',
          done: texts.deleted,
          doneDescription: (r) => `"${r.nome}" foi removid${texts.article}.`,
          error: texts.deleteError,
        },
      }}
      columns={columns}
      dialog={({ row, onClose }) => (
        <NomeDescricaoDialog
          resource={resource}
          schema={schema}
          row={row}
          onClose={onClose}
          title={row ? `Editar ${Singular}` : texts.novo}
          saveError={texts.saveError}
          saved={
            row ? `${Singular} atualizad${texts.article}.` : `${Singular} criad${texts.article}.`
          }
        />
      )}
    />
  )
}

function NomeDescricaoDialog({
  resource,
  schema,
  row,
  onClose,
  ...texts
}: CadastroDialogProps<Row> & {
  resource: 'categorias' | 'status'
  schema: Schema
  title: string
  saved: string
  saveError: string
}) {
  const { form, dialog } = useCadastroForm({
    resource,
    schema,
    row,
    defaultValues: { nome: row?.nome ?? '', descricao: row?.descricao ?? '' },
    onClose,
    texts,
  })
  const invalid = form.formState.errors
  return (
    <FormDialog {...dialog}>
      <Field label="Nome" htmlFor={`${resource}-nome`} required error={invalid.nome?.message}>
        <Input
          id={`${resource}-nome`}
          autoFocus
          aria-invalid={Boolean(invalid.nome)}
          aria-describedby={invalid.nome ? `${resource}-nome-erro` : undefined}
          {...form.register('nome')}
        />
      </Field>
      <Field
        label="Descrição"
        htmlFor={`${resource}-descricao`}
        error={invalid.descricao?.message}
        hint="Opcional."
      >
        <Textarea id={`${resource}-descricao`} rows={3} {...form.register('descricao')} />
      </Field>
    </FormDialog>
  )
}
