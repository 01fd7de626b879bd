import type { FastifyBaseLogger } from 'fastify'
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { dispositivosConhecidos, session, user } from '../db/schema.ts'
import { rawRows } from '../db/sql-helpers.ts'
import { getMarca } from '../mail/empresa.ts'
import type { Mailer } from '../mail/mailer.ts'
import { describeDevice, deviceKey } from './device.ts'
import { emailNovoAcesso } from './emails.ts'

/**
 * "Novo acesso à sua conta". Called once a sign-in has made its session (after the
 * second factor when the account has one). The session's device (browser, system and network,
 * `deviceKey`) is remembered for the account; when it was not known yet, and the account had
 * signed in before from another one, the owner gets an e-mail with the time (Brasília), the
 * address and the browser. The account's first device is remembered without an e-mail. A failure
 * to send is logged and never fails the sign-in.
 */
export async function noticeNewDevice(
  db: Db,
  mailer: Mailer,
  log: FastifyBaseLogger,
  sessionToken: string,
  appUrl: string,
) {
  const [row] = await db
    .select({
      userId: session.userId,
      email: user.email,
      ipAddress: session.ipAddress,
      userAgent: session.userAgent,
      createdAt: session.createdAt,
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(eq(session.token, sessionToken))
  if (!row) return
  const chave = deviceKey(row.userAgent, row.ipAddress)
  // One statement: whether the account knew any device before, and whether this one is new.
  const [result] = await rawRows<{ novo: boolean; conhecia_outro: boolean }>(
    db,
    sql`
    with anteriores as (
      select count(*) > 0 as conhecia_outro from ${dispositivosConhecidos}
      where ${dispositivosConhecidos.user_id} = ${row.userId}
    ), gravado as (
      insert into ${dispositivosConhecidos} (user_id, chave) values (${row.userId}, ${chave})
      on conflict (user_id, chave) do update set visto_em = now()
      returning (xmax = 0) as novo
    )
    select gravado.novo, anteriores.conhecia_outro from gravado, anteriores`,
  )
  if (!result?.novo || !result.conhecia_outro) return
  try {
    await mailer.send({
      to: row.email,
      ...emailNovoAcesso(await getMarca(db, appUrl), {
        em: row.createdAt,
        ip: row.ipAddress,
        navegador: describeDevice(row.userAgent),
      }),
    })
  } catch (err) {
    log.error({ err }, 'new-device notice not sent')
  }
}
