import { createHash } from 'node:crypto'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { and, eq } from 'drizzle-orm'
import JSZip from 'jszip'
import { extractText } from 'unpdf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  auditoria,
  documentoVersoes,
  orgaos,
  processos,
  servicosTiposDocumentos,
  user,
} from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { multipart } from '#tests/setup/helpers.ts'
import {
  createCliente,
  createRegra,
  createServico,
  createTipoDocumento,
  createTipoServico,
} from '#tests/factories.ts'
import { caminhosNoZip } from './gerar-dossie.ts'
import { SEM_DOCUMENTOS } from './dossie-pdf.ts'

/** "Dossiê do serviço": the zip, its index PDF, and who gets what. */

let t: TestApp
let actors: Record<AudienceName, Actor>
let tipoServicoId: string
let licenca: { id: string; tipo: string }
let laudo: { id: string; tipo: string }

const pdf = (texto: string) =>
  Buffer.from(`%PDF-1.4\n1 0 obj<<>>endobj\n% ${texto}\ntrailer<<>>\n%%EOF\n`)
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  const tipoServico = await createTipoServico(t.db, { tipo: 'Licença de Operação' })
  tipoServicoId = tipoServico.id
  licenca = await createTipoDocumento(t.db, { tipo: 'Licença Prévia' })
  laudo = await createTipoDocumento(t.db, { tipo: 'Laudo técnico' })
  await createRegra(t.db, tipoServico.id, licenca.id)
  await createRegra(t.db, tipoServico.id, laudo.id)
})
afterAll(() => t.close())

const novoServico = () =>
  createServico(t.db, {
    cliente_id: actors.owner.clienteId!,
    tipo_servico_id: tipoServicoId,
    protocolo: `2026-${Math.random().toString().slice(2, 8)}`,
    vigencia_inicio: '2026-01-10',
    vigencia_fim: '2030-01-09',
  })

