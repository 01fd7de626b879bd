import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createAdminActor, type Actor } from '#tests/setup/actors.ts'
import {
  createCategoria,
  createCliente,
  createRegra,
  createSchedule,
  createStatus,
  createTipoDocumento,
  createTipoServico,
  uniqueWord,
} from '#tests/factories.ts'

// Every list's "Buscar" matches each word typed, in any order, ignoring case and
// accents (the categories' own test covers them; the dashboard has servicos-busca.test.ts).
let t: TestApp
let admin: Actor
beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdminActor(t)
})
afterAll(() => t.close())

const tag = uniqueWord('pal')

/** The rows a list answers for `q` (page 1), by the field the screen shows first. */
async function busca(url: string, q: string, campo: string) {
  const res = await admin.inject({
    method: 'GET',
    url: `${url}?page=1&q=${encodeURIComponent(q)}`,
  })
  expect(res.statusCode, url).toBe(200)
  return (res.json().rows as Record<string, unknown>[]).map((r) => r[campo])
}

describe('every list search matches each word, ignoring case and accents', () => {
  const LISTAS: {
    url: string
    campo: string
    criar: () => Promise<unknown>
    esperado: string
    /** The words typed: reordered, without accents, another case. */
    q: string
  }[] = [
    {
      url: '/api/admin/status',
      campo: 'nome',
      criar: () => createStatus(t.db, { nome: `Análise Técnica ${tag} Órgão` }),
      esperado: `Análise Técnica ${tag} Órgão`,
      q: `ORGAO ${tag} analise`,
    },
    {
      url: '/api/admin/tipos-servicos',
      campo: 'tipo',
      criar: async () =>
        createTipoServico(t.db, {
          tipo: `Outorga de Água ${tag}`,
          categoria_id: (await createCategoria(t.db, { nome: `Recursos Hídricos ${tag}` })).id,
        }),
      esperado: `Outorga de Água ${tag}`,
      // One word in the type, the other in its category.
      q: `hidricos ${tag} agua`,
    },
    {
      url: '/api/admin/tipos-documentos',
      campo: 'tipo',
      criar: () => createTipoDocumento(t.db, { tipo: `Certidão de Uso do Solo ${tag}` }),
      esperado: `Certidão de Uso do Solo ${tag}`,
      q: `solo ${tag} CERTIDAO`,
    },
    {
      url: '/api/admin/schedules',
      campo: 'mensagem',
      criar: () => createSchedule(t.db, { mensagem: `Renovação da licença ${tag} em breve` }),
      esperado: `Renovação da licença ${tag} em breve`,
      q: `licenca ${tag} renovacao`,
    },
    {
      url: '/api/admin/clientes',
      campo: 'nome',
      criar: () => createCliente(t.db, { nome: `João Ávila ${tag} Mineração` }),
      esperado: `João Ávila ${tag} Mineração`,
      q: `mineracao joao ${tag} AVILA`,
    },
  ]

  it.each(LISTAS)('$url', async ({ url, campo, criar, esperado, q }) => {
    await criar()
    expect(await busca(url, q, campo)).toEqual([esperado])
    // Every word must match: one more word that is nowhere finds nothing.
    expect(await busca(url, `${q} zzinexistente`, campo)).toEqual([])
  })

  it('/api/admin/regras-documentos (words in the service type or the document type)', async () => {
    const servico = await createTipoServico(t.db, { tipo: `Licença Prévia ${tag}` })
    const documento = await createTipoDocumento(t.db, { tipo: `Matrícula do Imóvel ${tag}` })
    await createRegra(t.db, servico.id, documento.id)
    const res = await admin.inject({
      method: 'GET',
      url: `/api/admin/regras-documentos?page=1&q=${encodeURIComponent(`imovel ${tag} PREVIA`)}`,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().total).toBe(1)
    const nada = await admin.inject({
      method: 'GET',
      url: `/api/admin/regras-documentos?page=1&q=${encodeURIComponent(`imovel ${tag} zzinexistente`)}`,
    })
    expect(nada.json().total).toBe(0)
  })
})
