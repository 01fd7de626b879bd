import { zodResolver } from '@hookform/resolvers/zod'
import { FilePlus2, Pencil, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { ConfirmDialog } from '../../components/data-table/confirm-dialog.tsx'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { Button } from '../../components/ui/button.tsx'
import { FormDateField } from '../../components/ui/date-field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { useDeleteExigencia, useSaveExigencia, useSolicitarDocumentos } from './api.ts'
import { SituacaoBadge } from './situacao-badge.tsx'
import { formatDate, today } from '#shared/datas.ts'
import {
  ExigenciaFormSchema,
  SolicitarDocumentosSchema,
  type Exigencia,
  type ExigenciaBody,
  type ExigenciaForm,
  type SolicitarDocumentos,
} from '#shared/schemas/processos.ts'

/** A document type "Solicitar documentos ao cliente" may ask for (loaded by the page). */
export type TipoDocumentoOpcao = { id: string; nome: string }

/**
 * "Exigências do órgão" of the service detail: each request with its deadline and situation,
 * "Nova exigência", edit, delete and "Solicitar documentos ao cliente".
 */
export function ExigenciasLista({
  servicoId,
  exigencias,
  tiposDocumentos,
}: {
  servicoId: string
  exigencias: Exigencia[]
  tiposDocumentos?: TipoDocumentoOpcao[]
}) {
  const [editando, setEditando] = useState<Exigencia | 'nova' | null>(null)
  const [solicitando, setSolicitando] = useState<Exigencia | null>(null)
  const [excluindo, setExcluindo] = useState<Exigencia | null>(null)
  const excluir = useDeleteExigencia(servicoId)
  return (
    <section aria-label="Exigências do órgão" className="grid gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">Exigências do órgão</h3>
        <Button size="sm" variant="outline" onClick={() => setEditando('nova')}>
          <Plus />
          Nova exigência
        </Button>
      </div>
      {exigencias.length === 0 && (
        <p className="text-sm text-muted-foreground">Nenhuma exigência registrada.</p>
      )}
      <ul className="grid gap-2">
        {exigencias.map((e) => (
          <li key={e.id} className="grid gap-2 rounded-lg border p-3 text-sm">
            <p className="break-words whitespace-pre-line">{e.descricao}</p>
            <p className="flex flex-wrap items-center gap-2 text-muted-foreground">
              <span>Recebida em {formatDate(e.recebida_em)}</span>
              <span>· Prazo {formatDate(e.prazo)}</span>
              <SituacaoBadge situacao={e.situacao} />
            </p>
            {e.respondida_em && (
              <p className="text-muted-foreground">
                Respondida em {formatDate(e.respondida_em)}
                {e.protocolo_resposta && ` (protocolo ${e.protocolo_resposta})`}
              </p>
            )}
            {e.documentos > 0 && (
              <p className="text-muted-foreground">
                {e.documentos === 1
                  ? '1 documento solicitado ao cliente'
                  : `${e.documentos} documentos solicitados ao cliente`}
              </p>
            )}
            <div className="flex flex-wrap gap-1">
              <Button size="sm" variant="ghost" onClick={() => setEditando(e)}>
                <Pencil />
                Editar
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setSolicitando(e)}>
                <FilePlus2 />
                Solicitar documentos ao cliente
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setExcluindo(e)}>
                <Trash2 />
                Excluir
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {editando && (
        <ExigenciaDialog
          servicoId={servicoId}
          exigencia={editando === 'nova' ? undefined : editando}
          onClose={() => setEditando(null)}
        />
      )}
      {solicitando && (
        <SolicitarDocumentosDialog
          servicoId={servicoId}
          exigencia={solicitando}
          tiposDocumentos={tiposDocumentos}
          onClose={() => setSolicitando(null)}
        />
      )}
      <ConfirmDialog
        open={excluindo !== null}
        onOpenChange={(o) => !o && setExcluindo(null)}
        title="Excluir exigência?"
        description={
          <p>
            A exigência e os documentos solicitados por ela deixam de aparecer para o cliente. Os
            arquivos já enviados são mantidos.
          </p>
        }
        pending={excluir.isPending}
        pendingLabel="Excluindo..."
        onConfirm={() =>
          excluindo &&
          excluir.mutate(excluindo.id, {
            onSuccess: () => {
              notifySuccess('Exigência excluída.')
              setExcluindo(null)
            },
            onError: (err) => notifyFailure('Não foi possível excluir a exigência.', err),
          })
        }
      />
    </section>
  )
}

function ExigenciaDialog({
  servicoId,
  exigencia,
  onClose,
}: {
  servicoId: string
  exigencia?: Exigencia
  onClose: () => void
}) {
  const salvar = useSaveExigencia(servicoId)
  const form = useForm<ExigenciaForm, unknown, ExigenciaBody>({
    resolver: zodResolver(ExigenciaFormSchema),
    defaultValues: {
      descricao: exigencia?.descricao ?? '',
      recebida_em: exigencia?.recebida_em ?? today(),
      prazo: exigencia?.prazo ?? '',
      respondida_em: exigencia?.respondida_em ?? '',
      protocolo_resposta: exigencia?.protocolo_resposta ?? '',
    },
  })
  const errors = form.formState.errors
  const onSubmit = form.handleSubmit(
    (body) =>
      salvar.mutate(
        { id: exigencia?.id, body },
        {
          onSuccess: () => {
            notifySuccess(exigencia ? 'Exigência atualizada!' : 'Exigência registrada!')
            onClose()
          },
          onError: (err) =>
            notifyFailure('Não foi possível salvar a exigência.', err, form.setError),
        },
      ),
    notifyInvalid('Erro'),
  )
  return (
    <FormDialog
      open
      onOpenChange={(o) => !o && onClose()}
      dirty={form.formState.isDirty}
      title={exigencia ? 'Editar exigência' : 'Nova exigência'}
      description="Pedido de informações complementares do órgão e o prazo para atendê-lo."
      pending={salvar.isPending}
      onSubmit={onSubmit}
    >
      <Field
        label="Descrição"
        htmlFor="exigencia-descricao"
        required
        error={errors.descricao?.message}
      >
        <Textarea
          id="exigencia-descricao"
          rows={3}
          aria-invalid={Boolean(errors.descricao)}
          {...form.register('descricao')}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Recebida em" htmlFor="exigencia-recebida" required>
          <FormDateField control={form.control} name="recebida_em" id="exigencia-recebida" />
        </Field>
        <Field label="Prazo para atendimento" htmlFor="exigencia-prazo" required>
          <FormDateField control={form.control} name="prazo" id="exigencia-prazo" />
        </Field>
        <Field label="Respondida em" htmlFor="exigencia-respondida">
          <FormDateField control={form.control} name="respondida_em" id="exigencia-respondida" />
        </Field>
        <Field
          label="Protocolo da resposta"
          htmlFor="exigencia-protocolo"
          error={errors.protocolo_resposta?.message}
        >
          <Input id="exigencia-protocolo" {...form.register('protocolo_resposta')} />
        </Field>
      </div>
    </FormDialog>
  )
}

/** "Solicitar documentos ao cliente": the types become required documents with the deadline. */
function SolicitarDocumentosDialog({
  servicoId,
  exigencia,
  tiposDocumentos,
  onClose,
}: {
  servicoId: string
  exigencia: Exigencia
  tiposDocumentos?: TipoDocumentoOpcao[]
  onClose: () => void
}) {
  const solicitar = useSolicitarDocumentos(servicoId)
  const form = useForm<SolicitarDocumentos>({
    resolver: zodResolver(SolicitarDocumentosSchema),
    defaultValues: { tipos_documentos: [] },
  })
  const onSubmit = form.handleSubmit(
    (body) =>
      solicitar.mutate(
        { id: exigencia.id, body },
        {
          onSuccess: () => {
            notifySuccess('Documentos solicitados!', 'O cliente foi notificado.')
            onClose()
          },
          onError: (err) =>
            notifyFailure('Não foi possível solicitar os documentos.', err, form.setError),
        },
      ),
    notifyInvalid('Erro'),
  )
  return (
    <FormDialog
      open
      onOpenChange={(o) => !o && onClose()}
      dirty={form.formState.isDirty}
      title="Solicitar documentos ao cliente"
      description={`O cliente verá estes documentos entre os do serviço, com o prazo de ${formatDate(exigencia.prazo)}.`}
      submitLabel="Solicitar"
      pending={solicitar.isPending}
      onSubmit={onSubmit}
    >
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Tipos de documento</legend>
        <div className="grid max-h-72 gap-1 overflow-y-auto rounded-md border p-2">
          {tiposDocumentos?.map((t) => (
            <label key={t.id} className="flex items-center gap-2 rounded px-1 py-1 text-sm">
              <input
                type="checkbox"
                value={t.id}
                className="size-4 accent-primary"
                {...form.register('tipos_documentos')}
              />
              {t.nome}
            </label>
          ))}
        </div>
        {form.formState.errors.tipos_documentos && (
          <p className="text-sm text-destructive">
            {form.formState.errors.tipos_documentos.message}
          </p>
        )}
      </fieldset>
    </FormDialog>
  )
}
