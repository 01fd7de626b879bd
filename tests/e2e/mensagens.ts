// Names, accounts and fixed ids shared by tests/e2e/seed/mensagens.ts and mensagens.spec.ts.
// No server imports: the spec loads it.
export const MSG_PROJECTS = ['desktop', 'phone'] as const
export type MsgProject = (typeof MSG_PROJECTS)[number]

const id = (project: MsgProject, n: number) =>
  `e3400000-0000-4000-8000-00000000000${n + (project === 'desktop' ? 0 : 5)}`

export const MSG = (project: MsgProject) => ({
  account: { email: `mensagens-${project}@portal.test`, password: 'mensagens-e2e-123' },
  cliente: `Cerâmica Mensagens ${project}`,
  clienteId: id(project, 1),
  tipoServico: `Outorga de Uso da Água Mensagens ${project}`,
  tipoServicoId: id(project, 2),
})
