import { useQuery } from '@tanstack/react-query'
import { ArrowRight } from 'lucide-react'
import { Controller } from 'react-hook-form'
import type { DataTableColumn } from '../../components/data-table/data-table.tsx'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../components/ui/select.tsx'
import { cadastroOptionsQuery } from './api.ts'
import { CadastroPage, type CadastroDialogProps, type CadastroTexts } from './cadastro-page.tsx'
import { useCadastroForm } from './use-cadastro-form.ts'
import { formatDate } from '#shared/datas.ts'
import {
  RegraFormSchema,
  type Regra,
  type TipoDocumento,
  type TipoServico,
} from '#shared/schemas/cadastros.ts'

const columns: DataTableColumn<Regra>[] = [
  {
    id: 'tipo_servico',
    header: 'Tipo de Serviço',
    card: 'title',
    cell: (r) => <span className="font-medium">{r.tipo_servico}</span>,
  },
  {
    id: 'tipo_documento',
    header: 'Documento Exigido',
    cell: (r) => (
      <span className="inline-flex items-center gap-2">
        <ArrowRight aria-hidden className="hidden size-3.5 text-muted-foreground md:inline" />
        {r.tipo_documento}
      </span>
    ),
  },
  {
    id: 'created_at',
    header: 'Criada em',
    className: 'w-32 whitespace-nowrap',
    cell: (r) => formatDate(r.created_at),
  },
]

const texts: CadastroTexts<Regra> = {
  title: 'Regras de Documentos',
  description: 'Documentos que o cliente precisa enviar em cada tipo de serviço.',
  label: 'Lista de regras de documentos',
  count: (n) => `${n} regra${n === 1 ? '' : 's'}`,
  loadError: 'Não foi possível carregar as regras de documentos.',
  search: { label: 'Buscar regra', placeholder: 'Buscar por tipo de serviço ou documento...' },
  novo: 'Nova Regra',
  empty: {
    title: 'Nenhuma regra cadastrada',
    description: 'Defina quais documentos cada tipo de serviço exige.',
  },
  excluir: {
    title: 'Excluir regra?',
    description: (r) => (
      <p>
        <strong className="text-foreground">{r?.tipo_documento}</strong> deixará de ser exigido em{' '}
        <strong className="text-foreground">{r?.tipo_servico}</strong>. Documentos já enviados
        continuam nos serviços.
      </p>
    ),
    done: 'Regra excluída com sucesso!',
    error: 'Não foi possível excluir a regra.',
  },
}

/** SPEC §2: which document types each service type requires; paged by 10, search, create, delete. */
export function RegrasDocumentosPage() {
  return (
    <CadastroPage
      resource="regras-documentos"
      texts={texts}
      columns={columns}
      dialog={(p) => <RegraDialog {...p} />}
      editable={false}
    />
  )
}

/** A rule is created and deleted, never edited. */
function RegraDialog({ onClose }: CadastroDialogProps<Regra>) {
  const tiposServicos = useQuery(cadastroOptionsQuery<TipoServico>('tipos-servicos'))
  const tiposDocumentos = useQuery(cadastroOptionsQuery<TipoDocumento>('tipos-documentos'))
  const { form, dialog } = useCadastroForm({
    resource: 'regras-documentos',
    schema: RegraFormSchema,
    defaultValues: { tipo_servico_id: '', tipo_documento_id: '' },
    onClose,
    texts: {
      title: 'Nova Regra',
      saved: 'Regra criada.',
      saveError: 'Não foi possível salvar a regra.',
    },
  })
  const errors = form.formState.errors
  const select = (
    name: 'tipo_servico_id' | 'tipo_documento_id',
    id: string,
    label: string,
    placeholder: string,
    opcoes: { isPending: boolean; data?: { id: string; nome: string }[] },
  ) => (
    <Field label={label} htmlFor={id} error={errors[name]?.message} required>
      <Controller
        control={form.control}
        name={name}
        render={({ field }) => (
          <Select value={field.value} onValueChange={field.onChange}>
            <SelectTrigger id={id} aria-label={label} aria-invalid={Boolean(errors[name])}>
              <SelectValue placeholder={opcoes.isPending ? 'Carregando...' : placeholder} />
            </SelectTrigger>
            <SelectContent>
              {opcoes.data?.map((o) => (
                <SelectItem key={o.id} value={o.id}>
                  {o.nome}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      />
    </Field>
  )
  return (
    <FormDialog {...dialog}>
      {select('tipo_servico_id', 'regra-ts', 'Tipo de serviço', 'Selecione o tipo de serviço', {
        isPending: tiposServicos.isPending,
        data: tiposServicos.data?.map((t) => ({
          id: t.id,
          nome: t.ativo ? t.tipo : `${t.tipo} (inativo)`,
        })),
      })}
      {select(
        'tipo_documento_id',
        'regra-td',
        'Documento exigido',
        'Selecione o tipo de documento',
        {
          isPending: tiposDocumentos.isPending,
          data: tiposDocumentos.data?.map((t) => ({ id: t.id, nome: t.tipo })),
        },
      )}
    </FormDialog>
  )
}
