// Names, accounts and fixed ids shared by tests/e2e/seed/processo.ts and processo.spec.ts.
// No server imports: the spec loads it.
export const PROC_PROJECTS = ['desktop', 'phone'] as const
export type ProcProject = (typeof PROC_PROJECTS)[number]

const id = (project: ProcProject, n: number) =>
  `e3100000-0000-4000-8000-00000000000${n + (project === 'desktop' ? 0 : 5)}`

export const PROC = (project: ProcProject) => ({
  account: { email: `processo-${project}@portal.test`, password: 'processo-e2e-123' },
  cliente: `Indústria Processo ${project}`,
  clienteId: id(project, 1),
  /** An operating licence: 3 months of analysis at most (Lei 15.190/2025, art. 47). */
  tipoServico: `Licença de Operação (LO) Processo ${project}`,
  tipoServicoId: id(project, 2),
  orgao: { id: id(project, 3), sigla: `IEMA-${project}`, nome: `Instituto Estadual ${project}` },
})
