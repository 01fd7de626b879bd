import {
  createCategoria,
  createCliente,
  createServico,
  createTipoServico,
  getStatus,
} from '../../factories.ts'
import { addDays, today } from '../../../src/shared/datas.ts'
import type { SeedContext } from './context.ts'

/**
 * Per Playwright project, a service whose end date is exactly AVISOS_E2E.dias days away: the spec
 * creates a schedule of that many days and runs the job with 'Executar agora'. A schedule is a
 * window: it warns every service with that many days left or fewer whose validity is
 * longer than it. These validities (dias + 9) are longer than their own schedule only, and the
 * day counts are above every other fixture's validity, so each schedule touches its own service
 * only, whichever project runs first.
 */
export const AVISOS_E2E = {
  dias: { desktop: 911, phone: 1500 },
  ids: {
    desktop: '8e2e0000-0000-4000-8000-0000000000a1',
    phone: '8e2e0000-0000-4000-8000-0000000000a2',
  },
  protocolo: { desktop: 'AUTO-E2E-D', phone: 'AUTO-E2E-P' },
  email: (project: string) => `automatico-${project}@portal.test`,
}

export async function seedAvisosAutomaticos({ db }: SeedContext) {
  const categoria = await createCategoria(db, { nome: 'Avisos Automáticos E2E' })
  const tipo = await createTipoServico(db, {
    tipo: 'Licença Prévia Automática',
    categoria_id: categoria.id,
  })
  const emAndamento = await getStatus(db, 'Em andamento')
  for (const project of ['desktop', 'phone'] as const) {
    const cliente = await createCliente(db, {
      nome: `Mineradora Serra Azul ${project === 'desktop' ? 'D' : 'P'}`,
      email: AVISOS_E2E.email(project),
    })
    await createServico(db, {
      id: AVISOS_E2E.ids[project],
      cliente_id: cliente.id,
      tipo_servico_id: tipo.id,
      protocolo: AVISOS_E2E.protocolo[project],
      status_id: emAndamento.id,
      vigencia_inicio: addDays(today(), -9),
      vigencia_fim: addDays(today(), AVISOS_E2E.dias[project]),
    })
  }
}
