import type { ReactNode } from 'react'
import type { DataTableColumn } from '../../components/data-table/data-table.tsx'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Input } from '../../components/ui/input.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { CadastroPage, type CadastroDialogProps, type CadastroTexts } from './cadastro-page.tsx'
import { useCadastroForm } from './use-cadastro-form.ts'
import { formatDate } from '#shared/datas.ts'
import { ScheduleFormSchema, type Schedule } from '#shared/schemas/cadastros.ts'

const dias = (n: number) => `${n} dia${n === 1 ? '' : 's'} antes`

const columns: DataTableColumn<Schedule>[] = [
  {
    id: 'avisar',
    header: 'Dias para avisar',
    className: 'w-40 whitespace-nowrap',
    card: 'title',
    cell: (r) => (
      <Badge variant="secondary" className="text-sm">
        {dias(r.avisar)}
      </Badge>
    ),
  },
  {
    id: 'mensagem',
    header: 'Mensagem',
    cell: (r) => (
      <span className="line-clamp-3" title={r.mensagem}>
        {r.mensagem}
      </span>
    ),
  },
  {
    id: 'created_at',
    header: 'Criado em',
    className: 'w-32 whitespace-nowrap',
    cell: (r) => formatDate(r.created_at),
  },
]

const texts: CadastroTexts<Schedule> = {
  title: 'Agendamentos de Avisos',
  description:
    'Quantos dias antes do fim da vigência o sistema cria um aviso e envia o email ao cliente. Um serviço que já está dentro do prazo recebe o aviso mais próximo na execução seguinte.',
  label: 'Lista de agendamentos de avisos',
  count: (n) => `${n} agendamento${n === 1 ? '' : 's'}`,
  loadError: 'Não foi possível carregar os agendamentos.',
  search: { label: 'Buscar agendamento', placeholder: 'Buscar pela mensagem...' },
  novo: 'Novo Agendamento',
  empty: {
    title: 'Nenhum agendamento cadastrado',
    description: 'Crie avisos automáticos, por exemplo 90, 30, 15 e 5 dias antes do vencimento.',
  },
  excluir: {
    title: 'Excluir agendamento?',
    description: (r) => (
      <p>
        O aviso de <strong className="text-foreground">{r ? dias(r.avisar) : ''}</strong> do
        vencimento deixará de ser criado. Os avisos já criados nos serviços continuam.
      </p>
    ),
    done: 'Agendamento excluído com sucesso!',
    error: 'Não foi possível excluir o agendamento.',
  },
}

/**
 * SPEC §2: warning schedules, searchable by message, ordered by days. `actions` and `intro`
 * let the page show the automatic warnings job (feature `avisos`) beside them.
 */
export function SchedulesList({ actions, intro }: { actions?: ReactNode; intro?: ReactNode }) {
  return (
    <CadastroPage
      resource="schedules"
      texts={texts}
      columns={columns}
      dialog={(p) => <ScheduleDialog {...p} />}
      headerActions={actions}
      intro={intro}
    />
  )
}

function ScheduleDialog({ row, onClose }: CadastroDialogProps<Schedule>) {
  const { form, dialog } = useCadastroForm({
    resource: 'schedules',
    schema: ScheduleFormSchema,
    row,
    defaultValues: { avisar: row ? String(row.avisar) : '', mensagem: row?.mensagem ?? '' },
    onClose,
    texts: {
      title: row ? 'Editar Agendamento' : 'Novo Agendamento',
      saved: row ? 'Agendamento atualizado.' : 'Agendamento criado.',
      saveError: 'Não foi possível salvar o agendamento.',
    },
  })
  const errors = form.formState.errors
  return (
    <FormDialog {...dialog}>
      <Field
        label="Dias para avisar"
        htmlFor="sch-avisar"
        error={errors.avisar?.message}
        required
        hint="Dias antes do fim da vigência (mínimo 1)."
      >
        <Input
          id="sch-avisar"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          autoFocus
          className="w-32"
          aria-invalid={Boolean(errors.avisar)}
          {...form.register('avisar')}
        />
      </Field>
      <Field
        label="Mensagem"
        htmlFor="sch-mensagem"
        error={errors.mensagem?.message}
        required
        hint="Texto do aviso criado no serviço e enviado por email."
      >
        <Textarea
          id="sch-mensagem"
          rows={4}
          aria-invalid={Boolean(errors.mensagem)}
          {...form.register('mensagem')}
        />
      </Field>
    </FormDialog>
  )
}
