import { useQuery } from '@tanstack/react-query'
import { ArrowLeft, FileArchive, FileCheck2, Loader2 } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Link, useNavigate, useParams, useSearchParams } from 'react-router'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent } from '../../components/ui/card.tsx'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import { ApiError, saveBlob } from '../../lib/api.ts'
import { notifyError, notifyInfo, notifySuccess } from '../../lib/notify.ts'
import { buildZip } from '../../lib/zip.ts'
import { paths } from '../../paths.ts'
import { documentosQuery, downloadDocumento } from './api.ts'
import { DocumentosDisponibilizados } from './documentos-disponibilizados.tsx'
import { DossieLink } from './dossie-link.tsx'
import { ExigidoCard } from './documento-exigido-card.tsx'
import { downloadName, zipFileName } from '#shared/arquivos.ts'
import type { DocumentoEnviado, DocumentosServico } from '#shared/schemas/documentos.ts'

/** SPEC §2 "Documents screen of a service (client)". */
export function DocumentosPage() {
  const { servicoId = '' } = useParams()
  // A notification about one document (a rejection) opens the page on it.
  const [search] = useSearchParams()
  const destaque = search.get('documento')
  const navigate = useNavigate()
  const { data, isPending, error } = useQuery(documentosQuery(servicoId))
  const [zipping, setZipping] = useState(false)
  const reported = useRef(false)

  useEffect(() => {
    if (!error || reported.current) return
    reported.current = true
    // SPEC §8: another client's service, or a missing one, is "not found" and goes back to /app.
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
      notifyError('Erro', 'Serviço não encontrado.')
      navigate(paths.app, { replace: true })
    } else {
      notifyError('Erro', 'Não foi possível carregar os documentos.')
    }
  }, [error, navigate])

  if (isPending || !data) {
    return (
      <>
        <Header />
        {isPending ? <CenteredSpinner label="Carregando documentos..." /> : null}
      </>
    )
  }

  const baixaveis: DocumentoEnviado[] = [
    ...data.exigidos.flatMap((e) => (e.documento ? [e.documento] : [])),
    ...data.extras,
  ]

  async function baixarTodos() {
    if (baixaveis.length === 0) {
      notifyError('Nenhum documento encontrado', 'Não há documentos disponíveis para download.')
      return
    }
    setZipping(true)
    notifyInfo('Preparando download', `Processando ${baixaveis.length} documento(s)...`)
    try {
      const { blob, added } = await buildZip(
        baixaveis.map((d) => ({
          name: downloadName(d.tipo, d.arquivo),
          fetch: () => downloadDocumento(d.id),
        })),
      )
      if (!blob) {
        notifyError('Erro', 'Não foi possível baixar nenhum documento.')
        return
      }
      saveBlob(blob, zipFileName(data!.servico.tipo_servico, data!.servico.protocolo))
      notifySuccess('Download concluído', `${added} documento(s) baixado(s) em arquivo ZIP.`)
    } catch (err) {
      console.error('Falha ao criar o ZIP', err)
      notifyError('Erro', 'Não foi possível criar o arquivo ZIP.')
    } finally {
      setZipping(false)
    }
  }

  return (
    <>
      <Header
        servico={data.servico}
        action={
          <div className="flex flex-col gap-2 sm:flex-row">
            {baixaveis.length > 0 && (
              <Button
                variant="outline"
                onClick={() => void baixarTodos()}
                disabled={zipping}
                className="w-full sm:w-auto"
              >
                {zipping ? <Loader2 className="animate-spin" /> : <FileArchive />}
                Baixar Todos em ZIP
              </Button>
            )}
            <DossieLink servicoId={data.servico.id} size="default" className="w-full sm:w-auto" />
          </div>
        }
      />

      <section aria-labelledby="exigidos-titulo" className="grid gap-4">
        <h2 id="exigidos-titulo" className="sr-only">
          Documentos exigidos
        </h2>
        {data.exigidos.length === 0 ? (
          <Card>
            <CardContent className="flex flex-col items-center gap-2 py-6 text-center text-muted-foreground">
              <FileCheck2 className="size-8" />
              <p>Nenhum documento exigido para este serviço.</p>
            </CardContent>
          </Card>
        ) : (
          <ul className="grid gap-4 md:grid-cols-2">
            {data.exigidos.map((e) => (
              <li key={e.tipo_documento_id}>
                <ExigidoCard
                  servicoId={data.servico.id}
                  exigido={e}
                  destacado={!!destaque && e.documento?.id === destaque}
                />
              </li>
            ))}
          </ul>
        )}
      </section>

      {data.extras.length > 0 && <DocumentosDisponibilizados extras={data.extras} />}
    </>
  )
}

function Header({
  servico,
  action,
}: {
  servico?: DocumentosServico['servico']
  action?: React.ReactNode
}) {
  return (
    <div className="mb-6 grid gap-4">
      <div>
        <Button variant="ghost" size="sm" asChild className="-ml-2 text-muted-foreground">
          <Link to={paths.app}>
            <ArrowLeft />
            Voltar
          </Link>
        </Button>
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight">Documentos Exigidos</h1>
          {servico && (
            <p className="mt-1 text-sm text-muted-foreground">
              {servico.tipo_servico}
              {servico.protocolo && (
                <>
                  <span aria-hidden> • </span>
                  Protocolo:{' '}
                  <span className="font-medium whitespace-nowrap text-foreground">
                    {servico.protocolo}
                  </span>
                </>
              )}
            </p>
          )}
        </div>
        {action}
      </div>
    </div>
  )
}
