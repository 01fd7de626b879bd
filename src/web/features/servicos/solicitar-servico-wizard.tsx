import { useQuery } from '@tanstack/react-query'
import {
  AlertTriangle,
  ArrowLeft,
  ArrowRight,
  CalendarClock,
  Check,
  FolderOpen,
  Loader2,
  Send,
} from 'lucide-react'
import { useEffect, useState, type ReactNode } from 'react'
import { useNavigate } from 'react-router'
import { Button } from '../../components/ui/button.tsx'
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
} from '../../components/ui/card.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { ApiError } from '../../lib/api.ts'
import { notifyError, notifySuccess } from '../../lib/notify.ts'
import { cn } from '../../lib/utils.ts'
import { paths } from '../../paths.ts'
import { catalogoQuery, catalogoTiposQuery, useCreateServico } from './api.ts'
import { addDays, formatDate, formatValidade, today } from '#shared/datas.ts'

const STEPS = ['Categoria', 'Tipo de Serviço', 'Confirmação'] as const

/** SPEC §2, §7: the 3-step wizard (category, type, confirmation) that requests a service. */
export function SolicitarServicoWizard() {
  const navigate = useNavigate()
  const [step, setStep] = useState(0)
  const [categoriaId, setCategoriaId] = useState('')
  const [tipoId, setTipoId] = useState('')
  const categorias = useQuery(catalogoQuery())
  const tipos = useQuery(catalogoTiposQuery(categoriaId))
  const solicitar = useCreateServico()

  useEffect(() => {
    if (categorias.isError) notifyError('Erro', 'Não foi possível carregar as categorias.')
  }, [categorias.isError])
  useEffect(() => {
    if (tipos.isError) notifyError('Erro', 'Não foi possível carregar os tipos de serviço.')
  }, [tipos.isError])

  const categoria = categorias.data?.find((c) => c.id === categoriaId)
  const tipo = tipos.data?.find((t) => t.id === tipoId)

  async function confirmar() {
    if (!tipo) return
    try {
      const servico = await solicitar.mutateAsync(tipo.id)
      notifySuccess(
        'Serviço solicitado com sucesso!',
        'Seu serviço foi criado e está em andamento.',
      )
      navigate(paths.usuario.documentos(servico.id))
    } catch (err) {
      const known = err instanceof ApiError && err.status >= 400 && err.status < 500
      notifyError('Erro', known ? err.message : 'Não foi possível criar o serviço.')
    }
  }

  return (
    <div className="grid gap-6">
      <Steps current={step} />
      {step === 0 && (
        <StepCard
          title="Escolha a categoria"
          description="Selecione a área do serviço que você deseja solicitar."
          footer={
            <Button
              onClick={() => setStep(1)}
              disabled={!categoria}
              className="w-full sm:ml-auto sm:w-auto"
            >
              Próximo
              <ArrowRight />
            </Button>
          }
        >
          {categorias.isPending ? (
            <LoadingList />
          ) : !categorias.data?.length ? (
            <Empty>Nenhuma categoria disponível no momento.</Empty>
          ) : (
            <RadioList label="Categorias">
              {categorias.data.map((c) => (
                <RadioCard
                  key={c.id}
                  name="categoria"
                  checked={c.id === categoriaId}
                  onSelect={() => {
                    if (c.id !== categoriaId) setTipoId('')
                    setCategoriaId(c.id)
                  }}
                  title={c.nome}
                  icon={<FolderOpen className="size-4" />}
                >
                  {c.descricao && <span className="block">{c.descricao}</span>}
                  <span className="block text-xs">
                    {c.tipos_ativos === 1
                      ? '1 serviço disponível'
                      : `${c.tipos_ativos} serviços disponíveis`}
                  </span>
                </RadioCard>
              ))}
            </RadioList>
          )}
        </StepCard>
      )}

      {step === 1 && (
        <StepCard
          title="Escolha o tipo de serviço"
          description={categoria ? `Serviços ativos em ${categoria.nome}.` : undefined}
          footer={
            <>
              <Button variant="outline" onClick={() => setStep(0)} className="flex-1 sm:flex-none">
                <ArrowLeft />
                Voltar
              </Button>
              <Button
                onClick={() => setStep(2)}
                disabled={!tipo}
                className="flex-1 sm:ml-auto sm:flex-none"
              >
                Próximo
                <ArrowRight />
              </Button>
            </>
          }
        >
          {tipos.isPending ? (
            <LoadingList />
          ) : !tipos.data?.length ? (
            <Empty>Nenhum tipo de serviço disponível nesta categoria.</Empty>
          ) : (
            <RadioList label="Tipos de serviço">
              {tipos.data.map((t) => (
                <RadioCard
                  key={t.id}
                  name="tipo-servico"
                  checked={t.id === tipoId}
                  onSelect={() => setTipoId(t.id)}
                  title={t.tipo}
                  icon={<CalendarClock className="size-4" />}
                >
                  <span className="block">Validade: {formatValidade(t.validade)}</span>
                </RadioCard>
              ))}
            </RadioList>
          )}
          {tipo?.mensagem_aviso && <Aviso>{tipo.mensagem_aviso}</Aviso>}
        </StepCard>
      )}

      {step === 2 && tipo && categoria && (
        <StepCard
          title="Confirme sua solicitação"
          description="Revise os dados abaixo antes de confirmar."
          footer={
            <>
              <Button
                variant="outline"
                onClick={() => setStep(1)}
                disabled={solicitar.isPending}
                className="flex-1 sm:flex-none"
              >
                <ArrowLeft />
                Voltar
              </Button>
              <Button
                onClick={() => void confirmar()}
                disabled={solicitar.isPending}
                className="flex-1 sm:ml-auto sm:flex-none"
              >
                {solicitar.isPending ? <Loader2 className="animate-spin" /> : <Send />}
                Confirmar Solicitação
              </Button>
            </>
          }
        >
          <dl className="grid gap-4 rounded-lg border bg-muted/40 p-4 text-sm sm:grid-cols-2">
            <Item label="Categoria">{categoria.nome}</Item>
            <Item label="Tipo de Serviço">{tipo.tipo}</Item>
            <Item label="Validade">{formatValidade(tipo.validade)}</Item>
            <Item label="Vigência prevista">
              {formatDate(today())} até {formatDate(addDays(today(), tipo.validade))}
            </Item>
          </dl>
          {tipo.mensagem_aviso && <Aviso>{tipo.mensagem_aviso}</Aviso>}
          <p className="text-sm text-muted-foreground">
            Após a confirmação, o serviço fica em andamento e você poderá enviar os documentos
            exigidos.
          </p>
        </StepCard>
      )}
    </div>
  )
}

