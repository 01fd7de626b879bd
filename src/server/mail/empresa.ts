import type { DbOrTx } from '../db/client.ts'
import { empresa } from '../db/schema.ts'
import type { Empresa } from '#shared/schemas/empresa.ts'

/** Before an administrator fills in "Dados da empresa", e-mails are signed with the portal's name. */
export const EMPRESA_PADRAO: Empresa = {
  nome: 'Portal do Cliente',
  email: null,
  telefone: null,
  endereco: null,
  encarregado_nome: null,
  encarregado_email: null,
}

/** "Dados da empresa": the one row, or the default before it is saved. */
export async function getEmpresa(db: DbOrTx): Promise<Empresa> {
  const [row] = await db
    .select({
      nome: empresa.nome,
      email: empresa.email,
      telefone: empresa.telefone,
      endereco: empresa.endereco,
      encarregado_nome: empresa.encarregado_nome,
      encarregado_email: empresa.encarregado_email,
    })
    .from(empresa)
  return row ?? EMPRESA_PADRAO
}

/** What every e-mail carries besides its content: the firm and the portal's address. */
export type Marca = { empresa: Empresa; appUrl: string }

export const getMarca = async (db: DbOrTx, appUrl: string): Promise<Marca> => ({
  empresa: await getEmpresa(db),
  appUrl,
})
