import { useQuery } from '@tanstack/react-query'
import { BellRing } from 'lucide-react'
import { Controller } from 'react-hook-form'
import type { DataTableColumn } from '../../components/data-table/data-table.tsx'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Input } from '../../components/ui/input.tsx'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../components/ui/select.tsx'
import { Switch } from '../../components/ui/switch.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { cadastroOptionsQuery } from './api.ts'
import { CadastroPage, type CadastroDialogProps, type CadastroTexts } from './cadastro-page.tsx'
import { useCadastroForm } from './use-cadastro-form.ts'
import { formatValidade } from '#shared/datas.ts'
import {
  TipoServicoFormSchema,
  type Categoria,
  type TipoServico,
} from '#shared/schemas/cadastros.ts'

const SEM_CATEGORIA = 'sem-categoria'

const columns: DataTableColumn<TipoServico>[] = [
  {
    id: 'tipo',
    header: 'Tipo de Serviço',
    card: 'title',
    cell: (r) => <span className="font-medium">{r.tipo}</span>,
  },
  {
    id: 'categoria',
    header: 'Categoria',
    cell: (r) => r.categoria ?? <span className="text-muted-foreground">Sem categoria</span>,
  },
  {
    id: 'validade',
    header: 'Validade',
    className: 'whitespace-nowrap',
    // The renewal's lead time folds under the validity (a field of its own only on a phone card).
    cell: (r) => (
      <>
        <div>{formatValidade(r.validade)}</div>
        {r.antecedencia_renovacao != null && (
          <div className="text-xs text-muted-foreground">
            Renovação {r.antecedencia_renovacao} {r.antecedencia_renovacao === 1 ? 'dia' : 'dias'}{' '}
            antes
          </div>
        )}
      </>
    ),
    cardCell: (r) => formatValidade(r.validade),
  },
  {
    id: 'antecedencia',
    header: 'Antecedência para renovação',
    table: false,
    className: 'whitespace-nowrap',
    cell: (r) =>
      r.antecedencia_renovacao == null ? (
        <span className="text-muted-foreground">—</span>
      ) : (
        `${r.antecedencia_renovacao} ${r.antecedencia_renovacao === 1 ? 'dia' : 'dias'}`
      ),
  },
  {
    id: 'ativo',
    header: 'Situação',
    cell: (r) => (r.ativo ? <Badge>Ativo</Badge> : <Badge variant="outline">Inativo</Badge>),
  },
  {
    id: 'aviso',
    header: 'Mensagem de aviso',
    from: 'xl',
    cell: (r) =>
      r.mensagem_aviso ? (
        <Badge variant="secondary" title={r.mensagem_aviso}>
          <BellRing />
          Sim
        </Badge>
      ) : (
        <span className="text-muted-foreground">Não</span>
      ),
  },
]

const texts: CadastroTexts<TipoServico> = {
  title: 'Tipos de Serviços',
  description:
    'Serviços oferecidos, com a categoria, a validade em dias, a antecedência para renovação e a mensagem mostrada ao cliente.',
  label: 'Lista de tipos de serviços',
  count: (n) => `${n} tipo${n === 1 ? '' : 's'} de serviço`,
  loadError: 'Não foi possível carregar os tipos de serviço.',
  search: { label: 'Buscar tipo de serviço', placeholder: 'Buscar por tipo ou categoria...' },
  novo: 'Novo Tipo de Serviço',
  empty: {
    title: 'Nenhum tipo de serviço cadastrado',
    description: 'Cadastre os serviços que os clientes poderão solicitar.',
  },
  excluir: {
    title: 'Excluir tipo de serviço?',
    description: (r) => (
      <>
        <p>
          O tipo <strong className="text-foreground">{r?.tipo}</strong> e as suas regras de
          documentos serão excluídos. Esta ação não pode ser desfeita.
        </p>
        <p>Tipos com serviços vinculados não podem ser excluídos: desative-os.</p>
      </>
    ),
    done: 'Tipo de serviço excluído com sucesso!',
    doneDescription: (r) => `"${r.tipo}" foi removido.`,
    error: 'Não foi possível excluir o tipo de serviço.',
  },
}

/** SPEC §2: service types, paged by 10, with a dialog and a delete confirm dialog. */
export function TiposServicosPage() {
  return (
    <CadastroPage
      resource="tipos-servicos"
      texts={texts}
      columns={columns}
      dialog={(p) => <TipoServicoDialog {...p} />}
    />
  )
}

