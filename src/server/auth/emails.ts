import type { Marca } from '../mail/empresa.ts'
import { actionEmail } from '../mail/mailer.ts'
import { formatDateTimeIn } from '#shared/datas.ts'
import { CONVITE_VALIDADE_DIAS } from '#shared/schemas/clientes.ts'

/**
 * The account's e-mails, in one place: each answers the subject and both bodies (`actionEmail`);
 * the caller adds the recipient and sends.
 */

/** The link of "Esqueceu sua senha?": valid for one hour. */
export const emailRedefinirSenha = (marca: Marca, url: string) => ({
  subject: 'Redefinição de senha - Portal do Cliente',
  ...actionEmail(marca, {
    title: 'Redefinir sua senha',
    paragraphs: [
      'Recebemos um pedido para redefinir a senha da sua conta no Portal do Cliente.',
      'O link abaixo vale por 1 hora. Se você não fez este pedido, ignore esta mensagem: sua senha continua a mesma.',
    ],
    action: { label: 'Escolher nova senha', url },
  }),
})

/** The confirmation link of a new account (and of a sign-in before confirming): 24 hours. */
export const emailConfirmarEmail = (marca: Marca, url: string) => ({
  subject: 'Confirme seu email - Portal do Cliente',
  ...actionEmail(marca, {
    title: 'Confirme seu email',
    paragraphs: [
      'Bem-vindo ao Portal do Cliente! Para ativar sua conta, confirme seu endereço de email.',
      'O link vale por 24 horas. Se você não criou esta conta, ignore esta mensagem.',
    ],
    action: { label: 'Confirmar email', url },
  }),
})

/** "Novo acesso à sua conta": when, from where and with what a new device signed in. */
export const emailNovoAcesso = (
  marca: Marca,
  acesso: { em: Date; ip: string | null; navegador: string },
) => ({
  subject: 'Novo acesso à sua conta - Portal do Cliente',
  ...actionEmail(marca, {
    title: 'Novo acesso à sua conta',
    paragraphs: [
      'Sua conta no Portal do Cliente foi acessada de um dispositivo que não tínhamos visto antes.',
      `Data e hora: ${formatDateTimeIn(acesso.em)} (horário de Brasília)`,
      `Endereço IP: ${acesso.ip || 'desconhecido'}`,
      `Navegador: ${acesso.navegador}`,
      'Se foi você, não é preciso fazer nada. Se não reconhece este acesso, altere sua senha em Meus Dados e encerre as outras sessões.',
    ],
  }),
})

/** "Convidar por e-mail": a new client chooses their own password; the link works once. */
export const emailConvite = (marca: Marca, url: string, nome: string) => ({
  subject: `Convite para o Portal do Cliente - ${marca.empresa.nome}`,
  ...actionEmail(marca, {
    title: 'Seu acesso ao Portal do Cliente',
    paragraphs: [
      `Olá, ${nome}! ${marca.empresa.nome} criou a sua conta no Portal do Cliente, onde você acompanha seus serviços, a vigência das suas licenças e envia os documentos de cada serviço.`,
      `Para entrar, crie a sua senha pelo link abaixo. Ele vale por ${CONVITE_VALIDADE_DIAS} dias e pode ser usado uma vez; depois, peça um novo convite à consultoria.`,
    ],
    action: { label: 'Criar minha senha', url },
  }),
})
