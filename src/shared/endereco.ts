/** The address's rules and texts, without zod (the forms show them before their schemas load). */

/** SPEC §5: a CEP lookup (and a saved CEP) needs 8 digits. */
export const CEP_INVALIDO = 'Por favor, digite um CEP válido com 8 dígitos.'

export const UFS = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
] as const
