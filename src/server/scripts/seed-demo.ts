// `npm run seed:demo`: fills an installation with a realistic catalogue of Brazilian environmental
// licensing and a few demo clients with services. Idempotent: rows are matched by name (clients
// by documento), so running it again adds only what is missing.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { and, eq, isNull, sql } from 'drizzle-orm'
import pino from 'pino'
import {
  createAuth,
  createConfirmedAccount,
  enrolTwoFactorDirectly,
  ensureAdmin,
  type Auth,
} from '../auth/auth.ts'
import { ConfigError, parseConfig } from '../config.ts'
import { openDatabase, type Db } from '../db/client.ts'
import {
  categorias,
  clientes,
  schedules,
  servicos,
  status,
  tiposDocumentos,
  tiposServicos,
  tiposServicosTiposDocumentos,
  user,
} from '../db/schema.ts'
import { seedStatuses } from '../db/seed.ts'
import { createMailer } from '../mail/mailer.ts'
import { loadSecret, lockDataDir } from '../runtime.ts'
import { addDays, today } from '#shared/datas.ts'
import { isValidDocumento } from '#shared/documento.ts'
import { composeEndereco } from '#shared/schemas/clientes.ts'

/** The password of every demo account (printed at the end). */
export const DEMO_PASSWORD = 'demo12345'

const CATEGORIAS = [
  {
    nome: 'Licenciamento Ambiental',
    descricao: 'Licenças ambientais junto aos órgãos estadual e municipal.',
  },
  {
    nome: 'Outorgas e Recursos Hídricos',
    descricao: 'Uso de água, poços e lançamento de efluentes.',
  },
  {
    nome: 'Cadastros e Relatórios',
    descricao: 'Cadastros federais, relatórios anuais e declarações obrigatórias.',
  },
  {
    nome: 'Gestão de Resíduos',
    descricao: 'Planos, manifestos e declarações de resíduos sólidos.',
  },
  { nome: 'Estudos Ambientais', descricao: 'Estudos técnicos que instruem o licenciamento.' },
]

const RENOVAR_120 =
  'A renovação deve ser requerida com antecedência mínima de 120 dias do vencimento (LC 140/2011, art. 14, § 4º).'

/** [tipo, categoria, validade em dias, mensagem de aviso] */
const TIPOS_SERVICOS: [string, string, number, string | null][] = [
  ['Licença Prévia (LP)', 'Licenciamento Ambiental', 1825, null],
  ['Licença de Instalação (LI)', 'Licenciamento Ambiental', 2190, null],
  ['Licença de Operação (LO)', 'Licenciamento Ambiental', 1460, RENOVAR_120],
  ['Renovação de Licença de Operação (RLO)', 'Licenciamento Ambiental', 1460, RENOVAR_120],
  ['Licença Ambiental Simplificada (LAS)', 'Licenciamento Ambiental', 1460, RENOVAR_120],
  ['Declaração de Dispensa de Licenciamento', 'Licenciamento Ambiental', 1095, null],
  [
    'Outorga de uso de água',
    'Outorgas e Recursos Hídricos',
    3650,
    'Solicite a renovação da outorga antes do vencimento para não interromper a captação.',
  ],
  ['Outorga de lançamento de efluentes', 'Outorgas e Recursos Hídricos', 3650, null],
  ['Cadastro de uso insignificante de água', 'Outorgas e Recursos Hídricos', 1095, null],
  [
    'CTF/IBAMA - Cadastro Técnico Federal',
    'Cadastros e Relatórios',
    90,
    'O Certificado de Regularidade do CTF vale 3 meses: mantenha a TCFA em dia.',
  ],
  [
    'RAPP/IBAMA - Relatório Anual de Atividades',
    'Cadastros e Relatórios',
    365,
    'Entrega obrigatória até 31 de março de cada ano.',
  ],
  ['Cadastro Ambiental Rural (CAR)', 'Cadastros e Relatórios', 1825, null],
  ['PGRS - Plano de Gerenciamento de Resíduos Sólidos', 'Gestão de Resíduos', 365, null],
  [
    'DMR - Declaração de Movimentação de Resíduos',
    'Gestão de Resíduos',
    90,
    'Declaração trimestral no SINIR.',
  ],
  ['RCA/PCA - Relatório e Plano de Controle Ambiental', 'Estudos Ambientais', 730, null],
  ['EIA/RIMA - Estudo de Impacto Ambiental', 'Estudos Ambientais', 1825, null],
]