function Steps({ current }: { current: number }) {
  return (
    <ol className="grid grid-cols-3 gap-2" aria-label="Etapas">
      {STEPS.map((label, i) => {
        const done = i < current
        const active = i === current
        return (
          <li
            key={label}
            aria-current={active ? 'step' : undefined}
            className="flex flex-col items-center gap-1.5 text-center sm:flex-row sm:gap-2 sm:text-left"
          >
            <span
              className={cn(
                'flex size-8 shrink-0 items-center justify-center rounded-full border text-sm font-semibold',
                done && 'border-primary bg-primary text-primary-foreground',
                active && 'border-primary text-primary ring-4 ring-primary/15',
                !done && !active && 'text-muted-foreground',
              )}
            >
              {done ? <Check className="size-4" /> : i + 1}
            </span>
            <span
              className={cn(
                'text-xs sm:text-sm',
                active ? 'font-semibold' : 'text-muted-foreground',
              )}
            >
              <span className="sr-only">Etapa {i + 1} de 3: </span>
              {label}
            </span>
          </li>
        )
      })}
    </ol>
  )
}

function StepCard({
  title,
  description,
  footer,
  children,
}: {
  title: string
  description?: string
  footer: ReactNode
  children: ReactNode
}) {
  return (
    <Card>
      <CardHeader>
        <h2 className="text-lg leading-none font-semibold">{title}</h2>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className="grid gap-4">{children}</CardContent>
      <CardFooter className="flex gap-2 border-t pt-6">{footer}</CardFooter>
    </Card>
  )
}

function RadioList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="radiogroup" aria-label={label} className="grid gap-3 sm:grid-cols-2">
      {children}
    </div>
  )
}

function RadioCard({
  name,
  checked,
  onSelect,
  title,
  icon,
  children,
}: {
  name: string
  checked: boolean
  onSelect: () => void
  title: string
  icon: ReactNode
  children?: ReactNode
}) {
  return (
    <label
      className={cn(
        'flex cursor-pointer items-start gap-3 rounded-lg border bg-background p-4 transition-colors hover:bg-accent/50',
        'has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50',
        checked && 'border-primary bg-primary/5 ring-1 ring-primary',
      )}
    >
      <input type="radio" name={name} checked={checked} onChange={onSelect} className="sr-only" />
      <span
        className={cn(
          'mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-md',
          checked ? 'bg-primary text-primary-foreground' : 'bg-primary/10 text-primary',
        )}
      >
        {checked ? <Check className="size-4" /> : icon}
      </span>
      <span className="grid min-w-0 gap-1">
        <span className="font-medium leading-snug">{title}</span>
        <span className="text-sm text-muted-foreground">{children}</span>
      </span>
    </label>
  )
}

function Aviso({ children }: { children: ReactNode }) {
  return (
    <div
      role="note"
      className="flex gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
    >
      <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-600" />
      <div>
        <p className="font-medium">Atenção</p>
        <p className="mt-0.5 whitespace-pre-wrap">{children}</p>
      </div>
    </div>
  )
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 font-medium">{children}</dd>
    </div>
  )
}

function LoadingList() {
  return (
    <div className="flex justify-center py-8">
      <Spinner />
    </div>
  )
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
      {children}
    </p>
  )
}
