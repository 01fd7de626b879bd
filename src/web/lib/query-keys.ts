/**
 * Every TanStack Query key of the app: one factory per feature (ARCHITECTURE.md "Web data").
 * A feature builds its own keys here, and a mutation that changes another feature's data
 * invalidates through that feature's factory, so every dependency between caches shows as an
 * import. Each factory's `all` is the prefix of all its keys.
 */
export const contaKeys = {
  all: ['conta'] as const,
  me: () => [...contaKeys.all, 'me'] as const,
  /** The signed-in account's open sessions (Meus Dados). */
  sessoes: () => [...contaKeys.all, 'sessoes'] as const,
  /** "Dados da empresa" (admin profile). */
  empresa: () => [...contaKeys.all, 'empresa'] as const,
}

export const clientesKeys = {
  all: ['clientes'] as const,
  lists: () => [...clientesKeys.all, 'list'] as const,
  list: (params: { q: string; page: number }) => [...clientesKeys.lists(), params] as const,
  detail: (id: string) => [...clientesKeys.all, 'detail', id] as const,
  /** The signed-in client's own record (Meus Dados, and the check before the wizard). */
  meusDados: () => [...clientesKeys.all, 'meus-dados'] as const,
}

export const servicosKeys = {
  all: ['servicos'] as const,
  lists: () => [...servicosKeys.all, 'list'] as const,
  list: (filtro: object) => [...servicosKeys.lists(), filtro] as const,
  filtros: () => [...servicosKeys.all, 'filtros'] as const,
  detail: (id: string) => [...servicosKeys.all, 'detail', id] as const,
  envios: (id: string) => [...servicosKeys.all, 'envios', id] as const,
  /** The preview of "Enviar Email": the saved template as it will go. */
  emailPrevia: (id: string) => [...servicosKeys.all, 'email-previa', id] as const,
  /** The client's own services (Meus Serviços). */
  meus: () => [...servicosKeys.all, 'meus'] as const,
  /** The summary on top of the client home. */
  resumo: () => [...servicosKeys.meus(), 'resumo'] as const,
  /** The wizard's catalogue: categories, then the active types of one. */
  catalogo: () => [...servicosKeys.all, 'catalogo'] as const,
  catalogoTipos: (categoriaId: string) => [...servicosKeys.catalogo(), categoriaId] as const,
}

export const documentosKeys = {
  all: ['documentos'] as const,
  /** The client's documents screen of one service. */
  servico: (servicoId: string) => [...documentosKeys.all, 'servico', servicoId] as const,
  /** Every document of a service, as the administration sees them. */
  admin: (servicoId: string) => [...documentosKeys.all, 'admin', servicoId] as const,
  /** Every version of one document ("Histórico"). */
  versoes: (documentoId: string) => [...documentosKeys.all, 'versoes', documentoId] as const,
  /** The review queue and its count (the menu's badge). */
  fila: () => [...documentosKeys.all, 'fila'] as const,
  filaPage: (params: { page: number }) => [...documentosKeys.fila(), params] as const,
  contagem: () => [...documentosKeys.fila(), 'contagem'] as const,
  /** The analysts' document search (under the dashboard's search). */
  busca: (params: { q: string; page: number }) => [...documentosKeys.all, 'busca', params] as const,
}

export const avisosKeys = {
  all: ['avisos'] as const,
  servico: (servicoId: string) => [...avisosKeys.all, 'servico', servicoId] as const,
  /** The signed-in client's visible avisos. */
  meus: () => [...avisosKeys.all, 'meus'] as const,
  /** The automatic warnings job: its hour and last run. */
  automaticos: () => [...avisosKeys.all, 'automaticos'] as const,
}

/** The "Renovação" card of a service: the client's and the service detail's. */
export const renovacoesKeys = {
  all: ['renovacoes'] as const,
  servico: (servicoId: string) => [...renovacoesKeys.all, 'servico', servicoId] as const,
  admin: (servicoId: string) => [...renovacoesKeys.all, 'admin', servicoId] as const,
}