const TIPOS_DOCUMENTOS = [
  'Contrato Social ou Estatuto',
  'Cartão CNPJ',
  'Documento de identidade do responsável legal',
  'Procuração',
  'Comprovante de endereço',
  'Certidão de uso e ocupação do solo',
  'Planta de localização do empreendimento',
  'Memorial descritivo do empreendimento',
  'Anotação de Responsabilidade Técnica (ART)',
  'Licença anterior',
  'Relatório de cumprimento de condicionantes',
  'Comprovante de pagamento de taxa',
  'Laudo de análise de água',
  'Recibo de inscrição no CAR',
  'Manifestos de Transporte de Resíduos (MTR)',
]

const BASICOS = [
  'Contrato Social ou Estatuto',
  'Cartão CNPJ',
  'Documento de identidade do responsável legal',
]

/** Required documents per service type (document rules). */
const REGRAS: Record<string, string[]> = {
  'Licença Prévia (LP)': [
    ...BASICOS,
    'Certidão de uso e ocupação do solo',
    'Planta de localização do empreendimento',
    'Memorial descritivo do empreendimento',
    'Comprovante de pagamento de taxa',
  ],
  'Licença de Instalação (LI)': [
    ...BASICOS,
    'Licença anterior',
    'Memorial descritivo do empreendimento',
    'Anotação de Responsabilidade Técnica (ART)',
    'Comprovante de pagamento de taxa',
  ],
  'Licença de Operação (LO)': [
    ...BASICOS,
    'Licença anterior',
    'Relatório de cumprimento de condicionantes',
    'Comprovante de pagamento de taxa',
  ],
  'Renovação de Licença de Operação (RLO)': [
    ...BASICOS,
    'Licença anterior',
    'Relatório de cumprimento de condicionantes',
    'Comprovante de pagamento de taxa',
  ],
  'Licença Ambiental Simplificada (LAS)': [
    ...BASICOS,
    'Certidão de uso e ocupação do solo',
    'Comprovante de pagamento de taxa',
  ],
  'Declaração de Dispensa de Licenciamento': [...BASICOS, 'Certidão de uso e ocupação do solo'],
  'Outorga de uso de água': [
    ...BASICOS,
    'Planta de localização do empreendimento',
    'Laudo de análise de água',
    'Anotação de Responsabilidade Técnica (ART)',
  ],
  'Outorga de lançamento de efluentes': [
    ...BASICOS,
    'Laudo de análise de água',
    'Anotação de Responsabilidade Técnica (ART)',
  ],
  'Cadastro de uso insignificante de água': [
    'Documento de identidade do responsável legal',
    'Comprovante de endereço',
    'Planta de localização do empreendimento',
  ],
  'CTF/IBAMA - Cadastro Técnico Federal': [
    'Cartão CNPJ',
    'Documento de identidade do responsável legal',
  ],
  'RAPP/IBAMA - Relatório Anual de Atividades': [
    'Cartão CNPJ',
    'Manifestos de Transporte de Resíduos (MTR)',
  ],
  'Cadastro Ambiental Rural (CAR)': [
    'Documento de identidade do responsável legal',
    'Comprovante de endereço',
    'Recibo de inscrição no CAR',
  ],
  'PGRS - Plano de Gerenciamento de Resíduos Sólidos': [
    ...BASICOS,
    'Anotação de Responsabilidade Técnica (ART)',
    'Manifestos de Transporte de Resíduos (MTR)',
  ],
  'DMR - Declaração de Movimentação de Resíduos': [
    'Cartão CNPJ',
    'Manifestos de Transporte de Resíduos (MTR)',
  ],
  'RCA/PCA - Relatório e Plano de Controle Ambiental': [
    ...BASICOS,
    'Memorial descritivo do empreendimento',
    'Anotação de Responsabilidade Técnica (ART)',
  ],
  'EIA/RIMA - Estudo de Impacto Ambiental': [
    ...BASICOS,
    'Planta de localização do empreendimento',
    'Memorial descritivo do empreendimento',
    'Anotação de Responsabilidade Técnica (ART)',
  ],
}

