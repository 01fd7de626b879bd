import {
  createCategoria,
  createCliente,
  createServico,
  createTipoServico,
  getStatus,
} from '../../factories.ts'
import type { SeedContext } from './context.ts'

/** One service per project whose status the Auditoria spec changes. */
export const AUDITORIA_IDS = {
  desktop: '8e2e0000-0000-4000-8000-0000000015a1',
  phone: '8e2e0000-0000-4000-8000-0000000015a2',
}

export async function seedAuditoria({ db }: SeedContext) {
  const emAndamento = await getStatus(db, 'Em andamento')
  const categoria = await createCategoria(db, { nome: 'Auditoria E2E' })
  const tipo = await createTipoServico(db, { tipo: 'Licença Auditada', categoria_id: categoria.id })
  for (const project of ['desktop', 'phone'] as const) {
    const sufixo = project === 'desktop' ? 'D' : 'P'
    const cliente = await createCliente(db, { nome: `Sítio Auditoria ${sufixo}` })
    await createServico(db, {
      id: AUDITORIA_IDS[project],
      cliente_id: cliente.id,
      tipo_servico_id: tipo.id,
      protocolo: `AUD-E2E-${sufixo}`,
      status_id: emAndamento.id,
    })
  }
}
