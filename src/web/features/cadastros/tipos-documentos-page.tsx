import { FormDialog, Field } from '../../components/data-table/form-dialog.tsx'
import type { DataTableColumn } from '../../components/data-table/data-table.tsx'
import { Input } from '../../components/ui/input.tsx'
import { CadastroPage, type CadastroDialogProps, type CadastroTexts } from './cadastro-page.tsx'
import { useCadastroForm } from './use-cadastro-form.ts'
import { formatDate } from '#shared/datas.ts'
import { TipoDocumentoFormSchema, type TipoDocumento } from '#shared/schemas/cadastros.ts'

const columns: DataTableColumn<TipoDocumento>[] = [
  {
    id: 'tipo',
    header: 'Tipo de Documento',
    card: 'title',
    cell: (r) => <span className="font-medium">{r.tipo}</span>,
  },
  {
    id: 'validade',
    header: 'Validade do documento',
    className: 'whitespace-nowrap',
    cell: (r) =>
      r.validade_dias == null ? (
        <span className="text-muted-foreground">Não vence</span>
      ) : (
        `${r.validade_dias} ${r.validade_dias === 1 ? 'dia' : 'dias'}`
      ),
  },
  {
    id: 'created_at',
    header: 'Criado em',
    className: 'w-32 whitespace-nowrap',
    cell: (r) => formatDate(r.created_at),
  },
]

const texts: CadastroTexts<TipoDocumento> = {
  title: 'Tipos de Documentos',
  description: 'Documentos que podem ser exigidos dos clientes ou disponibilizados a eles.',
  label: 'Lista de tipos de documentos',
  count: (n) => `${n} tipo${n === 1 ? '' : 's'} de documento`,
  loadError: 'Não foi possível carregar os tipos de documento.',
  search: { label: 'Buscar tipo de documento', placeholder: 'Buscar por nome...' },
  novo: 'Novo Tipo de Documento',
  empty: {
    title: 'Nenhum tipo de documento cadastrado',
    description: 'Cadastre os documentos que serão exigidos nos serviços.',
  },
  excluir: {
    title: 'Excluir tipo de documento?',
    description: (r) => (
      <p>
        O tipo <strong className="text-foreground">{r?.tipo}</strong> será excluído. Esta ação não
        pode ser desfeita.
      </p>
    ),
    done: 'Tipo de documento excluído com sucesso!',
    doneDescription: (r) => `"${r.tipo}" foi removido.`,
    error: 'Não foi possível excluir o tipo de documento.',
  },
}

/** SPEC §2: document types, paged by 10, dialog and delete confirm. */
export function TiposDocumentosPage() {
  return (
    <CadastroPage
      resource="tipos-documentos"
      texts={texts}
      columns={columns}
      dialog={(p) => <TipoDocumentoDialog {...p} />}
    />
  )
}

function TipoDocumentoDialog({ row, onClose }: CadastroDialogProps<TipoDocumento>) {
  const { form, dialog } = useCadastroForm({
    resource: 'tipos-documentos',
    schema: TipoDocumentoFormSchema,
    row,
    defaultValues: {
      tipo: row?.tipo ?? '',
      validade_dias: row?.validade_dias == null ? '' : String(row.validade_dias),
    },
    onClose,
    texts: {
      title: row ? 'Editar Tipo de Documento' : 'Novo Tipo de Documento',
      saved: row ? 'Tipo de documento atualizado.' : 'Tipo de documento criado.',
      saveError: 'Não foi possível salvar o tipo de documento.',
    },
  })
  const errors = form.formState.errors
  return (
    <FormDialog {...dialog}>
      <Field
        label="Tipo de documento"
        htmlFor="td-tipo"
        required
        hint="Ex.: Cartão CNPJ, Anotação de Responsabilidade Técnica (ART)."
        error={errors.tipo?.message}
      >
        <Input
          id="td-tipo"
          autoFocus
          aria-invalid={Boolean(errors.tipo)}
          aria-describedby={errors.tipo ? 'td-tipo-erro' : undefined}
          {...form.register('tipo')}
        />
      </Field>
      <Field
        label="Validade do documento (dias)"
        htmlFor="td-validade"
        hint="Opcional. Em branco, o documento não vence (ex.: 180 para uma certidão negativa)."
        error={errors.validade_dias?.message}
      >
        <Input
          id="td-validade"
          type="number"
          inputMode="numeric"
          min={1}
          max={36500}
          step={1}
          className="sm:w-40"
          aria-invalid={Boolean(errors.validade_dias)}
          aria-describedby={errors.validade_dias ? 'td-validade-erro' : undefined}
          {...form.register('validade_dias')}
        />
      </Field>
    </FormDialog>
  )
}
