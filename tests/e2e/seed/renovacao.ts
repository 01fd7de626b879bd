import { createConfirmedAccount } from '../../../src/server/auth/auth.ts'
import { addDays, today } from '../../../src/shared/datas.ts'
import {
  createCliente,
  createRegra,
  createServico,
  createTipoDocumento,
  createTipoServico,
  getStatus,
} from '../../factories.ts'
import { cpf } from '../cliente-area.ts'
import { RENOV, RENOV_PROJECTS } from '../renovacao.ts'
import type { SeedContext } from './context.ts'

/**
 * Per project, a client with an account, a Licença de Operação type (renewal 120 days before the
 * end; three required documents, the certidão valid 180 days) and one licence whose deadline passed without a protocol; the spec creates the licence it
 * files on time itself (so every repetition starts unfiled).
 */
export async function seedRenovacao({ db, auth }: SeedContext) {
  for (const project of RENOV_PROJECTS) {
    const r = RENOV(project)
    const user = await createConfirmedAccount(auth, r.account.email, r.account.password)
    await createCliente(db, {
      id: r.clienteId,
      user_id: user.id,
      nome: r.cliente,
      documento: cpf(),
      email: r.account.email,
    })
    await createTipoServico(db, {
      id: r.tipoServicoId,
      tipo: r.tipoServico,
      validade: 4 * 365,
      antecedencia_renovacao: 120,
    })
    for (const d of Object.values(r.documentos)) {
      await createTipoDocumento(db, d)
      await createRegra(db, r.tipoServicoId, d.id)
    }
    const fim = addDays(today(), 100)
    await createServico(db, {
      id: r.atrasadaId,
      cliente_id: r.clienteId,
      tipo_servico_id: r.tipoServicoId,
      protocolo: `REN-ATR-${project}`,
      vigencia_inicio: addDays(fim, -4 * 365),
      vigencia_fim: fim,
      status_id: (await getStatus(db, 'Em andamento')).id,
    })
  }
}
