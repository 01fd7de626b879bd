import { Readable } from 'node:stream'
import {
  createAviso,
  createCategoria,
  createCliente,
  createDocumento,
  createOrgao,
  createServico,
  createTipoDocumento,
  createTipoServico,
  getStatus,
} from '../../factories.ts'
import { processos } from '../../../src/server/db/schema.ts'
import { addDays, today } from '../../../src/shared/datas.ts'
import type { SeedContext } from './context.ts'

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')

/** Fixed ids the dashboard and detail specs open directly (one set per Playwright project). */
export const DASHBOARD_IDS = {
  detalhe: {
    desktop: '8e2e0000-0000-4000-8000-0000000000d1',
    phone: '8e2e0000-0000-4000-8000-0000000000f1',
  },
  excluir: {
    desktop: '8e2e0000-0000-4000-8000-0000000000d2',
    phone: '8e2e0000-0000-4000-8000-0000000000f2',
  },
  documentos: {
    desktop: '8e2e0000-0000-4000-8000-0000000000d3',
    phone: '8e2e0000-0000-4000-8000-0000000000f3',
  },
}

/**
 * Fixtures of the dashboard and service detail end-to-end tests:
 * - category 'Licenciamento Paginado': 25 services of 'Cliente Paginação Ltda' (PAG-E2E-01..25,
 *   PAG-E2E-25 newest) with mixed statuses and end dates (0, 5, 6, 15, 16 days, past, archived),
 *   the first eight with a process at `ORGAO_PAGINADO`;
 * - category 'Detalhe E2E': per project a service to edit, one to delete and one for documents;
 * - category 'Nomes Longos E2E': one service whose client and type names are long (`NOMES_LONGOS`).
 */
