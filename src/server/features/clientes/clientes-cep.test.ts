import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'

// A stand-in for the public CEP service (ViaCEP's shape) on 127.0.0.1: the tests never leave the machine.
let stub: Server
const hits: string[] = []
let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  stub = createServer((req, res) => {
    hits.push(req.url ?? '')
    const cep = req.url?.match(/^\/ws\/(\d{8})\/json\/$/)?.[1]
    if (cep === '29050000')
      return res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          cep: '29050-000',
          logradouro: 'Avenida Nossa Senhora dos Navegantes',
          bairro: 'Enseada do Suá',
          localidade: 'Vitória',
          uf: 'ES',
          ibge: '3205309',
        }),
      )
    if (cep === '29900000')
      return res.writeHead(200).end(
        JSON.stringify({
          cep: '29900-000',
          logradouro: '',
          bairro: '',
          localidade: 'Linhares',
          uf: 'ES',
        }),
      )
    if (cep === '99999999') return res.writeHead(200).end(JSON.stringify({ erro: 'true' }))
    if (cep === '88888888') return res.writeHead(200).end(JSON.stringify({ erro: true }))
    if (cep === '22222222') return res.writeHead(500).end('erro')
    if (cep === '33333333') return res.writeHead(200).end('<html>não é json</html>')
    if (cep === '11111111') return // never answers
    res.writeHead(400).end()
  })
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve))
  const { port } = stub.address() as AddressInfo
  t = await createTestApp({ CEP_API_URL: `http://127.0.0.1:${port}` })
  actors = await createActors(t)
})
afterAll(async () => {
  await t.close()
  stub.closeAllConnections()
  await new Promise((r) => stub.close(r))
})

describe('GET /api/cep/:cep', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: '/api/cep/29050-000' })
    expect(res.statusCode).toBe(name === 'anonymous' ? 401 : 200)
    if (res.statusCode === 200) {
      expect(res.json()).toEqual({
        cep: '29050-000',
        logradouro: 'Avenida Nossa Senhora dos Navegantes',
        bairro: 'Enseada do Suá',
        localidade: 'Vitória',
        uf: 'ES',
      })
    }
  })

  it('calls {CEP_API_URL}/ws/{8 digits}/json/ and passes empty parts through', async () => {
    const res = await actors.owner.inject({ method: 'GET', url: '/api/cep/29900000' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      cep: '29900-000',
      logradouro: '',
      bairro: '',
      localidade: 'Linhares',
      uf: 'ES',
    })
    expect(hits).toContain('/ws/29900000/json/')
  })

  it.each(['99999999', '88888888'])(
    'answers 404 in Portuguese when the service says erro (%s)',
    async (cep) => {
      const res = await actors.owner.inject({ method: 'GET', url: `/api/cep/${cep}` })
      expect(res.statusCode).toBe(404)
      expect(res.json().message).toBe('O CEP informado não foi encontrado.')
    },
  )

  it.each([
    ['22222222', 502],
    ['33333333', 502],
  ])('answers %s with %s when the service fails', async (cep, status) => {
    const res = await actors.owner.inject({ method: 'GET', url: `/api/cep/${cep}` })
    expect(res.statusCode).toBe(status)
    expect(res.json().message).toBe('Não foi possível buscar o CEP.')
  })

  it('gives up on a service that never answers (time-out) with 504', async () => {
    const started = Date.now()
    const res = await actors.owner.inject({ method: 'GET', url: '/api/cep/11111111' })
    expect(res.statusCode).toBe(504)
    expect(res.json().message).toBe('Não foi possível buscar o CEP.')
    expect(Date.now() - started).toBeLessThan(15_000)
  }, 20_000)

  it.each(['2905000', '290500001', 'abcdefgh', '29050-00a', '..%2F..%2Fetc', '%20'])(
    'refuses a bad CEP (%s) with 400 and never calls the service',
    async (cep) => {
      const before = hits.length
      const res = await actors.owner.inject({ method: 'GET', url: `/api/cep/${cep}` })
      expect(res.statusCode).toBe(400)
      expect(res.json().message).toBe('Por favor, digite um CEP válido com 8 dígitos.')
      expect(hits.length).toBe(before)
    },
  )

  it('refuses a very long value with 400', async () => {
    const res = await actors.owner.inject({ method: 'GET', url: `/api/cep/${'1'.repeat(50)}` })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('Por favor, digite um CEP válido com 8 dígitos.')
  })
})

describe('an unreachable CEP service', () => {
  it('answers 502 in Portuguese', async () => {
    const dead = await createTestApp({ CEP_API_URL: 'http://127.0.0.1:9' })
    try {
      const owner = (await createActors(dead)).owner
      const res = await owner.inject({ method: 'GET', url: '/api/cep/29050000' })
      expect(res.statusCode).toBe(502)
      expect(res.json().message).toBe('Não foi possível buscar o CEP.')
    } finally {
      await dead.close()
    }
  })
})
