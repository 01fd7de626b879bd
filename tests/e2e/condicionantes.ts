// Names, accounts and fixed ids shared by tests/e2e/seed/condicionantes.ts and
// condicionantes.spec.ts. No server imports: the spec loads it.
export const COND_PROJECTS = ['desktop', 'phone'] as const
export type CondProject = (typeof COND_PROJECTS)[number]

const id = (project: CondProject, n: number) =>
  `e1600000-0000-4000-8000-00000000000${n + (project === 'desktop' ? 0 : 5)}`

export const COND = (project: CondProject) => ({
  account: { email: `condicionantes-${project}@portal.test`, password: 'condicionantes-e2e-123' },
  cliente: `Frigorífico Condicionantes ${project}`,
  clienteId: id(project, 1),
  tipoServico: `Licença de Operação Condicionantes ${project}`,
  tipoServicoId: id(project, 2),
})
