import { z } from 'zod'
import { formatTelefone } from './clientes.ts'
import { DADOS_INVALIDOS, optionalText, requiredText, texto } from './common.ts'

/**
 * "Dados da empresa": the consultancy's name and contact, edited in the admin profile
 * and printed in every e-mail the portal sends.
 */
export const EMPRESA_NOME_OBRIGATORIO = 'Preencha o nome da empresa.'
const TELEFONE_INVALIDO = 'Telefone inválido: use (00) 00000-0000.'
const WHATSAPP_INVALIDO = 'WhatsApp inválido: use um celular, (00) 00000-0000.'

/** An optional Brazilian phone as typed (mask or digits), stored as (00) 00000-0000. */
const telefoneOpcional = (mensagem: string, digitos: number[]) =>
  texto(mensagem)
    .trim()
    .max(30, mensagem)
    .nullish()
    .transform((v) => (v ? v.replace(/\D/g, '') : ''))
    .refine((v) => v === '' || digitos.includes(v.length), mensagem)
    .transform((v) => (v ? formatTelefone(v) : null))

/** The admin's "Dados da empresa" form; e-mail and phone follow the client record's rules. */
export const EmpresaFormSchema = z.object(
  {
    nome: requiredText(EMPRESA_NOME_OBRIGATORIO, 200, 'O nome deve ter no máximo 200 caracteres.'),
    email: optionalText(254, 'O email deve ter no máximo 254 caracteres.').refine(
      (v) => v === null || z.email().safeParse(v).success,
      'Informe um email válido.',
    ),
    telefone: telefoneOpcional(TELEFONE_INVALIDO, [10, 11]),
    /** A mobile number (11 digits): WhatsApp has no landlines. */
    whatsapp: telefoneOpcional(WHATSAPP_INVALIDO, [11]),
    endereco: optionalText(300, 'O endereço deve ter no máximo 300 caracteres.'),
    /** The encarregado (DPO) named on /privacidade (LGPD art. 41). */
    encarregado_nome: optionalText(200, 'O nome deve ter no máximo 200 caracteres.'),
    encarregado_email: optionalText(254, 'O email deve ter no máximo 254 caracteres.').refine(
      (v) => v === null || z.email().safeParse(v).success,
      'Informe um email válido.',
    ),
  },
  { error: DADOS_INVALIDOS },
)
export type EmpresaForm = z.input<typeof EmpresaFormSchema>
export const EmpresaSchema = z.object({
  nome: z.string(),
  email: z.string().nullable(),
  telefone: z.string().nullable(),
  whatsapp: z.string().nullable(),
  endereco: z.string().nullable(),
  encarregado_nome: z.string().nullable(),
  encarregado_email: z.string().nullable(),
})
export type Empresa = z.infer<typeof EmpresaSchema>
