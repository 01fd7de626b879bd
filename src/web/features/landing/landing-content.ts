import {
  Award,
  CalendarClock,
  ClipboardList,
  Droplets,
  FileCheck,
  MapPin,
  Microscope,
  Recycle,
  ShieldCheck,
  Users,
  type LucideIcon,
} from 'lucide-react'

/**
 * Everything on the landing page that the specification does not fix (firm name, cities,
 * contacts, services, reasons, team) lives here so the firm can change it in one place. SPEC §9
 * fixes the counts: 7 cities, 5 service groups, 5 reasons.
 */

export interface ServiceGroup {
  icon: LucideIcon
  title: string
  description: string
  services: string[]
}

export interface Reason {
  icon: LucideIcon
  title: string
  text: string
}

export const firm = {
  name: 'Verde Vivo',
  fullName: 'Verde Vivo Consultoria Ambiental',
  tagline: 'Consultoria Ambiental',
  state: 'Espírito Santo',
  stateAbbr: 'ES',
  coastalCity: 'Vitória',
} as const

export const contact = {
  /** Digits only, with the 55 country code, as wa.me expects. */
  whatsappDigits: '5527998123456',
  phoneDisplay: '(27) 99812-3456',
  phoneHref: 'tel:+5527998123456',
  email: 'contato@verdevivo.com.br',
  addressLines: [
    'Av. Nossa Senhora da Penha, 1495',
    'Sala 804 – Santa Lúcia',
    'Vitória – ES, 29056-250',
  ],
  hours: 'Segunda a sexta, das 8h às 18h',
} as const

export const cities = [
  'Vitória',
  'Aracruz',
  'Linhares',
  'Colatina',
  'São Mateus',
  'Nova Venécia',
  'Conceição da Barra',
] as const

export const hero = {
  eyebrow: 'Consultoria ambiental no Espírito Santo',
  title: 'Licenciamento ambiental sem complicação, do projeto à licença.',
  subtitle:
    'Há mais de 17 anos, nossa equipe multidisciplinar conduz licenças, outorgas, estudos e relatórios ambientais para empresas e produtores rurais de Vitória e do norte do Espírito Santo, com prazos acompanhados de perto.',
  stats: [
    { value: '17+', label: 'anos de experiência' },
    { value: '7', label: 'cidades atendidas' },
    { value: '100%', label: 'comprometimento' },
  ],
} as const

export const serviceGroups: ServiceGroup[] = [
  {
    icon: FileCheck,
    title: 'Licenciamento Ambiental',
    description:
      'Da consulta prévia à renovação, cuidamos de todo o processo junto aos órgãos ambientais.',
    services: [
      'Licença Prévia, de Instalação e de Operação (LP, LI e LO)',
      'Licenciamento simplificado e por adesão',
      'Renovação e regularização de licenças',
      'Dispensa de licenciamento ambiental',
      'Acompanhamento de condicionantes',
    ],
  },
  {
    icon: Droplets,
    title: 'Outorgas e Recursos Hídricos',
    description: 'Regularização do uso da água em captações superficiais, poços e lançamentos.',
    services: [
      'Outorga de direito de uso de recursos hídricos',
      'Declaração de uso insignificante',
      'Regularização de poços tubulares',
      'Estudos de disponibilidade hídrica',
      'Monitoramento da qualidade da água',
    ],
  },
  {
    icon: ClipboardList,
    title: 'Cadastros e Relatórios',
    description: 'Cadastros obrigatórios e relatórios periódicos entregues dentro do prazo.',
    services: [
      'Cadastro Ambiental Rural (CAR)',
      'Cadastro Técnico Federal (CTF/Ibama)',
      'Relatório Anual de Atividades (RAPP)',
      'Relatórios de cumprimento de condicionantes',
    ],
  },
  {
    icon: Microscope,
    title: 'Estudos Ambientais',
    description: 'Diagnósticos técnicos sólidos para embasar decisões e aprovar projetos.',
    services: [
      'EIA/RIMA, RCA e PCA',
      'Plano de Recuperação de Áreas Degradadas (PRAD)',
      'Inventário florestal e levantamento de fauna',
      'Laudos e pareceres técnicos',
    ],
  },
  {
    icon: Recycle,
    title: 'Gestão de Resíduos',
    description: 'Planos e controles que reduzem riscos, custos e passivos ambientais.',
    services: [
      'Plano de Gerenciamento de Resíduos Sólidos (PGRS)',
      'Resíduos da construção civil (PGRCC)',
      'Manifesto de Transporte de Resíduos (MTR)',
      'Inventário e destinação de resíduos',
    ],
  },
]

export const reasons: Reason[] = [
  {
    icon: Award,
    title: 'Mais de 17 anos de experiência',
    text: 'Centenas de processos conduzidos com sucesso junto aos órgãos municipais, estaduais e federais.',
  },
  {
    icon: Users,
    title: 'Equipe multidisciplinar',
    text: 'Profissionais de diferentes áreas trabalham juntos em cada projeto, com visão técnica completa.',
  },
  {
    icon: MapPin,
    title: 'Atuação regional',
    text: 'Presença em Vitória e no norte do estado: conhecemos a realidade local e os órgãos da região.',
  },
  {
    icon: CalendarClock,
    title: 'Prazos sob controle',
    text: 'Acompanhamos a vigência de cada licença e avisamos com antecedência sobre renovações.',
  },
  {
    icon: ShieldCheck,
    title: 'Transparência e segurança',
    text: 'Portal do cliente com seus serviços e documentos, atualizados a cada etapa do processo.',
  },
]

export const team = {
  title: 'Uma equipe multidisciplinar a serviço do seu projeto',
  text: 'Reunimos especialistas que olham para o mesmo empreendimento a partir de ângulos diferentes. O resultado são estudos consistentes, processos bem instruídos e menos exigências dos órgãos ambientais.',
  roles: [
    'Biólogos',
    'Engenheiros ambientais',
    'Engenheiros florestais',
    'Engenheiros agrônomos',
    'Geógrafos',
    'Geólogos',
    'Advogados ambientais',
    'Técnicos em meio ambiente',
  ],
} as const
