import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import nodemailer from 'nodemailer'
import type { FastifyBaseLogger } from 'fastify'
import { isEmail } from '#shared/schemas/servicos.ts'

export type MailMessage = { to: string | string[]; subject: string; text: string; html: string }
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
      async send(message) {
        await transport.sendMail({ from: opts.from, ...message })
      },
      close: () => transport.close(),
    }
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true })
  return {
    async send(message) {
      const info = await transport.sendMail({ from: opts.from, ...message })
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
      writeFileSync(file, info.message as Buffer, { mode: 0o600 })
      opts.log.info({ file, to: message.to }, `mail written to ${file}`)
    },
    close: () => transport.close(),
  }
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
      await mailer.send({ to, ...message })
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

/** A simple branded Portuguese e-mail with one call-to-action button. */
export function actionEmail(opts: {
  title: string
  paragraphs: string[]
  action?: { label: string; url: string }
  footer?: string
}): { text: string; html: string } {
  const text = [
    opts.title,
    '',
    ...opts.paragraphs,
    ...(opts.action ? ['', `${opts.action.label}: ${opts.action.url}`] : []),
    '',
    opts.footer ?? 'Portal do Cliente',
  ].join('\n')
  const html = `<!doctype html><html lang="pt-BR"><body style="margin:0;background:#f1f5f4;font-family:Arial,Helvetica,sans-serif;color:#1f2937">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden">
<tr><td style="background:#166534;color:#ffffff;padding:20px 28px;font-size:18px;font-weight:bold">Portal do Cliente</td></tr>
<tr><td style="padding:28px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(opts.title)}</h1>
${opts.paragraphs.map((p) => `<p style="font-size:15px;line-height:1.6;margin:0 0 12px">${escapeHtml(p)}</p>`).join('\n')}
${
  opts.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(opts.action.url)}" style="background:#166534;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold;display:inline-block">${escapeHtml(opts.action.label)}</a></p>
<p style="font-size:12px;color:#6b7280;word-break:break-all">Se o botão não funcionar, copie este endereço no navegador: ${escapeHtml(opts.action.url)}</p>`
    : ''
}
</td></tr>
<tr><td style="padding:16px 28px;background:#f8faf9;font-size:12px;color:#6b7280">${escapeHtml(opts.footer ?? 'Esta é uma mensagem automática do Portal do Cliente. Não responda a este e-mail.')}</td></tr>
</table></td></tr></table></body></html>`
  return { text, html }
}
