export interface ContactForm {
  nome: string
  email: string
  telefone: string
  mensagem: string
}

/** Builds the prefilled budget-request text the landing contact form sends (SPEC §2). */
export function budgetRequestText(form: ContactForm): string {
  return [
    'Olá! Gostaria de solicitar um orçamento.',
    '',
    `Nome: ${form.nome.trim()}`,
    `Email: ${form.email.trim()}`,
    `Telefone: ${form.telefone.trim()}`,
    `Mensagem: ${form.mensagem.trim()}`,
  ].join('\n')
}

/** wa.me chat link with the budget request prefilled; `phoneDigits` includes the country code. */
export function whatsappLink(form: ContactForm, phoneDigits: string): string {
  const digits = phoneDigits.replace(/\D/g, '')
  return `https://wa.me/${digits}?text=${encodeURIComponent(budgetRequestText(form))}`
}
