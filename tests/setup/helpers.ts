import type { InjectOptions } from 'fastify'
import { expect } from 'vitest'
import { AUDIENCES, type Actor, type AudienceName } from './actors.ts'

/** Admin routes: anonymous 401, any client 403 (with a Portuguese message), the admin `adminStatus`. */
export const adminOnly = (adminStatus: number): Record<AudienceName, number> => ({
  anonymous: 401,
  otherClient: 403,
  owner: 403,
  admin: adminStatus,
})

export { AUDIENCES }

/** English words a zod or Fastify default message would carry. */
const ENGLISH = /\b(invalid|expected|received|required|must|string|number|object|undefined)\b/i

/** A 4xx whose message is Portuguese (the given one when known). */
export async function expectRefused(
  actor: Actor,
  opts: InjectOptions,
  status: number,
  message?: string | RegExp,
) {
  const res = await actor.inject(opts)
  expect(
    res.statusCode,
    `${opts.method} ${opts.url} ${JSON.stringify(opts.payload)} → ${res.body}`,
  ).toBe(status)
  const body = res.json() as { message: string }
  expect(body.message).toBeTypeOf('string')
  expect(body.message).not.toMatch(ENGLISH)
  if (typeof message === 'string') expect(body.message).toBe(message)
  else if (message) expect(body.message).toMatch(message)
  return body
}

/** Payloads of the wrong shape that every JSON body route must refuse with a 400. */
export const WRONG_SHAPES: unknown[] = [[], [{}], 42, null, true]

/** A multipart body with one file `arquivo` (or none) and text fields, for `app.inject`. */
export function multipart(
  file: { name: string; content: Buffer; type?: string } | null,
  fields: Record<string, string> = {},
) {
  const boundary = `----portal${Math.random().toString(16).slice(2)}`
  const parts: Buffer[] = []
  for (const [k, v] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    )
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="arquivo"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/pdf'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    )
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`))
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}
