import { createConfirmedAccount } from '../../../src/server/auth/auth.ts'
import {
  createCategoria,
  createCliente,
  createRegra,
  createServico,
  createStatus,
  createTipoDocumento,
  createTipoServico,
} from '../../factories.ts'
import { BO } from '../back-office.ts'
import type { SeedContext } from './context.ts'

const n2 = (i: number) => String(i + 1).padStart(2, '0')

/** Fixtures of the back office (clients, catalogues, rules, schedules) end-to-end tests. */
export async function seedBackOffice({ db, auth }: SeedContext) {
  for (let i = 0; i < 12; i++)
    await createTipoServico(db, { tipo: `${BO.tipoPaginacao} ${n2(i)}`, validade: 365 + i })
  for (let i = 0; i < 12; i++)
    await createTipoDocumento(db, { tipo: `${BO.docPaginacao} ${n2(i)}` })

  const regraServico = await createTipoServico(db, { tipo: BO.regraServico, validade: 730 })
  for (let i = 0; i < 12; i++) {
    const doc = await createTipoDocumento(db, { tipo: `BO Documento Exigido ${n2(i)}` })
    await createRegra(db, regraServico.id, doc.id)
  }

  const categoria = await createCategoria(db, {
    nome: BO.categoriaEmUso,
    descricao: 'Tem tipos de serviço vinculados.',
  })
  const tipoEmUso = await createTipoServico(db, {
    tipo: BO.tipoEmUso,
    categoria_id: categoria.id,
    validade: 365,
  })
  const statusEmUso = await createStatus(db, { nome: BO.statusEmUso })
  const dono = await createCliente(db, { nome: 'BO Cliente Com Serviço' })
  await createServico(db, {
    cliente_id: dono.id,
    tipo_servico_id: tipoEmUso.id,
    status_id: statusEmUso.id,
  })

  await createTipoServico(db, {
    tipo: BO.tipoServicoDialogo,
    categoria_id: categoria.id,
    validade: BO.tipoServicoValidade,
  })

  const base = Date.now() - 60 * 60 * 1000
  for (let i = 0; i < 12; i++)
    await createCliente(db, {
      nome: `${BO.clientePaginacao} ${n2(i)}`,
      created_at: new Date(base + i * 1000),
    })
  await createCliente(db, { nome: BO.clienteSemConta })

  for (const project of ['desktop', 'phone'])
    await createConfirmedAccount(auth, BO.contaExistente(project), 'conta-e2e-123')
}
