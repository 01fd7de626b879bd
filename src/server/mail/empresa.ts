import type { DbOrTx } from '../db/client.ts'
import { empresa } from '../db/schema.ts'
import type { Empresa } from '#shared/schemas/empresa.ts'

/** Before an administrator fills in "Dados da empresa", e-mails are signed with the portal's name. */
export const EMPRESA_PADRAO: Empresa = {
  nome: 'Portal do Cliente',
  email: null,
  telefone: null,
  whatsapp: null,
  endereco: null,
  encarregado_nome: null,
  encarregado_email: null,
}

/** "Dados da empresa": the one row, or the default before it is saved. */
/** The columns of "Dados da empresa" as the API and the e-mails read them. */
export const EMPRESA_COLUNAS = {
  nome: empresa.nome,
  email: empresa.email,
  telefone: empresa.telefone,
  whatsapp: empresa.whatsapp,
  endereco: empresa.endereco,
  encarregado_nome: empresa.encarregado_nome,
  encarregado_email: empresa.encarregado_email,
}

export async function getEmpresa(db: DbOrTx): Promise<Empresa> {
  const [row] = await db.select(EMPRESA_COLUNAS).from(empresa)
  return row ?? EMPRESA_PADRAO
}

/** What every e-mail carries besides its content: the firm and the portal's address. */
export type Marca = { empresa: Empresa; appUrl: string }

export const getMarca = async (db: DbOrTx, appUrl: string): Promise<Marca> => ({
  empresa: await getEmpresa(db),
  appUrl,
})

/**
 * The start-up warning while "Dados da empresa" lacks what clients need: a contact for
 * "Fale com a consultoria" and the e-mails' footers, and the encarregado the privacy notice must
 * name (LGPD art. 41 §1); null when nothing is missing.
 */
export function avisoEmpresaIncompleta(e: Empresa): string | null {
  const faltam = [
    !e.email && !e.telefone && !e.whatsapp && 'a contact (e-mail, phone or WhatsApp)',
    !e.encarregado_nome && "the data protection officer's name (encarregado)",
    !e.encarregado_email && !e.email && "the data protection officer's e-mail",
  ].filter(Boolean)
  return faltam.length
    ? `"Dados da empresa" lacks ${faltam.join(', ')}: clients cannot reach the firm from the portal or its e-mails, and the privacy notice names no encarregado. An administrator fills it in at /app/admin/meus-dados.`
    : null
}
