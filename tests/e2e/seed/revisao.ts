import { Readable } from 'node:stream'
import { createConfirmedAccount } from '../../../src/server/auth/auth.ts'
import {
  createCliente,
  createDocumento,
  createRegra,
  createServico,
  createTipoDocumento,
  createTipoServico,
} from '../../factories.ts'
import { cpf } from '../cliente-area.ts'
import { REV, REV_PROJECTS } from '../revisao.ts'
import type { SeedContext } from './context.ts'

/** Per project, a client whose one required document waits for review. */
export async function seedRevisao({ db, auth, storage }: SeedContext) {
  for (const [i, project] of REV_PROJECTS.entries()) {
    const r = REV(project)
    const user = await createConfirmedAccount(auth, r.account.email, r.account.password)
    const cliente = await createCliente(db, {
      user_id: user.id,
      nome: r.cliente,
      documento: cpf(),
      email: r.account.email,
    })
    const tipoServico = await createTipoServico(db, { tipo: r.tipoServico })
    const tipo = await createTipoDocumento(db, { tipo: r.tipoDocumento })
    await createRegra(db, tipoServico.id, tipo.id)
    await createServico(db, {
      id: r.servicoId,
      cliente_id: cliente.id,
      tipo_servico_id: tipoServico.id,
      protocolo: r.protocolo,
    })
    const caminho = `${user.id}/${r.servicoId}/${tipo.id}/1735700000000-alvara.pdf`
    await storage.put(caminho, Readable.from(r.primeira), r.primeira.length)
    await createDocumento(db, {
      servico_id: r.servicoId,
      tipo_documento_id: tipo.id,
      caminho_arquivo: caminho,
      tamanho: r.primeira.length,
      estado: 'enviado',
      data_envio: new Date(Date.UTC(2025, 0, 1 + i, 12)),
    })
  }
}
