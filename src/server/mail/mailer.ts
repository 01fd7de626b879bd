import { createHash } from 'node:crypto'
import { existsSync, linkSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import nodemailer from 'nodemailer'
import type { FastifyBaseLogger } from 'fastify'
import { isEmail } from '#shared/schemas/servicos.ts'
import type { Marca } from './empresa.ts'
import { linkWhatsApp } from '#shared/documento.ts'

export type MailMessage = {
  to: string | string[]
  subject: string
  text: string
  html: string
  /**
   * The same key is one message. The outbox writes it at most once, whatever crashed in
   * between; over SMTP it becomes the Message-ID, so a resend after a crash is one mail to clients
   * that deduplicate by Message-ID.
   */
  idempotencyKey?: string
}
export type Mailer = { send(message: MailMessage): Promise<void>; close(): void }

/** SMTP when `smtpUrl` is set; otherwise every message becomes an .eml file in `outboxDir`. */
export function createMailer(opts: {
  smtpUrl?: string
  from: string
  outboxDir: string
  log: FastifyBaseLogger
}): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl)
    return {
      async send({ idempotencyKey, ...message }) {
        await transport.sendMail({
          from: opts.from,
          messageId: messageIdOf(idempotencyKey),
          ...message,
        })
      },
      close: () => transport.close(),
    }
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true })
  return {
    async send({ idempotencyKey, ...message }) {
      const info = await transport.sendMail({
        from: opts.from,
        messageId: messageIdOf(idempotencyKey),
        ...message,
      })
      mkdirSync(opts.outboxDir, { recursive: true, mode: 0o700 })
      const to = Array.isArray(message.to) ? message.to[0] : message.to
      const slug = `${to}-${message.subject}`
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[^a-zA-Z0-9@.-]+/g, '-')
        .slice(0, 80)
      const file = path.join(
        opts.outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.hrtime.bigint() % 100000n}-${slug}.eml`,
      )
      // Reset and confirmation links are secrets: the owner alone reads them.
      if (!idempotencyKey) writeFileSync(file, info.message as Buffer, { mode: 0o600 })
      else if (!writeOnce(opts.outboxDir, idempotencyKey, info.message as Buffer, file)) return
      opts.log.info({ file, to: message.to }, `mail written to ${file}`)
    },
    close: () => transport.close(),
  }
}

const keyHash = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 32)
const messageIdOf = (key?: string) => (key ? `<${keyHash(key)}@portal-do-cliente>` : undefined)

/**
 * Writes the message of `key` into the outbox as `file` unless it was written before, even by a
 * process killed half-way: the message is written as `.<hash>.part`, claimed by a hard link in
 * `.enviados/<hash>` (exclusive), then renamed to its `.eml` name. After a crash, a claim whose
 * `.part` is still there is published; a claim without one was. Answers whether it wrote now.
 */
function writeOnce(outboxDir: string, key: string, content: Buffer, file: string): boolean {
  const hash = keyHash(key)
  const claims = path.join(outboxDir, '.enviados')
  mkdirSync(claims, { recursive: true, mode: 0o700 })
  const part = path.join(outboxDir, `.${hash}.part`)
  const claim = path.join(claims, hash)
  if (!existsSync(claim)) {
    writeFileSync(part, content, { mode: 0o600 })
    try {
      linkSync(part, claim)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
  }
  if (!existsSync(part)) return false
  renameSync(part, file)
  return true
}

/**
 * Sends one message per address (recipients never see each other). Invalid addresses are not
 * tried; an address the transport refuses is logged. Both count as failures and are named in
 * `erro`, in Portuguese, as the sending records show it.
 */
export async function sendEach(
  mailer: Mailer,
  destinatarios: string[],
  message: Omit<MailMessage, 'to'>,
  log: Pick<FastifyBaseLogger, 'warn'>,
  /** Told of each address right after it was tried (a sending records its progress here). */
  onTried?: (to: string, ok: boolean) => Promise<void>,
) {
  const invalidos = destinatarios.filter((e) => !isEmail(e))
  const falharam: string[] = []
  let enviados = 0
  for (const to of destinatarios.filter(isEmail)) {
    let ok = false
    try {
      await mailer.send({
        to,
        ...message,
        idempotencyKey: message.idempotencyKey && `${message.idempotencyKey}/${to}`,
      })
      enviados++
      ok = true
    } catch (err) {
      log.warn({ err, to, subject: message.subject }, 'e-mail failed')
      falharam.push(to)
    }
    await onTried?.(to, ok)
  }
  const erro =
    [
      invalidos.length ? `Endereços inválidos: ${invalidos.join(', ')}` : '',
      falharam.length ? `Falha ao enviar para: ${falharam.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('. ') || null
  return { enviados, falharam, falhas: invalidos.length + falharam.length, erro }
}

/** A text's paragraphs (blank-line separated, trimmed, empty ones dropped) for `actionEmail`. */
export const paragraphs = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const P = 'font-size:15px;line-height:1.6;margin:0 0 12px;overflow-wrap:anywhere'
const SMALL = 'font-size:13px;line-height:1.5;margin:0 0 4px;overflow-wrap:anywhere'

/**
 * A simple branded Portuguese e-mail with one call-to-action button: the firm's name
 * on top; at the bottom "Fale com a consultoria" with its e-mail, phone and WhatsApp ("Dados da
 * empresa") and the portal's address. The HTML is
 * one centred column of blocks, no layout tables, so it reflows on a 390 px phone; the text part
 * says the same.
 */
export function actionEmail(
  marca: Marca,
  opts: {
    title: string
    paragraphs: string[]
    action?: { label: string; url: string }
    footer?: string
  },
): { text: string; html: string } {
  const { empresa, appUrl } = marca
  const contato = [
    empresa.email
      ? { label: 'E-mail', value: empresa.email, href: `mailto:${empresa.email}` }
      : null,
    empresa.telefone
      ? {
          label: 'Telefone',
          value: empresa.telefone,
          href: `tel:+55${empresa.telefone.replace(/\D/g, '')}`,
        }
      : null,
    empresa.whatsapp
      ? { label: 'WhatsApp', value: empresa.whatsapp, href: linkWhatsApp(empresa.whatsapp) }
      : null,
    empresa.endereco ? { label: 'Endereço', value: empresa.endereco, href: null } : null,
  ].filter((c) => c !== null)
  const portal = `${appUrl}/app`
  const nota =
    opts.footer ??
    `Esta é uma mensagem automática do Portal do Cliente. Não responda a este e-mail${contato.length ? ': fale conosco pelos contatos acima' : ''}.`
  const text = [
    opts.title,
    '',
    ...opts.paragraphs,
    ...(opts.action ? ['', `${opts.action.label}: ${opts.action.url}`] : []),
    '',
    '--',
    empresa.nome,
    ...(contato.length ? ['Fale com a consultoria:'] : []),
    ...contato.map(
      (c) => `${c.label}: ${c.value}${c.href?.startsWith('https:') ? ` (${c.href})` : ''}`,
    ),
    `Portal do Cliente: ${portal}`,
    '',
    nota,
  ].join('\n')
  const html = `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(opts.title)}</title></head>
<body style="margin:0;padding:0;background:#f1f5f4;font-family:Arial,Helvetica,sans-serif;color:#1f2937">
<div style="max-width:560px;margin:0 auto;padding:24px 12px">
<div style="background:#ffffff;border-radius:12px;overflow:hidden">
<div style="background:#166534;color:#ffffff;padding:16px 20px;font-size:18px;font-weight:bold;overflow-wrap:anywhere">${escapeHtml(empresa.nome)}</div>
<div style="padding:20px">
<h1 style="font-size:20px;line-height:1.3;margin:0 0 16px;overflow-wrap:anywhere">${escapeHtml(opts.title)}</h1>
${opts.paragraphs.map((p) => `<p style="${P}">${escapeHtml(p)}</p>`).join('\n')}
${
  opts.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(opts.action.url)}" style="background:#166534;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold;display:inline-block;max-width:100%;box-sizing:border-box;text-align:center">${escapeHtml(opts.action.label)}</a></p>
<p style="font-size:12px;line-height:1.5;color:#6b7280;margin:0">Se o botão não funcionar, copie este endereço no navegador: <span style="word-break:break-all">${escapeHtml(opts.action.url)}</span></p>`
    : ''
}
</div>
<div style="padding:16px 20px;background:#f8faf9;color:#4b5563;border-top:1px solid #e5e7eb">
<p style="${SMALL};font-weight:bold;color:#1f2937">${escapeHtml(empresa.nome)}</p>
${contato.length ? `<p style="${SMALL}">Fale com a consultoria:</p>\n` : ''}${contato
    .map(
      (c) =>
        `<p style="${SMALL}">${c.label}: ${c.href ? `<a href="${escapeHtml(c.href)}" style="color:#166534">${escapeHtml(c.value)}</a>` : escapeHtml(c.value)}</p>`,
    )
    .join('\n')}
<p style="${SMALL}">Portal do Cliente: <a href="${escapeHtml(portal)}" style="color:#166534">${escapeHtml(portal)}</a></p>
<p style="font-size:12px;line-height:1.5;color:#6b7280;margin:12px 0 0">${escapeHtml(nota)}</p>
</div>
</div></div></body></html>`
  return { text, html }
}
