import { createConfirmedAccount } from '../../../src/server/auth/auth.ts'
import { createCliente, createTipoServico } from '../../factories.ts'
import { cpf } from '../cliente-area.ts'
import { MSG, MSG_PROJECTS } from '../mensagens.ts'
import type { SeedContext } from './context.ts'

/** Per project, a client with an account and a service type; the spec adds a service per run. */
export async function seedMensagens({ db, auth }: SeedContext) {
  for (const project of MSG_PROJECTS) {
    const m = MSG(project)
    const user = await createConfirmedAccount(auth, m.account.email, m.account.password)
    await createCliente(db, {
      id: m.clienteId,
      user_id: user.id,
      nome: m.cliente,
      documento: cpf(),
      email: m.account.email,
    })
    await createTipoServico(db, { id: m.tipoServicoId, tipo: m.tipoServico })
  }
}
