/** Every URL of the web app, spelled once (SPEC §2 route table). */
export const paths = {
  landing: '/',
  auth: '/auth',
  redefinirSenha: '/auth/redefinir-senha',
  /** The administrator's mandatory enrolment in the second factor. */
  ativarDoisFatores: '/auth/verificacao-em-duas-etapas',
  app: '/app',
  usuario: {
    dashboard: '/app/usuario/dashboard',
    solicitarServico: '/app/solicitar-servico',
    meusDados: '/app/meus-dados',
    meusPrazos: '/app/meus-prazos',
    documentos: (servicoId: string) => `/app/servico/${servicoId}/documentos`,
  },
  admin: {
    servicos: '/app/admin/servicos',
    servico: (servicoId: string) => `/app/admin/servico/${servicoId}`,
    documentos: '/app/admin/documentos',
    condicionantes: '/app/admin/condicionantes',
    clientes: '/app/admin/cadastros/clientes',
    categorias: '/app/admin/cadastros/categorias',
    status: '/app/admin/cadastros/status',
    tiposServicos: '/app/admin/cadastros/tipos-servicos',
    tiposDocumentos: '/app/admin/cadastros/tipos-documentos',
    schedules: '/app/admin/cadastros/schedules',
    orgaos: '/app/admin/cadastros/orgaos',
    regrasDocumentos: '/app/admin/regras-documentos',
    meusDados: '/app/admin/meus-dados',
    auditoria: '/app/admin/auditoria',
    calendario: '/app/admin/calendario',
  },
} as const
