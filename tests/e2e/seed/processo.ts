import { createConfirmedAccount } from '../../../src/server/auth/auth.ts'
import { createCliente, createOrgao, createTipoServico } from '../../factories.ts'
import { cpf } from '../cliente-area.ts'
import { PROC, PROC_PROJECTS } from '../processo.ts'
import type { SeedContext } from './context.ts'

/**
 * Per project, a client with an account, an operating-licence type and an agency; the spec
 * creates the service it follows (so every repetition starts without a process).
 */
export async function seedProcesso({ db, auth }: SeedContext) {
  for (const project of PROC_PROJECTS) {
    const p = PROC(project)
    const user = await createConfirmedAccount(auth, p.account.email, p.account.password)
    await createCliente(db, {
      id: p.clienteId,
      user_id: user.id,
      nome: p.cliente,
      documento: cpf(),
      email: p.account.email,
    })
    await createTipoServico(db, { id: p.tipoServicoId, tipo: p.tipoServico, validade: 3650 })
    await createOrgao(db, { ...p.orgao, esfera: 'Estadual', uf: 'ES' })
  }
}
