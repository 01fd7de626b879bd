import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { simpleParser, type ParsedMail } from 'mailparser'

/** The newest .eml in the outbox addressed to `to` (subjects decoded), or undefined. */
export async function readMail(outboxDir: string, to: string): Promise<ParsedMail | undefined> {
  let files: string[]
  try {
    files = readdirSync(outboxDir).filter((f) => f.endsWith('.eml'))
  } catch {
    return undefined
  }
  for (const file of files.sort().reverse()) {
    const mail = await simpleParser(readFileSync(path.join(outboxDir, file)))
    const recipients = [mail.to]
      .flat()
      .flatMap((a) => a?.value ?? [])
      .map((v) => v.address?.toLowerCase())
    if (recipients.includes(to.toLowerCase())) return mail
  }
  return undefined
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: ParsedMail, prefix: string): string {
  const match = (mail.text ?? '').match(
    new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\S+`),
  )
  if (!match) throw new Error(`no link starting with ${prefix} in mail "${mail.subject}"`)
  return match[0]
}