function TipoServicoDialog({ row, onClose }: CadastroDialogProps<TipoServico>) {
  const categorias = useQuery(cadastroOptionsQuery<Categoria>('categorias'))
  const { form, dialog } = useCadastroForm({
    resource: 'tipos-servicos',
    schema: TipoServicoFormSchema,
    row,
    defaultValues: {
      tipo: row?.tipo ?? '',
      categoria_id: row?.categoria_id ?? '',
      validade: row ? String(row.validade) : '',
      ativo: row?.ativo ?? true,
      mensagem_aviso: row?.mensagem_aviso ?? '',
      antecedencia_renovacao:
        row?.antecedencia_renovacao == null ? '' : String(row.antecedencia_renovacao),
    },
    onClose,
    texts: {
      title: row ? 'Editar Tipo de Serviço' : 'Novo Tipo de Serviço',
      saved: row ? 'Tipo de serviço atualizado.' : 'Tipo de serviço criado.',
      saveError: 'Não foi possível salvar o tipo de serviço.',
    },
  })
  const errors = form.formState.errors
  return (
    <FormDialog {...dialog}>
      <Field label="Tipo de serviço" htmlFor="ts-tipo" required error={errors.tipo?.message}>
        <Input
          id="ts-tipo"
          autoFocus
          aria-invalid={Boolean(errors.tipo)}
          aria-describedby={errors.tipo ? 'ts-tipo-erro' : undefined}
          {...form.register('tipo')}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
        <Field
          label="Categoria"
          htmlFor="ts-categoria"
          error={errors.categoria_id?.message}
          hint="Opcional."
        >
          <Controller
            control={form.control}
            name="categoria_id"
            render={({ field }) => (
              <Select
                value={field.value || SEM_CATEGORIA}
                onValueChange={(v) => field.onChange(v === SEM_CATEGORIA ? '' : v)}
              >
                <SelectTrigger id="ts-categoria" aria-label="Categoria">
                  <SelectValue
                    placeholder={categorias.isPending ? 'Carregando...' : 'Sem categoria'}
                  />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={SEM_CATEGORIA}>Sem categoria</SelectItem>
                  {categorias.data?.map((c) => (
                    <SelectItem key={c.id} value={c.id}>
                      {c.nome}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </Field>
        <Field
          label="Validade (dias)"
          htmlFor="ts-validade"
          error={errors.validade?.message}
          required
        >
          <Input
            id="ts-validade"
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            aria-invalid={Boolean(errors.validade)}
            {...form.register('validade')}
          />
        </Field>
      </div>
      <Field
        label="Antecedência para renovação (dias)"
        htmlFor="ts-antecedencia"
        hint="Opcional. O cliente recebe um aviso automático quando faltarem estes dias para o fim da vigência (ex.: 120 para a Licença de Operação)."
        error={errors.antecedencia_renovacao?.message}
      >
        <Input
          id="ts-antecedencia"
          type="number"
          inputMode="numeric"
          min={1}
          max={3650}
          step={1}
          className="sm:w-40"
          aria-invalid={Boolean(errors.antecedencia_renovacao)}
          aria-describedby={errors.antecedencia_renovacao ? 'ts-antecedencia-erro' : undefined}
          {...form.register('antecedencia_renovacao')}
        />
      </Field>
      <Field
        label="Mensagem de aviso"
        htmlFor="ts-aviso"
        error={errors.mensagem_aviso?.message}
        hint="Opcional. Mostrada ao cliente quando ele escolhe este serviço."
      >
        <Textarea id="ts-aviso" rows={3} {...form.register('mensagem_aviso')} />
      </Field>
      <Controller
        control={form.control}
        name="ativo"
        render={({ field }) => (
          <label
            htmlFor="ts-ativo"
            className="flex cursor-pointer items-center justify-between gap-4 rounded-md border p-3"
          >
            <span className="grid gap-0.5">
              <span className="text-sm font-medium">Ativo</span>
              <span className="text-xs text-muted-foreground">
                Só os tipos ativos aparecem na solicitação do cliente.
              </span>
            </span>
            <Switch
              id="ts-ativo"
              aria-label="Ativo"
              checked={field.value ?? true}
              onCheckedChange={field.onChange}
            />
          </label>
        )}
      />
    </FormDialog>
  )
}
