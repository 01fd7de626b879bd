import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/** Every message of the outbox addressed to `to` (subjects decoded), oldest first. */
export async function readMails(outboxDir: string, to: string): Promise<ParsedMail[]> {
  let files: string[]
  try {
    files = readdirSync(outboxDir).filter((f) => f.endsWith('.eml'))
  } catch {
    return []
  }
  const mails = await Promise.all(
    files.sort().map((f) => simpleParser(readFileSync(path.join(outboxDir, f)))),
  )
  return mails.filter((m) =>
    [m.to]
      .flat()
      .flatMap((a) => a?.value ?? [])
      .some((v) => v.address?.toLowerCase() === to.toLowerCase()),
  )
}

/** The newest .eml in the outbox addressed to `to` (subjects decoded), or undefined. */
export async function readMail(outboxDir: string, to: string): Promise<ParsedMail | undefined> {
  return (await readMails(outboxDir, to)).at(-1)
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: ParsedMail, prefix: string): string {
  const match = (mail.text ?? '').match(
    new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\S+`),
  )
  if (!match) throw new Error(`no link starting with ${prefix} in mail "${mail.subject}"`)
  return match[0]
}

/**
 * An SMTP server on 127.0.0.1 for the tests that send through SMTP_URL. Every message it accepts
 * lands in `received`; addresses @recusa.test are refused (a mailbox the server rejects).
 */
export async function startSmtpServer() {
  const received: ParsedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, cb) {
      if (address.address.endsWith('@recusa.test')) return cb(new Error('mailbox unavailable'))
      cb()
    },
    onData(stream, _session, cb) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', async () => {
        received.push(await simpleParser(Buffer.concat(chunks)))
        cb()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as { port: number }
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The messages addressed to `email`. */
    to: (email: string) =>
      received.filter((m) =>
        [m.to]
          .flat()
          .flatMap((a) => a?.value ?? [])
          .some((v) => v.address?.toLowerCase() === email.toLowerCase()),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