/** The condicionantes of a service (its card, the client's service) and the list across clients. */
export const condicionantesKeys = {
  all: ['condicionantes'] as const,
  servico: (servicoId: string) => [...condicionantesKeys.all, 'servico', servicoId] as const,
  admin: (servicoId: string) => [...condicionantesKeys.all, 'admin', servicoId] as const,
  lists: () => [...condicionantesKeys.all, 'list'] as const,
  list: (filtro: object) => [...condicionantesKeys.lists(), filtro] as const,
  contagem: () => [...condicionantesKeys.all, 'contagem'] as const,
}

/** "Processo no órgão" of a service: the client's card and the service detail's. */
export const processosKeys = {
  all: ['processos'] as const,
  servico: (servicoId: string) => [...processosKeys.all, 'servico', servicoId] as const,
  admin: (servicoId: string) => [...processosKeys.all, 'admin', servicoId] as const,
}

/** "Calendário de prazos": the events of one period with its filters. */
export const calendarioKeys = {
  all: ['calendario'] as const,
  periodo: (params: Record<string, string>) => [...calendarioKeys.all, params] as const,
  /** Whether the account has a link to subscribe to. */
  assinatura: () => [...calendarioKeys.all, 'assinatura'] as const,
}

/** The signed-in account's notifications (the bell) and its e-mail choices. */
/** "Mensagens": the conversation of a service (both sides). */
export const mensagensKeys = {
  all: ['mensagens'] as const,
  servico: (servicoId: string) => [...mensagensKeys.all, 'servico', servicoId] as const,
  /** The unread counts of a list's services (its page). */
  naoLidas: (servicoIds: string[]) => [...mensagensKeys.all, 'nao-lidas', servicoIds] as const,
}

export const notificacoesKeys = {
  all: ['notificacoes'] as const,
  contagem: () => [...notificacoesKeys.all, 'contagem'] as const,
  lista: () => [...notificacoesKeys.all, 'lista'] as const,
  preferencias: () => [...notificacoesKeys.all, 'preferencias'] as const,
}

export type Catalogo =
  | 'categorias'
  | 'status'
  | 'tipos-servicos'
  | 'tipos-documentos'
  | 'regras-documentos'
  | 'schedules'
  | 'orgaos'

export const cadastrosKeys = {
  all: ['cadastros'] as const,
  catalogo: (resource: Catalogo) => [...cadastrosKeys.all, resource] as const,
  list: (resource: Catalogo, params: { q: string; page: number }) =>
    [...cadastrosKeys.catalogo(resource), 'list', params] as const,
  /** Every row ordered by name: the options of the selects. */
  options: (resource: Catalogo) => [...cadastrosKeys.catalogo(resource), 'options'] as const,
}

/** The client's erasure requests, the administrators' list and the retention. */
export const privacidadeKeys = {
  all: ['privacidade'] as const,
  minhas: () => [...privacidadeKeys.all, 'minhas'] as const,
  solicitacoes: () => [...privacidadeKeys.all, 'solicitacoes'] as const,
  solicitacoesPage: (params: { page: number; estado: string }) =>
    [...privacidadeKeys.solicitacoes(), params] as const,
  retencao: () => [...privacidadeKeys.all, 'retencao'] as const,
}

/** The audit trail (the Auditoria screen, a service's Histórico, the client's timeline). */
export const auditoriaKeys = {
  all: ['auditoria'] as const,
  lists: () => [...auditoriaKeys.all, 'list'] as const,
  list: (filtro: object) => [...auditoriaKeys.lists(), filtro] as const,
  historico: (servicoId: string) => [...auditoriaKeys.all, 'historico', servicoId] as const,
  historicoCliente: (servicoId: string) =>
    [...auditoriaKeys.all, 'historico-cliente', servicoId] as const,
}