const SCHEDULES = [
  {
    avisar: 90,
    mensagem:
      'A vigência termina em até 90 dias. É hora de reunir os documentos e iniciar a renovação.',
  },
  {
    avisar: 30,
    mensagem: 'A vigência termina em até 30 dias. Confirme com a equipe o andamento da renovação.',
  },
  {
    avisar: 15,
    mensagem: 'A vigência termina em até 15 dias. Envie os documentos pendentes com urgência.',
  },
  {
    avisar: 5,
    mensagem: 'A vigência termina em até 5 dias. Entre em contato com a consultoria hoje.',
  },
]

// ---- documents with valid check digits, from fixed bases ----

function checkDigit(digits: number[], weights: number[]) {
  const sum = digits.reduce((acc, d, i) => acc + d * weights[i], 0)
  const r = sum % 11
  return r < 2 ? 0 : 11 - r
}
function cpf(base9: string) {
  const d = base9.split('').map(Number)
  d.push(checkDigit(d, [10, 9, 8, 7, 6, 5, 4, 3, 2]))
  d.push(checkDigit(d, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]))
  return d.join('')
}
function cnpj(base12: string) {
  const d = base12.split('').map(Number)
  d.push(checkDigit(d, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]))
  d.push(checkDigit(d, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]))
  return d.join('')
}

type DemoServico = {
  tipo: string
  status: string
  inicioDias: number
  protocolo: string
  detalhes?: string
}
type DemoCliente = {
  nome: string
  email: string
  documento: string
  telefone: string
  cep: string
  logradouro: string
  bairro: string
  localidade: string
  uf: string
  servicos: DemoServico[]
}

/** Start dates are relative to today, so the dashboard always shows services near their end. */
const CLIENTES: DemoCliente[] = [
  {
    nome: 'Pousada Mar Azul Ltda',
    email: 'contato@pousadamarazul.example',
    documento: cnpj('274618350001'),
    telefone: '(27) 3261-4580',
    cep: '29230-000',
    logradouro: 'Avenida Beira Mar, 1200',
    bairro: 'Praia do Morro',
    localidade: 'Guarapari',
    uf: 'ES',
    servicos: [
      {
        tipo: 'Licença de Operação (LO)',
        status: 'Em andamento',
        inicioDias: -1450,
        protocolo: 'IEMA-2022/004512',
        detalhes: 'Renovação a protocolar: vigência termina em poucos dias.',
      },
      {
        tipo: 'Outorga de uso de água',
        status: 'Entregue',
        inicioDias: -400,
        protocolo: 'AGERH-2024/00871',
      },
    ],
  },
  {
    nome: 'Cerâmica Vale do Rio Doce Ltda',
    email: 'ambiental@ceramicavale.example',
    documento: cnpj('183406720001'),
    telefone: '(27) 3371-2290',
    cep: '29900-000',
    logradouro: 'Rodovia BR-101 Norte, km 145',
    bairro: 'Distrito Industrial',
    localidade: 'Linhares',
    uf: 'ES',
    servicos: [
      {
        tipo: 'Licença de Instalação (LI)',
        status: 'Protocolado no órgão ambiental',
        inicioDias: -60,
        protocolo: 'IEMA-2026/001187',
      },
      {
        tipo: 'CTF/IBAMA - Cadastro Técnico Federal',
        status: 'Aguardando cliente',
        inicioDias: -80,
        protocolo: 'IBAMA-CTF-7745120',
        detalhes: 'Aguardando comprovante de pagamento da TCFA.',
      },
      {
        tipo: 'PGRS - Plano de Gerenciamento de Resíduos Sólidos',
        status: 'Vencido',
        inicioDias: -380,
        protocolo: 'PMLIN-2025/0332',
      },
    ],
  },
  {
    nome: 'Maria Aparecida Oliveira',
    email: 'maria.oliveira@cliente.example',
    documento: cpf('314159265'),
    telefone: '(27) 99812-4470',
    cep: '29930-000',
    logradouro: 'Sítio Boa Esperança, s/n',
    bairro: 'Zona Rural',
    localidade: 'São Mateus',
    uf: 'ES',
    servicos: [
      {
        tipo: 'Cadastro Ambiental Rural (CAR)',
        status: 'Entregue',
        inicioDias: -200,
        protocolo: 'CAR-ES-3204906-0001',
      },
      {
        tipo: 'Cadastro de uso insignificante de água',
        status: 'Em andamento',
        inicioDias: -1085,
        protocolo: 'AGERH-2023/01522',
      },
    ],
  },
]

export type SeedDemoSummary = {
  categorias: number
  tiposServicos: number
  tiposDocumentos: number
  regras: number
  schedules: number
  clientes: number
  servicos: number
  contas: string[]
}