async function enviarCliente(servicoId: string, tipoId: string, name: string, content: Buffer) {
  const res = await actors.owner.inject({
    method: 'PUT',
    url: `/api/servicos/${servicoId}/documentos/${tipoId}`,
    ...multipart({ name, content }),
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().id as string
}

async function enviarConsultoria(
  servicoId: string,
  tipoId: string,
  name: string,
  content: Buffer,
  visivel = true,
) {
  const res = await actors.admin.inject({
    method: 'POST',
    url: `/api/admin/servicos/${servicoId}/documentos`,
    ...multipart(
      { name, content },
      { tipo_documento_id: tipoId, visivel_usuario: String(visivel) },
    ),
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().id as string
}

async function aprovar(id: string) {
  const res = await actors.admin.inject({
    method: 'POST',
    url: `/api/admin/documentos/${id}/revisao`,
    payload: { estado: 'aprovado' },
  })
  expect(res.statusCode, res.body).toBe(200)
}

const arquivos = {
  licenca: pdf('licença do cliente'),
  laudoEmAnalise: pdf('laudo ainda em análise'),
  parecer: pdf('parecer da consultoria'),
  oculto: pdf('nota interna da consultoria'),
}

/**
 * A service with: the client's "Licença Prévia" approved, its "Laudo técnico" waiting for
 * review, the consultancy's visible file of the same name and type as the client's (a
 * duplicate path), a hidden one, an internal message and a process at the agency.
 */
async function servicoCompleto() {
  const s = await novoServico()
  await aprovar(await enviarCliente(s.id, licenca.id, 'licença prévia.pdf', arquivos.licenca))
  await enviarCliente(s.id, laudo.id, 'laudo.pdf', arquivos.laudoEmAnalise)
  await enviarConsultoria(s.id, licenca.id, 'Licença Prévia.pdf', arquivos.parecer)
  await enviarConsultoria(s.id, laudo.id, 'nota interna.pdf', arquivos.oculto, false)
  const msg = await actors.admin.inject({
    method: 'POST',
    url: `/api/servicos/${s.id}/mensagens`,
    payload: { texto: 'Combinar prazo com o diretor', interna: true },
  })
  expect(msg.statusCode, msg.body).toBe(201)
  const [orgao] = await t.db
    .insert(orgaos)
    .values({
      sigla: `SEMA${s.id.slice(0, 4)}`,
      nome: 'Secretaria do Meio Ambiente',
      esfera: 'Estadual',
      uf: 'MT',
    })
    .returning()
  await t.db.insert(processos).values({
    servico_id: s.id,
    orgao_id: orgao.id,
    numero_processo: 'PROC-77/2026',
    data_protocolo: '2026-02-03',
    etapa: 'em_analise',
    etapa_desde: '2026-02-03',
  })
  return s
}

async function baixar(a: Actor, servicoId: string) {
  const res = await a.inject({ method: 'GET', url: `/api/servicos/${servicoId}/dossie` })
  expect(res.statusCode, res.body).toBe(200)
  expect(res.headers['content-type']).toBe('application/zip')
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="Dossie_.*\.zip"$/)
  const zip = await JSZip.loadAsync(res.rawPayload)
  const nomes = Object.keys(zip.files).sort()
  const indice = await zip.file('indice.pdf')!.async('uint8array')
  const { text } = await extractText(indice, { mergePages: true })
  const conteudo = async (nome: string) => Buffer.from(await zip.file(nome)!.async('uint8array'))
  return { nomes, text: text.replace(/\s+/g, ' '), conteudo }
}

describe('GET /api/servicos/:id/dossie', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await novoServico()
    const res = await actors[name].inject({ method: 'GET', url: `/api/servicos/${s.id}/dossie` })
    expect(res.statusCode).toBe({ anonymous: 401, otherClient: 404, owner: 200, admin: 200 }[name])
  })

  it('an unknown service or a bad id is a 404 / 400 in Portuguese', async () => {
    const missing = await actors.admin.inject({
      method: 'GET',
      url: '/api/servicos/00000000-0000-4000-8000-000000000000/dossie',
    })
    expect(missing.statusCode).toBe(404)
    expect(missing.json().message).toBe('Serviço não encontrado.')
    const bad = await actors.admin.inject({ method: 'GET', url: '/api/servicos/x/dossie' })
    expect(bad.statusCode).toBe(400)
  })

  it('admin: every current approved document (hidden ones too) by type, and the index', async () => {
    const s = await servicoCompleto()
    const { nomes, text, conteudo } = await baixar(actors.admin, s.id)
    expect(nomes).toEqual([
      'Laudo_tecnico/nota_interna.pdf',
      'Licenca_Previa/Licenca_Previa.pdf',
      'Licenca_Previa/licenca_previa-2.pdf',
      'indice.pdf',
    ])
    expect((await conteudo('Licenca_Previa/licenca_previa-2.pdf')).equals(arquivos.licenca)).toBe(
      true,
    )
    expect((await conteudo('Licenca_Previa/Licenca_Previa.pdf')).equals(arquivos.parecer)).toBe(
      true,
    )
    expect((await conteudo('Laudo_tecnico/nota_interna.pdf')).equals(arquivos.oculto)).toBe(true)
    // The index: the service, its process, each document with its version and SHA-256.
    expect(text).toContain('Dossiê do serviço')
    expect(text).toContain(`Protocolo: ${s.protocolo}`)
    expect(text).toContain('Cliente: ')
    expect(text).toContain('Vigência: 10/01/2026 a 09/01/2030')
    expect(text).toContain('PROC-77/2026')
    expect(text).toContain('Documentos aprovados (3)')
    for (const f of [arquivos.licenca, arquivos.parecer, arquivos.oculto])
      expect(text).toContain(sha(f))
    expect(text).not.toContain(sha(arquivos.laudoEmAnalise))
    expect(text).toContain('Versão 1, enviada pelo cliente')
    expect(text).toMatch(/Aprovada em \d\d\/\d\d\/\d{4} às \d\d:\d\d por /)
    // The administration's Histórico: the review, and the internal message.
    expect(text).toContain('aprovou o documento Licença Prévia')
    expect(text).toContain('Combinar prazo com o diretor')
    // Recorded: who took the dossier of which service.
    const [evento] = await t.db
      .select()
      .from(auditoria)
      .where(and(eq(auditoria.servico_id, s.id), eq(auditoria.acao, 'download')))
    expect(evento).toMatchObject({ entidade: 'servico', ator_id: actors.admin.userId })
    expect(evento.depois).toEqual({ documentos: 3 })
    // The Histórico with its reads reads it as a sentence.
    const historico = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${s.id}/historico?consultas=true`,
    })
    expect(historico.json().rows[0].descricao).toMatch(/ baixou o dossiê do serviço$/)
  })

  it("the owner: only documents visible to them, the client's Histórico, no staff names", async () => {
    const s = await servicoCompleto()
    const { nomes, text } = await baixar(actors.owner, s.id)
    expect(nomes).toEqual([
      'Licenca_Previa/Licenca_Previa.pdf',
      'Licenca_Previa/licenca_previa-2.pdf',
      'indice.pdf',
    ])
    expect(text).toContain('Documentos aprovados (2)')
    expect(text).toContain(sha(arquivos.licenca))
    expect(text).not.toContain(sha(arquivos.oculto))
    expect(text).not.toContain('nota_interna')
    expect(text).not.toContain('Combinar prazo')
    expect(text).toContain('Você enviou o documento Licença Prévia')
    expect(text).toContain('Documento Licença Prévia aprovado')
    const [admin] = await t.db
      .select({ name: user.name })
      .from(user)
      .where(eq(user.id, actors.admin.userId!))
    expect(text).toContain(`Aprovada em`)
    expect(text).not.toContain(admin.name)
    const eventos = await t.db
      .select()
      .from(auditoria)
      .where(and(eq(auditoria.servico_id, s.id), eq(auditoria.acao, 'download')))
    expect(eventos.map((e) => e.ator_id)).toEqual([actors.owner.userId])
  })

  it('a service without approved documents: the index alone, saying so', async () => {
    const s = await novoServico()
    await enviarCliente(s.id, laudo.id, 'laudo.pdf', arquivos.laudoEmAnalise)
    for (const a of [actors.owner, actors.admin]) {
      const { nomes, text } = await baixar(a, s.id)
      expect(nomes).toEqual(['indice.pdf'])
      expect(text).toContain('Documentos aprovados (0)')
      expect(text).toContain(SEM_DOCUMENTOS)
    }
  })
})

describe("characters outside the PDF fonts' Windows-1252", () => {
  it("print as a fallback (an emoji as '?', an arrow as '->'), the others as they are", async () => {
    const cliente = await createCliente(t.db, { nome: 'Fazenda Ipê — Lote 3 🌳 → Norte' })
    const s = await createServico(t.db, {
      cliente_id: cliente.id,
      tipo_servico_id: tipoServicoId,
      protocolo: '2026-EMOJI',
    })
    const msg = await actors.admin.inject({
      method: 'POST',
      url: `/api/servicos/${s.id}/mensagens`,
      payload: { texto: 'Vistoria às 14h ✓ — tudo certo 👍🏽', interna: true },
    })
    expect(msg.statusCode, msg.body).toBe(201)
    const { text } = await baixar(actors.admin, s.id)
    expect(text).toContain('Cliente: Fazenda Ipê — Lote 3 ? -> Norte')
    expect(text).toContain('Vistoria às 14h v — tudo certo ?')
  })
})

describe('a stored file gone missing', () => {
  it('is left out of the zip, and the index says so', async () => {
    const s = await novoServico()
    await aprovar(await enviarCliente(s.id, licenca.id, 'licenca.pdf', arquivos.licenca))
    await enviarConsultoria(s.id, laudo.id, 'laudo.pdf', arquivos.parecer)
    const [perdido] = await t.db
      .select({ caminho: documentoVersoes.caminho })
      .from(documentoVersoes)
      .innerJoin(
        servicosTiposDocumentos,
        eq(servicosTiposDocumentos.id, documentoVersoes.documento_id),
      )
      .where(
        and(
          eq(servicosTiposDocumentos.servico_id, s.id),
          eq(servicosTiposDocumentos.enviado_por, 'admin'),
        ),
      )
    rmSync(path.join(t.dataDir, 'storage', 'documents', perdido.caminho))
    const { nomes, text } = await baixar(actors.admin, s.id)
    expect(nomes).toEqual(['Licenca_Previa/licenca.pdf', 'indice.pdf'])
    expect(text).toContain('Arquivo: não incluído (não encontrado no armazenamento')
    expect(text).toContain(sha(arquivos.parecer))
  })
})

describe('caminhosNoZip', () => {
  it('cleans types and names into safe paths and tells duplicates apart', () => {
    expect(
      caminhosNoZip([
        { tipo: '../../etc', caminho: 's/1.ab-passwd' },
        { tipo: 'Relatório/Anual', caminho: 's/1.ab-Relatório final.PDF' },
        { tipo: 'Relatório/Anual', caminho: 's/2.cd-relatorio_final.pdf' },
        { tipo: 'Relatório/Anual', caminho: 's/3.ef-relatorio_final.pdf' },
        { tipo: 'x', caminho: 's/4.ab-indice.pdf' },
      ]),
    ).toEqual([
      '_.._etc/passwd',
      'Relatorio_Anual/Relatorio_final.PDF',
      'Relatorio_Anual/relatorio_final-2.pdf',
      'Relatorio_Anual/relatorio_final-3.pdf',
      'x/indice.pdf',
    ])
  })
})
