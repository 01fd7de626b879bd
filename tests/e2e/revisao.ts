// Names, accounts and fixed ids shared by tests/e2e/seed/revisao.ts and revisao.spec.ts.
// No server imports: the spec loads it.
export const REV_PROJECTS = ['desktop', 'phone'] as const
export type RevProject = (typeof REV_PROJECTS)[number]

export const REV = (project: RevProject) => ({
  account: { email: `revisao-${project}@portal.test`, password: 'revisao-e2e-123' },
  cliente: `Cliente Revisão ${project}`,
  tipoServico: `Licença Revisão ${project}`,
  tipoDocumento: `Alvará Revisão ${project}`,
  servicoId:
    project === 'desktop'
      ? 'e1400000-0000-4000-8000-000000000001'
      : 'e1400000-0000-4000-8000-000000000002',
  protocolo: `PROT-REV-${project}`,
  /** The first version, sent before the run (old, so it leads the queue). */
  primeira: Buffer.from(`%PDF-1.4\n% primeira versão ${project}\n%%EOF\n`),
  segunda: Buffer.from(`%PDF-1.4\n% segunda versão ${project}\n%%EOF\n`),
})
