import { Readable } from 'node:stream'
import { createConfirmedAccount } from '../../../src/server/auth/auth.ts'
import {
  createCategoria,
  createCliente,
  createDocumento,
  createRegra,
  createServico,
  createStatus,
  createTipoDocumento,
  createTipoServico,
  getStatus,
} from '../../factories.ts'
import {
  AVISO_LICENCA,
  CATEGORIA,
  CATEGORIA_GESTAO,
  DOCS_ACC,
  IDS,
  INCOMPLETO_ACC,
  SERVICOS_ACC,
  TIPO_INATIVO,
  TIPO_LICENCA,
  TIPO_SUPRESSAO,
  cpf,
} from '../cliente-area.ts'
import type { SeedContext } from './context.ts'

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')
const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.alloc(32),
])

/** Fixtures of the client area (Meus Dados, Meus Serviços, Solicitar Serviço, Documentos) end-to-end tests. */
export async function seedClienteArea({ db, auth, storage }: SeedContext) {
  // Catalogue: one category with two active types and an inactive one, another for the list.
  const licenciamento = await createCategoria(db, {
    nome: CATEGORIA,
    descricao: 'Licenças e autorizações municipais para empreendimentos no litoral.',
  })
  const gestao = await createCategoria(db, {
    nome: CATEGORIA_GESTAO,
    descricao: 'Planos, cadastros e estudos para empresas.',
  })
  const licenca = await createTipoServico(db, {
    tipo: TIPO_LICENCA,
    categoria_id: licenciamento.id,
    validade: 730,
    mensagem_aviso: AVISO_LICENCA,
  })
  const supressao = await createTipoServico(db, {
    tipo: TIPO_SUPRESSAO,
    categoria_id: licenciamento.id,
    validade: 365,
  })
  await createTipoServico(db, {
    tipo: TIPO_INATIVO,
    categoria_id: licenciamento.id,
    validade: 365,
    ativo: false,
  })
  const gestaoTipos = Object.fromEntries(
    await Promise.all(
      [
        ['outorga', 'Outorga de Uso da Água', 1460],
        ['ctf', 'Cadastro Técnico Federal', 365],
        ['pgrs', 'Plano de Gerenciamento de Resíduos', 365],
        ['li', 'Licença de Instalação', 1095],
        ['eiv', 'Estudo de Impacto de Vizinhança', 180],
      ].map(async ([key, tipo, validade]) => [
        key,
        await createTipoServico(db, {
          tipo: String(tipo),
          categoria_id: gestao.id,
          validade: Number(validade),
        }),
      ]),
    ),
  )

  // Document types and the rules of the licence (4 required documents).
  const td = async (tipo: string) => createTipoDocumento(db, { tipo })
  const contrato = await td('Contrato Social')
  const matricula = await td('Matrícula do Imóvel')
  const planta = await td('Planta de Localização')
  const comprovante = await td('Comprovante de Endereço')
  const parecer = await td('Parecer Técnico')
  const vistoria = await td('Relatório de Vistoria')
  const interna = await td('Nota Interna da Equipe')
  for (const t of [contrato, matricula, planta, comprovante])
    await createRegra(db, licenca.id, t.id)

  const aprovado = await createStatus(db, {
    nome: 'Aprovado pela equipe',
    descricao: 'Documento conferido.',
  })
  const rejeitado = await createStatus(db, {
    nome: 'Rejeitado pela equipe',
    descricao: 'Documento ilegível.',
  })
  const st = async (nome: string) => (await getStatus(db, nome)).id

  // Meus Serviços: one service of each badge colour, plus one without status or dates.
  const servicosUser = await createConfirmedAccount(auth, SERVICOS_ACC.email, SERVICOS_ACC.password)
  const maria = await createCliente(db, {
    user_id: servicosUser.id,
    nome: 'Maria Serviços',
    documento: cpf(),
    email: SERVICOS_ACC.email,
  })
  const base = Date.UTC(2026, 0, 1)
  const lista: [string, string | null, Partial<Parameters<typeof createServico>[1]>][] = [
    [
      gestaoTipos.eiv.id,
      await st('Arquivado'),
      { vigencia_inicio: '2024-03-01', vigencia_fim: '2024-08-28' },
    ],
    [
      gestaoTipos.li.id,
      await st('Vencido'),
      { vigencia_inicio: '2022-05-10', vigencia_fim: '2025-05-09' },
    ],
    [
      gestaoTipos.pgrs.id,
      await st('Entregue'),
      { vigencia_inicio: '2025-06-01', vigencia_fim: '2026-06-01' },
    ],
    [
      gestaoTipos.ctf.id,
      await st('Protocolado no órgão ambiental'),
      { vigencia_inicio: '2025-09-15', vigencia_fim: '2026-09-15' },
    ],
    [
      licenca.id,
      await st('Em andamento'),
      {
        id: IDS.servicoDetalhado,
        vigencia_inicio: '2026-01-15',
        vigencia_fim: '2028-01-15',
        protocolo: 'PROT-SRV-0001',
        detalhes: 'Vistoria técnica agendada. Aguardando parecer da secretaria municipal.',
        anotacoes: 'Nota interna: cliente prefere contato por telefone.',
        emails_tecnicos: 'tecnico@consultoria.test',
      },
    ],
    [
      gestaoTipos.outorga.id,
      await st('Aguardando cliente'),
      { vigencia_inicio: '2026-02-01', vigencia_fim: '2030-01-31' },
    ],
    [supressao.id, null, { vigencia_inicio: null, vigencia_fim: null, protocolo: null }],
  ]
  for (const [i, [tipo_servico_id, status_id, extra]] of lista.entries()) {
    await createServico(db, {
      cliente_id: maria.id,
      tipo_servico_id,
      status_id,
      protocolo: null,
      created_at: new Date(base + i * 86_400_000),
      ...extra,
    })
  }

  // Documentos: the screen with every badge, and services for the zip cases.
  const docsUser = await createConfirmedAccount(auth, DOCS_ACC.email, DOCS_ACC.password)
  const joao = await createCliente(db, {
    user_id: docsUser.id,
    nome: 'João Documentos',
    documento: cpf(),
    email: DOCS_ACC.email,
  })
  const emAndamento = await st('Em andamento')
  const servico = (id: string, protocolo: string, tipo_servico_id = licenca.id) =>
    createServico(db, {
      id,
      cliente_id: joao.id,
      tipo_servico_id,
      protocolo,
      status_id: emAndamento,
    })
  const doc = async (
    servicoId: string,
    tipo: { id: string },
    file: { name: string; body: Buffer | null },
    extra: Partial<Parameters<typeof createDocumento>[1]> = {},
  ) => {
    const caminho =
      extra.caminho_arquivo ?? `${docsUser.id}/${servicoId}/${tipo.id}/1767261600000-${file.name}`
    if (file.body) await storage.put(caminho, Readable.from(file.body), file.body.length)
    await createDocumento(db, {
      servico_id: servicoId,
      tipo_documento_id: tipo.id,
      caminho_arquivo: caminho,
      data_envio: new Date('2026-01-20T13:00:00Z'),
      ...extra,
    })
  }
  await servico(IDS.docs, 'PROT-DOC-0001')
  await doc(IDS.docs, contrato, { name: 'contrato-social.pdf', body: PDF })
  await doc(IDS.docs, matricula, { name: 'matricula.png', body: PNG }, { status_id: aprovado.id })
  await doc(
    IDS.docs,
    comprovante,
    { name: 'comprovante.pdf', body: PDF },
    { status_id: rejeitado.id },
  )
  await doc(
    IDS.docs,
    parecer,
    { name: 'parecer.pdf', body: PDF },
    {
      caminho_arquivo: `${IDS.docs}/1767348000000-parecer.pdf`,
      data_envio: new Date('2026-01-22T13:00:00Z'),
    },
  )
  await doc(
    IDS.docs,
    vistoria,
    { name: 'vistoria.pdf', body: PDF },
    {
      caminho_arquivo: `${IDS.docs}/1767434400000-vistoria.pdf`,
      data_envio: new Date('2026-01-23T13:00:00Z'),
      status_id: aprovado.id,
    },
  )
  await doc(
    IDS.docs,
    interna,
    { name: 'interna.pdf', body: PDF },
    { caminho_arquivo: `${IDS.docs}/1767434400001-interna.pdf`, visivel_usuario: false },
  )

  // One file of two is missing: the zip skips it.
  await servico(IDS.zipParcial, 'PROT-ZIP/0002')
  await doc(IDS.zipParcial, contrato, { name: 'contrato.pdf', body: PDF })
  await doc(IDS.zipParcial, matricula, { name: 'matricula-perdida.pdf', body: null })
  // The only file is missing: nothing to zip.
  await servico(IDS.zipFalha, 'PROT-ZIP-0003')
  await doc(IDS.zipFalha, contrato, { name: 'perdido.pdf', body: null })
  // A type without rules: nothing required.
  await servico(IDS.semExigidos, 'PROT-SEM-0004', supressao.id)

  // A record whose nome is blank (made before the rules required it): the wizard sends it back.
  const incompleto = await createConfirmedAccount(
    auth,
    INCOMPLETO_ACC.email,
    INCOMPLETO_ACC.password,
  )
  await createCliente(db, {
    user_id: incompleto.id,
    nome: '',
    documento: cpf(),
    email: INCOMPLETO_ACC.email,
  })
}