export async function seedDashboard({ db, storage }: SeedContext) {
  const hoje = today()
  const emAndamento = await getStatus(db, 'Em andamento')
  const aguardando = await getStatus(db, 'Aguardando cliente')
  const arquivado = await getStatus(db, 'Arquivado')

  const paginado = await createCategoria(db, { nome: 'Licenciamento Paginado' })
  const tipoPaginado = await createTipoServico(db, {
    tipo: 'Licença Paginada',
    categoria_id: paginado.id,
  })
  const cliente = await createCliente(db, { nome: 'Cliente Paginação Ltda' })
  const orgao = await createOrgao(db, { sigla: ORGAO_PAGINADO, nome: 'Órgão da Paginação E2E' })
  // end date offsets (days from today) by index; archived ones are marked below
  const dias = [
    0, 5, 6, 15, 16, -3, 30, 45, 60, 90, 120, 200, 365, 2, 10, 20, 25, 40, 50, 70, 80, 100, 150,
    250, 300,
  ]
  for (let i = 0; i < 25; i++) {
    const n = i + 1
    const status_id = n >= 21 ? arquivado.id : n % 3 === 0 ? aguardando.id : emAndamento.id
    const s = await createServico(db, {
      cliente_id: cliente.id,
      tipo_servico_id: tipoPaginado.id,
      protocolo: `PAG-E2E-${String(n).padStart(2, '0')}`,
      status_id,
      vigencia_inicio: addDays(hoje, -300),
      vigencia_fim: addDays(hoje, dias[i]),
      visualizado_admin: n !== 25,
      created_at: new Date(Date.UTC(2025, 0, 1, 12, 0, n)),
    })
    if (n === 25 || n === 24) await createAviso(db, { servico_id: s.id, texto: `Pendência ${n}` })
    // "Órgão" and "Etapa no órgão": PAG-E2E-01..08 have a process at ORGAO_PAGINADO, the even
    // ones in "Em análise técnica", the odd ones "Protocolado".
    if (n <= 8)
      await db.insert(processos).values({
        servico_id: s.id,
        orgao_id: orgao.id,
        etapa: n % 2 === 0 ? 'em_analise' : 'protocolado',
        etapa_desde: addDays(hoje, -n),
      })
  }

  const detalheCat = await createCategoria(db, { nome: 'Detalhe E2E' })
  const tipoDetalhe = await createTipoServico(db, {
    tipo: 'Outorga de Uso da Água Subterrânea',
    categoria_id: detalheCat.id,
  })
  const parecer = await createTipoDocumento(db, { tipo: 'Parecer Técnico E2E' })
  const laudo = await createTipoDocumento(db, { tipo: 'Laudo E2E' })
  for (const project of ['desktop', 'phone'] as const) {
    const sufixo = project === 'desktop' ? 'D' : 'P'
    const dono = await createCliente(db, {
      nome: `Fazenda Boa Vista ${sufixo}`,
      email: `detalhe-${project}@portal.test`,
    })
    const detalhe = await createServico(db, {
      id: DASHBOARD_IDS.detalhe[project],
      cliente_id: dono.id,
      tipo_servico_id: tipoDetalhe.id,
      protocolo: `DET-${sufixo}`,
      status_id: emAndamento.id,
      vigencia_inicio: addDays(hoje, -30),
      vigencia_fim: addDays(hoje, 10),
      detalhes: 'Processo aberto no órgão ambiental.',
      anotacoes: 'Cliente prefere contato por telefone.',
    })
    await createAviso(db, {
      servico_id: detalhe.id,
      texto: 'Enviar matrícula atualizada',
      data_limite: addDays(hoje, 7),
      created_at: new Date(Date.now() - 60_000),
    })
    await createAviso(db, {
      servico_id: detalhe.id,
      texto: 'Conferir ART',
      data_limite: addDays(hoje, 3),
      resolvido: true,
      created_at: new Date(Date.now() - 120_000),
    })

    // opened only by the dashboard spec's 'Ver Detalhes' test (its Novo badge must go away)
    await createServico(db, {
      cliente_id: dono.id,
      tipo_servico_id: tipoDetalhe.id,
      protocolo: `NOVO-${sufixo}`,
      status_id: emAndamento.id,
    })

    const excluir = await createServico(db, {
      id: DASHBOARD_IDS.excluir[project],
      cliente_id: dono.id,
      tipo_servico_id: tipoDetalhe.id,
      protocolo: `DEL-${sufixo}`,
      status_id: emAndamento.id,
    })
    await createAviso(db, { servico_id: excluir.id })
    const keyExcluir = `${excluir.id}/1700000000000-parecer.pdf`
    await storage.put(keyExcluir, Readable.from(PDF), PDF.length)
    await createDocumento(db, {
      servico_id: excluir.id,
      tipo_documento_id: parecer.id,
      caminho_arquivo: keyExcluir,
    })

    const docs = await createServico(db, {
      id: DASHBOARD_IDS.documentos[project],
      cliente_id: dono.id,
      tipo_servico_id: tipoDetalhe.id,
      protocolo: `DOC-${sufixo}`,
      status_id: emAndamento.id,
    })
    const keyLaudo = `${docs.id}/1700000000000-laudo.pdf`
    await storage.put(keyLaudo, Readable.from(PDF), PDF.length)
    await createDocumento(db, {
      servico_id: docs.id,
      tipo_documento_id: laudo.id,
      caminho_arquivo: keyLaudo,
      tipo_documento: 'Laudo E2E',
    })
  }

  const longos = await createCategoria(db, { nome: 'Nomes Longos E2E' })
  await createServico(db, {
    cliente_id: (await createCliente(db, { nome: NOMES_LONGOS.cliente })).id,
    tipo_servico_id: (
      await createTipoServico(db, { tipo: NOMES_LONGOS.tipo, categoria_id: longos.id })
    ).id,
    protocolo: NOMES_LONGOS.protocolo,
    status_id: emAndamento.id,
    visualizado_admin: true,
  })
}

/** The agency of some of the 'Licenciamento Paginado' services (the dashboard's "Órgão"). */
export const ORGAO_PAGINADO = 'OPAG-E2E'

/** A service whose names are cut in the dashboard's table (a tooltip shows them). */
export const NOMES_LONGOS = {
  cliente:
    'Cooperativa Agroindustrial dos Produtores Rurais do Vale do Rio Doce e da Região Serrana Capixaba Ltda',
  tipo: 'Licença Ambiental Simplificada para Atividades de Pequeno Potencial Poluidor e Degradador (Renovação)',
  protocolo: '2019-004217',
}
