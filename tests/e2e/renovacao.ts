// Names, accounts and fixed ids shared by tests/e2e/seed/renovacao.ts and renovacao.spec.ts.
// No server imports: the spec loads it.
export const RENOV_PROJECTS = ['desktop', 'phone'] as const
export type RenovProject = (typeof RENOV_PROJECTS)[number]

const id = (project: RenovProject, n: number) =>
  `e1500000-0000-4000-8000-00000000000${n + (project === 'desktop' ? 0 : 5)}`

export const RENOV = (project: RenovProject) => ({
  account: { email: `renovacao-${project}@portal.test`, password: 'renovacao-e2e-123' },
  cliente: `Indústria Renovação ${project}`,
  clienteId: id(project, 1),
  /** A Licença de Operação: renewal 120 days before the end. */
  tipoServico: `Licença de Operação Renovação ${project}`,
  tipoServicoId: id(project, 2),
  /** A licence whose deadline passed 20 days ago without a protocol. */
  atrasadaId: id(project, 3),
  /** The documents the type requires: two the client has approved, one it never sent. */
  documentos: {
    cnpj: { id: id(project, 4), tipo: `Cartão CNPJ Renovação ${project}` },
    certidao: {
      id: `e1500000-0000-4000-8000-0000000001${project === 'desktop' ? '10' : '20'}`,
      tipo: `Certidão Negativa Renovação ${project}`,
      validade_dias: 180,
    },
    art: {
      id: `e1500000-0000-4000-8000-0000000001${project === 'desktop' ? '11' : '21'}`,
      tipo: `ART Renovação ${project}`,
    },
  },
})
