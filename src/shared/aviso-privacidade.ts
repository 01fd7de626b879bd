/**
 * The version of the privacy notice and terms (/privacidade, /termos). Change it when their text
 * changes: every client who accepted an older version is asked again after the next sign-in.
 */
export const VERSAO_AVISO = '2026-11-24'

export const ACEITE_TEXTO = 'Li e aceito a Política de Privacidade e os Termos de Uso'
