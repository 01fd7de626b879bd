import { Controller } from 'react-hook-form'
import type { DataTableColumn } from '../../components/data-table/data-table.tsx'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { Input } from '../../components/ui/input.tsx'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../components/ui/select.tsx'
import { CadastroPage, type CadastroDialogProps, type CadastroTexts } from './cadastro-page.tsx'
import { useCadastroForm } from './use-cadastro-form.ts'
import { ESFERAS } from '#shared/processo.ts'
import { OrgaoFormSchema, type Orgao, type OrgaoForm } from '#shared/schemas/cadastros.ts'
import { UFS } from '#shared/endereco.ts'

const SEM_UF = 'sem-uf'

const columns: DataTableColumn<Orgao>[] = [
  {
    id: 'sigla',
    header: 'Sigla',
    card: 'title',
    className: 'whitespace-nowrap',
    cell: (r) => <span className="font-medium">{r.sigla}</span>,
  },
  { id: 'nome', header: 'Nome', cell: (r) => r.nome },
  { id: 'esfera', header: 'Esfera', className: 'whitespace-nowrap', cell: (r) => r.esfera },
  {
    id: 'uf',
    header: 'UF',
    className: 'w-16',
    cell: (r) => r.uf ?? <span className="text-muted-foreground">—</span>,
  },
]

const texts: CadastroTexts<Orgao> = {
  title: 'Órgãos Ambientais',
  description: 'Órgãos licenciadores indicados no processo de cada serviço.',
  label: 'Lista de órgãos ambientais',
  count: (n) => `${n} ${n === 1 ? 'órgão' : 'órgãos'}`,
  loadError: 'Não foi possível carregar os órgãos ambientais.',
  search: { label: 'Buscar órgão', placeholder: 'Buscar por sigla ou nome...' },
  novo: 'Novo Órgão',
  empty: {
    title: 'Nenhum órgão cadastrado',
    description: 'Cadastre os órgãos ambientais em que os processos dos clientes tramitam.',
  },
  excluir: {
    title: 'Excluir órgão?',
    description: (r) => (
      <p>
        O órgão <strong className="text-foreground">{r?.sigla}</strong> será excluído. Esta ação não
        pode ser desfeita.
      </p>
    ),
    done: 'Órgão excluído com sucesso!',
    doneDescription: (r) => `"${r.sigla}" foi removido.`,
    error: 'Não foi possível excluir o órgão.',
  },
}

/** "Órgãos ambientais": Sigla, Nome, Esfera, UF, paged by 10, dialog and delete confirm. */
export function OrgaosPage() {
  return (
    <CadastroPage
      resource="orgaos"
      texts={texts}
      columns={columns}
      dialog={(p) => <OrgaoDialog {...p} />}
    />
  )
}

function OrgaoDialog({ row, onClose }: CadastroDialogProps<Orgao>) {
  const { form, dialog } = useCadastroForm({
    resource: 'orgaos',
    schema: OrgaoFormSchema,
    row,
    defaultValues: {
      sigla: row?.sigla ?? '',
      nome: row?.nome ?? '',
      esfera: row?.esfera ?? 'Estadual',
      uf: (row?.uf ?? '') as OrgaoForm['uf'],
    },
    onClose,
    texts: {
      title: row ? 'Editar Órgão' : 'Novo Órgão',
      saved: row ? 'Órgão atualizado.' : 'Órgão criado.',
      saveError: 'Não foi possível salvar o órgão.',
    },
  })
  const errors = form.formState.errors
  return (
    <FormDialog {...dialog}>
      <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
        <Field label="Sigla" htmlFor="org-sigla" required error={errors.sigla?.message}>
          <Input
            id="org-sigla"
            autoFocus
            aria-invalid={Boolean(errors.sigla)}
            aria-describedby={errors.sigla ? 'org-sigla-erro' : undefined}
            {...form.register('sigla')}
          />
        </Field>
        <Field label="Nome" htmlFor="org-nome" required error={errors.nome?.message}>
          <Input
            id="org-nome"
            aria-invalid={Boolean(errors.nome)}
            aria-describedby={errors.nome ? 'org-nome-erro' : undefined}
            {...form.register('nome')}
          />
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Esfera" htmlFor="org-esfera" required error={errors.esfera?.message}>
          <Controller
            control={form.control}
            name="esfera"
            render={({ field }) => (
              <Select
                value={field.value}
                onValueChange={(v) => {
                  field.onChange(v)
                  if (v === 'Federal') form.setValue('uf', '', { shouldDirty: true })
                }}
              >
                <SelectTrigger id="org-esfera" aria-label="Esfera">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {ESFERAS.map((e) => (
                    <SelectItem key={e} value={e}>
                      {e}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </Field>
        <Field
          label="UF"
          htmlFor="org-uf"
          error={errors.uf?.message}
          hint="Em branco para um órgão federal."
        >
          <Controller
            control={form.control}
            name="uf"
            render={({ field }) => (
              <Select
                value={field.value || SEM_UF}
                onValueChange={(v) => field.onChange(v === SEM_UF ? '' : v)}
              >
                <SelectTrigger id="org-uf" aria-label="UF" aria-invalid={Boolean(errors.uf)}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={SEM_UF}>Sem UF</SelectItem>
                  {UFS.map((uf) => (
                    <SelectItem key={uf} value={uf}>
                      {uf}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </Field>
      </div>
    </FormDialog>
  )
}
