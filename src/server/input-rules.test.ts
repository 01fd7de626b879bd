import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { expectRefused } from '#tests/setup/helpers.ts'
import { cpf, createServico, createTipoServico } from '#tests/factories.ts'

/**
 * Malformed text and dates are refused by the shared rules (400, Portuguese), never
 * reach the database as a 500.
 */

let t: TestApp
let actors: Record<AudienceName, Actor>
let servico: { id: string }
let tipo: { id: string }

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  tipo = await createTipoServico(t.db)
  servico = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
})
afterAll(() => t.close())

const TEXTO = 'O texto contém caracteres não permitidos.'
const ADMIN_LISTS = [
  '/api/admin/clientes',
  '/api/admin/categorias',
  '/api/admin/status',
  '/api/admin/tipos-servicos',
  '/api/admin/tipos-documentos',
  '/api/admin/regras-documentos',
  '/api/admin/schedules',
  '/api/admin/servicos',
]

describe('control characters in text', () => {
  it('a NUL byte in a Meus Dados field is a 400, not a 500', async () => {
    await expectRefused(
      actors.owner,
      { method: 'PUT', url: '/api/meus-dados', payload: { nome: 'a\u0000', documento: cpf() } },
      400,
      TEXTO,
    )
  })

  it.each(ADMIN_LISTS)('a NUL in the search of %s is a 400', async (url) => {
    await expectRefused(actors.admin, { method: 'GET', url: `${url}?q=%00` }, 400, TEXTO)
  })

  it('other control characters are refused in a one-line text, newline and tab are kept in long text', async () => {
    await expectRefused(
      actors.admin,
      { method: 'POST', url: '/api/admin/categorias', payload: { nome: 'a\u001bb' } },
      400,
      TEXTO,
    )
    await expectRefused(
      actors.admin,
      { method: 'POST', url: '/api/admin/categorias', payload: { nome: 'linha\noutra' } },
      400,
      TEXTO,
    )
    const ok = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${servico.id}`,
      payload: { detalhes: 'linha um\n\tlinha dois\r\nfim' },
    })
    expect(ok.statusCode, ok.body).toBe(200)
    expect(ok.json().detalhes).toBe('linha um\n\tlinha dois\r\nfim')
  })

  it('a lone surrogate is refused', async () => {
    await expectRefused(
      actors.admin,
      { method: 'POST', url: '/api/admin/categorias', payload: { nome: 'a\ud800b' } },
      400,
      TEXTO,
    )
  })

  it('Enviar Email with a NUL-bearing address is refused before anything is sent', async () => {
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: `/api/admin/servicos/${servico.id}/email`,
        payload: {
          notificacao: 'Olá',
          emails_interessados: 'ok@example.com, a\u0000b@example.com',
        },
      },
      400,
      TEXTO,
    )
  })
})

describe('dates: years 1900 to 2999, a real calendar day', () => {
  const BAD = ['0000-01-01', '10000-01-01', '1899-12-31', '3000-01-01', '2024-02-30', '9999-12-31']

  it.each(BAD)('service start %s (Adicionar Serviço) is a 400', async (d) => {
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: `/api/admin/clientes/${actors.owner.clienteId}/servicos`,
        payload: { tipo_servico_id: tipo.id, vigencia_inicio: d },
      },
      400,
    )
  })

  it.each(BAD)('service vigência %s (PATCH) is a 400', async (d) => {
    for (const field of ['vigencia_inicio', 'vigencia_fim'])
      await expectRefused(
        actors.admin,
        { method: 'PATCH', url: `/api/admin/servicos/${servico.id}`, payload: { [field]: d } },
        400,
        'Informe uma data válida.',
      )
  })

  it.each(BAD)('client birth date %s is a 400 (admin form and Meus Dados)', async (d) => {
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: `/api/admin/clientes/${actors.owner.clienteId}`,
        payload: { nome: 'Fulano', email: actors.owner.email, documento: cpf(), nascimento: d },
      },
      400,
      'Data de nascimento inválida.',
    )
    await expectRefused(
      actors.owner,
      {
        method: 'PUT',
        url: '/api/meus-dados',
        payload: { nome: 'Fulano', documento: cpf(), nascimento: d },
      },
      400,
      'Data de nascimento inválida.',
    )
  })

  it.each(BAD)('an aviso deadline %s is a 400', async (d) => {
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: `/api/admin/servicos/${servico.id}/avisos`,
        payload: { texto: 'Aviso', data_limite: d },
      },
      400,
    )
  })

  const cursor = (key: string) =>
    Buffer.from(`${key}|00000000-0000-4000-8000-000000000000`).toString('base64url')

  it.each([
    ['2024-02-30', '&proximos=1'],
    ['0000-01-01', '&proximos=1'],
    ['2024-99-99 99:99:99', ''],
    ['2024-02-30 10:00:00', ''],
    ['0000-01-01 10:00:00+00', ''],
  ])('a dashboard cursor %s is a 400', async (key, extra) => {
    for (const dir of ['after', 'before'])
      await expectRefused(
        actors.admin,
        { method: 'GET', url: `/api/admin/servicos?${dir}=${cursor(key)}${extra}` },
        400,
        'Página inválida.',
      )
  })
})
