import { sql } from 'drizzle-orm'
import type { DbOrTx } from './client.ts'
import { rawRows } from './sql-helpers.ts'
import type { TipoNotificacao } from '#shared/schemas/notificacoes.ts'

/**
 * Writes the bell's notifications, always with the `tx` of the event they tell about
 * (an aviso created, a document sent, a status changed...), so an event and its notification are
 * committed together or not at all. Shared infrastructure: several features notify.
 */
export type NovaNotificacao = { tipo: TipoNotificacao; titulo: string; link: string }

/** The screens a notification opens (the web app's paths). */
export const linkNotificacao = {
  inicioCliente: () => '/app/usuario/dashboard',
  documentosCliente: (servicoId: string) => `/app/servico/${servicoId}/documentos`,
  servicoAdmin: (servicoId: string) => `/app/admin/servico/${servicoId}`,
}

/** Notifies the account of the client that owns the service (none when it has no account). */
export async function notifyCliente(tx: DbOrTx, servicoId: string, n: NovaNotificacao) {
  await tx.execute(sql`
    insert into notificacoes (user_id, tipo, titulo, link)
    select c.user_id, ${n.tipo}, ${n.titulo}, ${n.link}
    from servicos s join clientes c on c.id = s.cliente_id
    where s.id = ${servicoId} and c.user_id is not null`)
}

/** Notifies every administrator. */
export async function notifyAdmins(tx: DbOrTx, n: NovaNotificacao) {
  await tx.execute(sql`
    insert into notificacoes (user_id, tipo, titulo, link)
    select r.user_id, ${n.tipo}, ${n.titulo}, ${n.link}
    from user_roles r where r.role = 'admin'`)
}

/** The name of the client of a service (how the administration's notifications say who). */
export async function nomeCliente(tx: DbOrTx, servicoId: string): Promise<string> {
  const [row] = await rawRows<{ nome: string }>(
    tx,
    sql`select c.nome from servicos s join clientes c on c.id = s.cliente_id where s.id = ${servicoId}`,
  )
  return row?.nome ?? 'cliente'
}

/** "Licença de Operação (2026-000012)": how a notification names a service. */
export async function nomeServico(tx: DbOrTx, servicoId: string): Promise<string> {
  const [row] = await rawRows<{ nome: string }>(
    tx,
    sql`
    select t.tipo || coalesce(' (' || s.protocolo || ')', '') as nome
    from servicos s join tipos_servicos t on t.id = s.tipo_servico_id where s.id = ${servicoId}`,
  )
  return row?.nome ?? 'Serviço'
}

/**
 * The client hears of an automatic warning when its e-mail is first recorded (a retry
 * of the addresses that failed is not news). The one call the warnings job makes.
 */
export async function notifyAvisoAutomatico(
  tx: DbOrTx,
  servicoId: string,
  primeiroEnvio: boolean,
  mensagem: string,
) {
  if (!primeiroEnvio) return
  const linha = mensagem.split('\n')[0].trim()
  await notifyCliente(tx, servicoId, {
    tipo: 'aviso_automatico',
    titulo: `Aviso de vencimento: ${await nomeServico(tx, servicoId)}: ${linha.length > 80 ? `${linha.slice(0, 79)}…` : linha}`,
    link: linkNotificacao.inicioCliente(),
  })
}

/**
 * The day after its end date the warnings job makes a service 'Vencido'; its client is
 * told with an automatic warning (the kind "Avisos de vencimento" of Meus Dados).
 */
export async function notifyVencido(tx: DbOrTx, servicoId: string, fim: string) {
  await notifyCliente(tx, servicoId, {
    tipo: 'aviso_automatico',
    titulo: `Aviso de vencimento: ${await nomeServico(tx, servicoId)}: a vigência terminou em ${fim}; status alterado para Vencido`,
    link: linkNotificacao.inicioCliente(),
  })
}
