import { createConfirmedAccount } from '../../../src/server/auth/auth.ts'
import { recordConsent } from '../../../src/server/auth/consentimento.ts'
import { createCliente } from '../../factories.ts'
import { ADMIN_PERFIL_PROJECTS, clienteAvisoAntigo, VERSAO_AVISO_ANTIGA } from '../accounts.ts'
import { cpf } from '../cliente-area.ts'
import type { SeedContext } from './context.ts'

/**
 * Per project, a client whose only acceptance is of an older version of the privacy
 * notice, as after the consultancy publishes a new one (`VERSAO_AVISO` is a constant of the code).
 */
export async function seedLgpd({ db, auth }: SeedContext) {
  for (const project of ADMIN_PERFIL_PROJECTS) {
    const conta = clienteAvisoAntigo(project)
    const user = await createConfirmedAccount(auth, conta.email, conta.password)
    await createCliente(db, {
      user_id: user.id,
      nome: `Cliente Aviso Antigo ${project}`,
      documento: cpf(),
      email: conta.email,
    })
    await recordConsent(db, user.id, VERSAO_AVISO_ANTIGA)
  }
}
