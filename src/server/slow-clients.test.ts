import { readdirSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createClientActor, type Actor } from '#tests/setup/actors.ts'
import {
  createRegra,
  createServico,
  createTipoDocumento,
  createTipoServico,
} from '#tests/factories.ts'

/**
 * Slow and hostile clients, on a real listening server with small limits: headers
 * that never end, an upload that goes silent, JSON nested too deep.
 */

let t: TestApp
let owner: Actor
let port: number
let uploadUrl: string
let slowCep: http.Server

beforeAll(async () => {
  // A CEP service that takes 1.2 s to answer: a handler slower than the body idle limit.
  slowCep = http.createServer((_req, res) => {
    setTimeout(() => {
      res.setHeader('content-type', 'application/json')
      res.end(
        JSON.stringify({
          cep: '29000-000',
          logradouro: 'Rua',
          bairro: 'B',
          localidade: 'Vitória',
          uf: 'ES',
        }),
      )
    }, 1200)
  })
  await new Promise<void>((resolve) => slowCep.listen(0, '127.0.0.1', resolve))
  const cepPort = (slowCep.address() as net.AddressInfo).port
  t = await createTestApp({
    HEADERS_TIMEOUT_MS: '400',
    BODY_IDLE_TIMEOUT_MS: '400',
    REQUEST_TIMEOUT_MS: '2000',
    CEP_API_URL: `http://127.0.0.1:${cepPort}`,
  })
  owner = await createClientActor(t)
  const tipo = await createTipoServico(t.db)
  const tipoDoc = await createTipoDocumento(t.db)
  await createRegra(t.db, tipo.id, tipoDoc.id)
  const servico = await createServico(t.db, {
    cliente_id: owner.clienteId!,
    tipo_servico_id: tipo.id,
  })
  uploadUrl = `/api/servicos/${servico.id}/documentos/${tipoDoc.id}`
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  port = (t.app.server.address() as net.AddressInfo).port
})
afterAll(async () => {
  await t.close()
  slowCep.close()
})

/** Opens a raw connection, writes `chunks`, and resolves with what the server said when it closed. */
function rawRequest(chunks: Array<string | Buffer>, waitMs = 4000) {
  return new Promise<{ closed: boolean; reply: string; ms: number }>((resolve) => {
    const started = Date.now()
    const socket = net.connect(port, '127.0.0.1')
    let reply = ''
    const timer = setTimeout(() => {
      socket.destroy()
      resolve({ closed: false, reply, ms: Date.now() - started })
    }, waitMs)
    socket.on('data', (d) => (reply += d.toString()))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      resolve({ closed: true, reply, ms: Date.now() - started })
    })
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c)
    })
  })
}

const tmpFiles = () => {
  try {
    return readdirSync(t.app.ctx.tmpDir)
  } catch {
    return []
  }
}

describe('slow and hostile clients', () => {
  it('headers that never end are cut (HEADERS_TIMEOUT_MS)', async () => {
    const res = await rawRequest(['GET /api/health HTTP/1.1\r\nHost: x\r\nX-Lento: 1\r\n'])
    expect(res.closed).toBe(true)
    expect(res.ms).toBeLessThan(3000)
  })

  it('an upload that declares 3 MB, sends 100 KB and goes silent is cut and its temporary file removed', async () => {
    const boundary = 'limite123'
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="arquivo"; filename="a.pdf"\r\n` +
      'Content-Type: application/pdf\r\n\r\n'
    const res = await rawRequest([
      `PUT ${uploadUrl} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Cookie: ${owner.cookie}\r\nOrigin: http://localhost:3000\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
        `Content-Length: ${3 * 1024 * 1024}\r\n\r\n`,
      head,
      Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(100 * 1024, 0x20)]),
    ])
    expect(res.closed).toBe(true)
    // Cut by the idle limit (400 ms), well before the whole-request limit (2 s).
    expect(res.ms).toBeLessThan(1500)
    await expect.poll(tmpFiles, { timeout: 2000 }).toEqual([])
  })

  it('a request that keeps trickling is cut at REQUEST_TIMEOUT_MS', async () => {
    // Not silent (a byte every 300 ms), so only the whole-request limit can stop it.
    const started = Date.now()
    const closed = await new Promise<number>((resolve) => {
      const socket = net.connect(port, '127.0.0.1')
      socket.on('error', () => {})
      let timer: NodeJS.Timeout | undefined
      socket.on('connect', () => {
        socket.write(
          `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
        )
        timer = setInterval(() => socket.write(' '), 300)
      })
      socket.on('close', () => {
        clearInterval(timer)
        resolve(Date.now() - started)
      })
      setTimeout(() => socket.destroy(), 9000)
    })
    expect(closed).toBeGreaterThanOrEqual(1500)
    expect(closed).toBeLessThan(5000)
  })

  it('a handler slower than the body idle limit still answers', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/cep/29000000`, {
      headers: { cookie: owner.cookie! },
    })
    expect(res.status).toBe(200)
    expect((await res.json()).localidade).toBe('Vitória')
  })

  it('JSON nested 5,000 levels is a 400 on better-auth and on our routes', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`
    for (const url of ['/api/auth/sign-in/email', '/api/auth/sign-up/email', '/api/meus-dados']) {
      const res = await owner.inject({
        method: url === '/api/meus-dados' ? 'PUT' : 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: deep,
      })
      expect(res.statusCode, `${url} ${res.body}`).toBe(400)
      expect(res.json().message).toBe('Corpo da requisição inválido.')
    }
  })

  it('JSON up to the depth limit still parses', async () => {
    const ok = `${'{"a":'.repeat(30)}1${'}'.repeat(30)}`
    const res = await owner.inject({
      method: 'PUT',
      url: '/api/meus-dados',
      headers: { 'content-type': 'application/json' },
      payload: ok,
    })
    // Parsed, then refused by the schema (no nome/documento): a field message, not the body's.
    expect(res.statusCode).toBe(400)
    expect(res.json().message).not.toBe('Corpo da requisição inválido.')
  })
})