/** Adds what is missing of the demo catalogue and clients; returns how many rows it created. */
export async function seedDemo(db: Db, auth: Auth, now = today()): Promise<SeedDemoSummary> {
  const summary: SeedDemoSummary = {
    categorias: 0,
    tiposServicos: 0,
    tiposDocumentos: 0,
    regras: 0,
    schedules: 0,
    clientes: 0,
    servicos: 0,
    contas: [],
  }

  const categoriaIds = new Map<string, string>()
  for (const c of CATEGORIAS) {
    const [found] = await db
      .select({ id: categorias.id })
      .from(categorias)
      .where(eq(categorias.nome, c.nome))
    if (found) categoriaIds.set(c.nome, found.id)
    else {
      const [row] = await db.insert(categorias).values(c).returning({ id: categorias.id })
      categoriaIds.set(c.nome, row.id)
      summary.categorias++
    }
  }

  const tipoIds = new Map<string, string>()
  for (const [tipo, categoria, validade, mensagem_aviso] of TIPOS_SERVICOS) {
    const [found] = await db
      .select({ id: tiposServicos.id })
      .from(tiposServicos)
      .where(eq(tiposServicos.tipo, tipo))
    // Issue 17: a renewal filed at least 120 days before the end (LC 140/2011 art. 14 § 4)
    const antecedencia_renovacao = mensagem_aviso === RENOVAR_120 ? 120 : null
    if (found) {
      tipoIds.set(tipo, found.id)
      if (antecedencia_renovacao)
        await db
          .update(tiposServicos)
          .set({ antecedencia_renovacao })
          .where(and(eq(tiposServicos.id, found.id), isNull(tiposServicos.antecedencia_renovacao)))
    } else {
      const [row] = await db
        .insert(tiposServicos)
        .values({
          tipo,
          categoria_id: categoriaIds.get(categoria) ?? null,
          validade,
          ativo: true,
          mensagem_aviso,
          antecedencia_renovacao,
        })
        .returning({ id: tiposServicos.id })
      tipoIds.set(tipo, row.id)
      summary.tiposServicos++
    }
  }

  const documentoIds = new Map<string, string>()
  for (const tipo of TIPOS_DOCUMENTOS) {
    const [found] = await db
      .select({ id: tiposDocumentos.id })
      .from(tiposDocumentos)
      .where(eq(tiposDocumentos.tipo, tipo))
    if (found) documentoIds.set(tipo, found.id)
    else {
      const [row] = await db
        .insert(tiposDocumentos)
        .values({ tipo })
        .returning({ id: tiposDocumentos.id })
      documentoIds.set(tipo, row.id)
      summary.tiposDocumentos++
    }
  }

  for (const [tipo, documentos] of Object.entries(REGRAS)) {
    const inserted = await db
      .insert(tiposServicosTiposDocumentos)
      .values(
        documentos.map((d) => ({
          tipo_servico_id: tipoIds.get(tipo)!,
          tipo_documento_id: documentoIds.get(d)!,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: tiposServicosTiposDocumentos.id })
    summary.regras += inserted.length
  }

  for (const s of SCHEDULES) {
    const [found] = await db
      .select({ id: schedules.id })
      .from(schedules)
      .where(eq(schedules.avisar, s.avisar))
    if (!found) {
      await db.insert(schedules).values(s)
      summary.schedules++
    }
  }

  const statusIds = new Map(
    (await db.select({ id: status.id, nome: status.nome }).from(status)).map((s) => [s.nome, s.id]),
  )
  for (const demo of CLIENTES) {
    if (!isValidDocumento(demo.documento))
      throw new Error(`demo documento inválido: ${demo.documento}`)
    summary.contas.push(demo.email)
    const [found] = await db
      .select({ id: clientes.id })
      .from(clientes)
      .where(eq(clientes.documento, demo.documento))
    if (found) continue
    const [existing] = await db
      .select({ id: user.id })
      .from(user)
      .where(sql`lower(${user.email}) = ${demo.email}`)
    const userId =
      existing?.id ?? (await createConfirmedAccount(auth, demo.email, DEMO_PASSWORD)).id
    const { servicos: demoServicos, ...dados } = demo
    const endereco = composeEndereco({ ...dados, complemento: null })
    const [cliente] = await db
      .insert(clientes)
      .values({ ...dados, user_id: userId, endereco })
      .onConflictDoNothing()
      .returning({ id: clientes.id })
    if (!cliente) continue
    summary.clientes++
    for (const s of demoServicos) {
      const inicio = addDays(now, s.inicioDias)
      const validade = TIPOS_SERVICOS.find(([tipo]) => tipo === s.tipo)![2]
      await db.insert(servicos).values({
        cliente_id: cliente.id,
        tipo_servico_id: tipoIds.get(s.tipo)!,
        vigencia_inicio: inicio,
        vigencia_fim: addDays(inicio, validade),
        status_id: statusIds.get(s.status) ?? null,
        protocolo: s.protocolo,
        detalhes: s.detalhes ?? null,
        emails_interessados: demo.email,
      })
      summary.servicos++
    }
  }
  return summary
}

/** Counts used by the test and the final line of the script. */
export async function demoCounts(db: Db) {
  const countOf = async (
    table:
      | typeof categorias
      | typeof tiposServicos
      | typeof tiposDocumentos
      | typeof schedules
      | typeof tiposServicosTiposDocumentos,
  ) => (await db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n
  const demoDocs = CLIENTES.map((c) => c.documento)
  const [{ n: clientesDemo }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(clientes)
    .where(sql`${clientes.documento} in ${demoDocs}`)
  const [{ n: servicosDemo }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(servicos)
    .innerJoin(
      clientes,
      and(eq(clientes.id, servicos.cliente_id), sql`${clientes.documento} in ${demoDocs}`),
    )
  return {
    categorias: await countOf(categorias),
    tiposServicos: await countOf(tiposServicos),
    tiposDocumentos: await countOf(tiposDocumentos),
    regras: await countOf(tiposServicosTiposDocumentos),
    schedules: await countOf(schedules),
    clientesDemo,
    servicosDemo,
  }
}

/**
 * With ADMIN_EMAIL and ADMIN_PASSWORD: the demo administrator (the same the server makes at
 * start-up), with its second factor enrolled on a new key that is printed, so a demo (or a
 * screenshot script) signs in without the enrolment screen. An administrator who already has one
 * keeps it (the key cannot be shown again; `npm run admin:reset-2fa` starts over).
 */
export async function seedDemoAdmin(db: Db, auth: Auth, email: string, password: string) {
  const { userId } = await ensureAdmin(auth, db, email, password)
  const [row] = await db
    .select({ twoFactorEnabled: user.twoFactorEnabled })
    .from(user)
    .where(eq(user.id, userId))
  if (row?.twoFactorEnabled)
    return `Administrador ${email}: a verificação em duas etapas já estava ativa (chave mantida).`
  const { key } = await enrolTwoFactorDirectly(auth, db, userId)
  return (
    `Administrador ${email} (senha de ADMIN_PASSWORD), verificação em duas etapas ativa.\n` +
    `  Chave do autenticador (TOTP, base32): ${key}\n` +
    '  Cadastre-a num aplicativo autenticador para gerar o código de 6 dígitos do login.'
  )
}

async function main() {
  const config = parseConfig()
  // PGlite allows one process per data directory: refuse while the server runs on it.
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir)
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pgdata'),
  })
  try {
    await database.migrate()
    await seedStatuses(database.db)
    const log = pino({ level: 'warn' })
    const mailer = createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'mail'),
      log,
    })
    const auth = createAuth({
      db: database.db,
      appUrl: config.appUrl,
      secret: loadSecret(config.dataDir, config.authSecret),
      mailer,
    })
    const s = await seedDemo(database.db, auth)
    mailer.close()
    console.log(
      `Dados de demonstração adicionados: ${s.categorias} categorias, ${s.tiposServicos} tipos de serviço, ` +
        `${s.tiposDocumentos} tipos de documento, ${s.regras} regras, ${s.schedules} agendamentos, ` +
        `${s.clientes} clientes e ${s.servicos} serviços (o que já existia foi mantido).`,
    )
    console.log(`Contas de demonstração (senha "${DEMO_PASSWORD}"):\n  ${s.contas.join('\n  ')}`)
    if (config.adminEmail && config.adminPassword)
      console.log(await seedDemoAdmin(database.db, auth, config.adminEmail, config.adminPassword))
  } finally {
    await database.close()
    unlock()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err) => {
    console.error(err instanceof ConfigError || err instanceof Error ? err.message : err)
    process.exit(1)
  })
}
