import { createConfirmedAccount } from '../../../src/server/auth/auth.ts'
import { createCliente, createTipoServico } from '../../factories.ts'
import { cpf } from '../cliente-area.ts'
import { COND, COND_PROJECTS } from '../condicionantes.ts'
import type { SeedContext } from './context.ts'

/**
 * Per project, a client with an account and a Licença de Operação type; the spec creates the
 * licence and its condicionantes itself (so every repetition starts empty).
 */
export async function seedCondicionantes({ db, auth }: SeedContext) {
  for (const project of COND_PROJECTS) {
    const c = COND(project)
    const user = await createConfirmedAccount(auth, c.account.email, c.account.password)
    await createCliente(db, {
      id: c.clienteId,
      user_id: user.id,
      nome: c.cliente,
      documento: cpf(),
      email: c.account.email,
    })
    await createTipoServico(db, { id: c.tipoServicoId, tipo: c.tipoServico, validade: 4 * 365 })
  }
}
