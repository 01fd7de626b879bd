import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { DADO_RECUSADO, registerErrorHandler } from './errors.ts'

/** A value PostgreSQL refuses as data (SQLSTATE class 22) is a 400, never a 500. */
describe('errors: PostgreSQL data exceptions', () => {
  const app = Fastify({ logger: false })
  registerErrorHandler(app)
  app.get('/raise/:code', async (request) => {
    const { code } = request.params as { code: string }
    // Drizzle wraps the driver's error (node-postgres and PGlite both carry `code`) in `cause`.
    const driver = Object.assign(new Error('driver error'), { code })
    throw Object.assign(new Error('Failed query'), { cause: driver })
  })

  it.each(['22P05', '22021', '22008', '22007', '22003', '22001', '22P02'])(
    'SQLSTATE %s answers 400 in Portuguese',
    async (code) => {
      const res = await app.inject({ method: 'GET', url: `/raise/${code}` })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: DADO_RECUSADO })
    },
  )

  it('other database errors stay a 500 with the generic message', async () => {
    const res = await app.inject({ method: 'GET', url: '/raise/42P01' })
    expect(res.statusCode).toBe(500)
    expect(res.json().message).toBe('Ocorreu um erro inesperado.')
  })
})
