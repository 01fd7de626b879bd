// The demo's data: a realistic catalogue of Brazilian environmental licensing (categories,
// service types with their validity, document types, the documents each type requires, warning
// schedules) and a few clients with services. `seed-demo.ts` writes it.

/**
 * "Dados da empresa" of the demo firm (the landing page's): its contact reaches clients in
 * "Fale com a consultoria" and every e-mail, and the privacy notice names its encarregado.
 */
export const EMPRESA = {
  nome: 'Verde Vivo Consultoria Ambiental',
  email: 'contato@verdevivo.com.br',
  telefone: '(27) 3345-6789',
  whatsapp: '(27) 99812-3456',
  endereco: 'Av. Nossa Senhora da Penha, 1495, Sala 804 – Santa Lúcia, Vitória – ES, 29056-250',
  encarregado_nome: 'Juliana Ferreira Costa',
  encarregado_email: 'privacidade@verdevivo.com.br',
}

export const CATEGORIAS = [
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

/** "Órgãos ambientais": the federal agency, state agencies of the South-East and South, a municipality. */
export const ORGAOS: {
  sigla: string
  nome: string
  esfera: 'Federal' | 'Estadual' | 'Municipal'
  uf: string | null
}[] = [
  {
    sigla: 'IBAMA',
    nome: 'Instituto Brasileiro do Meio Ambiente e dos Recursos Naturais Renováveis',
    esfera: 'Federal',
    uf: null,
  },
  {
    sigla: 'CETESB',
    nome: 'Companhia Ambiental do Estado de São Paulo',
    esfera: 'Estadual',
    uf: 'SP',
  },
  { sigla: 'INEA', nome: 'Instituto Estadual do Ambiente', esfera: 'Estadual', uf: 'RJ' },
  {
    sigla: 'IEMA',
    nome: 'Instituto Estadual de Meio Ambiente e Recursos Hídricos',
    esfera: 'Estadual',
    uf: 'ES',
  },
  {
    sigla: 'SEMAD/FEAM',
    nome: 'Secretaria de Estado de Meio Ambiente e Desenvolvimento Sustentável / Fundação Estadual do Meio Ambiente',
    esfera: 'Estadual',
    uf: 'MG',
  },
  { sigla: 'IAT', nome: 'Instituto Água e Terra', esfera: 'Estadual', uf: 'PR' },
  {
    sigla: 'FEPAM',
    nome: 'Fundação Estadual de Proteção Ambiental Henrique Luiz Roessler',
    esfera: 'Estadual',
    uf: 'RS',
  },
  {
    sigla: 'IMA-SC',
    nome: 'Instituto do Meio Ambiente de Santa Catarina',
    esfera: 'Estadual',
    uf: 'SC',
  },
  {
    sigla: 'SEMMAM Vitória',
    nome: 'Secretaria Municipal de Meio Ambiente de Vitória',
    esfera: 'Municipal',
    uf: 'ES',
  },
]

export const RENOVAR_120 =
  'A renovação deve ser requerida com antecedência mínima de 120 dias do vencimento (LC 140/2011, art. 14, § 4º).'

/** [tipo, categoria, validade em dias, mensagem de aviso] */
export const TIPOS_SERVICOS: [string, string, number, string | null][] = [
  ['Licença Prévia (LP)', 'Licenciamento Ambiental', 1825, null],
  ['Licença de Instalação (LI)', 'Licenciamento Ambiental', 2190, null],
  // Lei 15.190/2025 (in force since February 2026): operating licences for 5 to 10 years.
  ['Licença de Operação (LO)', 'Licenciamento Ambiental', 3650, RENOVAR_120],
  ['Renovação de Licença de Operação (RLO)', 'Licenciamento Ambiental', 3650, RENOVAR_120],
  ['Licença Ambiental Simplificada (LAS)', 'Licenciamento Ambiental', 1460, RENOVAR_120],
  // The licence types Lei 15.190/2025 added.
  ['Licença Ambiental Única (LAU)', 'Licenciamento Ambiental', 3650, RENOVAR_120],
  ['Licença por Adesão e Compromisso (LAC)', 'Licenciamento Ambiental', 1825, RENOVAR_120],
  ['Licença de Operação Corretiva (LOC)', 'Licenciamento Ambiental', 1825, RENOVAR_120],
  ['Licença Ambiental Especial (LAE)', 'Licenciamento Ambiental', 3650, RENOVAR_120],
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

export const TIPOS_DOCUMENTOS = [
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
  'Certidão negativa de débitos ambientais',
]

/**
 * "Validade do documento (dias)" of the document types that expire (the others, the ART among
 * them, never do): an approved file older than that is not reused by a renewal and goes back to
 * 'Pendente' while its service is open.
 */
export const VALIDADE_DOCUMENTOS: Record<string, number> = {
  'Certidão negativa de débitos ambientais': 180,
  'Certidão de uso e ocupação do solo': 180,
  'Comprovante de endereço': 90,
  'Laudo de análise de água': 180,
}

const BASICOS = [
  'Contrato Social ou Estatuto',
  'Cartão CNPJ',
  'Documento de identidade do responsável legal',
]

/** Required documents per service type (document rules). */
export const REGRAS: Record<string, string[]> = {
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
    'Certidão negativa de débitos ambientais',
    'Licença anterior',
    'Relatório de cumprimento de condicionantes',
    'Comprovante de pagamento de taxa',
  ],
  'Renovação de Licença de Operação (RLO)': [
    ...BASICOS,
    'Certidão negativa de débitos ambientais',
    'Licença anterior',
    'Relatório de cumprimento de condicionantes',
    'Comprovante de pagamento de taxa',
  ],
  'Licença Ambiental Simplificada (LAS)': [
    ...BASICOS,
    'Certidão de uso e ocupação do solo',
    'Comprovante de pagamento de taxa',
  ],
  'Licença Ambiental Única (LAU)': [
    ...BASICOS,
    'Certidão de uso e ocupação do solo',
    'Certidão negativa de débitos ambientais',
    'Memorial descritivo do empreendimento',
    'Anotação de Responsabilidade Técnica (ART)',
    'Comprovante de pagamento de taxa',
  ],
  'Licença por Adesão e Compromisso (LAC)': [
    ...BASICOS,
    'Certidão negativa de débitos ambientais',
    'Anotação de Responsabilidade Técnica (ART)',
  ],
  'Licença de Operação Corretiva (LOC)': [
    ...BASICOS,
    'Certidão negativa de débitos ambientais',
    'Relatório de cumprimento de condicionantes',
    'Anotação de Responsabilidade Técnica (ART)',
    'Comprovante de pagamento de taxa',
  ],
  'Licença Ambiental Especial (LAE)': [
    ...BASICOS,
    'Certidão negativa de débitos ambientais',
    'Planta de localização do empreendimento',
    'Memorial descritivo do empreendimento',
    'Anotação de Responsabilidade Técnica (ART)',
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

export const SCHEDULES = [
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
export const CLIENTES: DemoCliente[] = [
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
