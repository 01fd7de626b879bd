import { zodResolver } from '@hookform/resolvers/zod'
import { useForm, type DefaultValues, type FieldValues } from 'react-hook-form'
import type { z } from 'zod'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { useSaveCadastro, type Catalogo } from './api.ts'

/**
 * The form of a catalogue's create/edit dialog: the schema's rules beside the fields and in a
 * toast, the save (`POST` without a row, `PATCH` with one), 'Salvo com sucesso!' and closing, or
 * the refusal beside its field. `dialog` is what `FormDialog` takes besides the fields.
 */
export function useCadastroForm<In extends FieldValues, Out extends FieldValues>({
  resource,
  schema,
  row,
  defaultValues,
  onClose,
  texts,
}: {
  resource: Catalogo
  schema: z.ZodType<Out, In>
  /** The row being edited; none creates one. */
  row?: { id: string }
  defaultValues: DefaultValues<In>
  onClose: () => void
  /** The dialog's title, the description of the saved toast, the fallback of a failed save. */
  texts: { title: string; saved: string; saveError: string }
}) {
  const salvar = useSaveCadastro<Out>(resource)
  const form = useForm<In, unknown, Out>({ resolver: zodResolver(schema), defaultValues })
  const onSubmit = form.handleSubmit(
    (body) =>
      salvar.mutate(
        { id: row?.id, body },
        {
          onSuccess: () => {
            notifySuccess('Salvo com sucesso!', texts.saved)
            onClose()
          },
          onError: (err) => notifyFailure(texts.saveError, err, form.setError),
        },
      ),
    notifyInvalid('Erro'),
  )
  return {
    form,
    dialog: {
      open: true,
      onOpenChange: (o: boolean) => !o && onClose(),
      title: texts.title,
      dirty: form.formState.isDirty,
      pending: salvar.isPending,
      onSubmit,
    },
  }
}
