/** SPEC §9: upload limit 5 MB. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024

/** SPEC §9: client uploads accept PDF, JPG and PNG. */
export const CLIENT_UPLOAD_MIME = ['application/pdf', 'image/jpeg', 'image/png', 'image/jpg']
export const CLIENT_UPLOAD_EXTENSIONS = ['pdf', 'jpg', 'png'] as const
export const CLIENT_UPLOAD_ACCEPT = '.pdf,.jpg,.jpeg,.png'

/** SPEC §9: admin uploads accept pdf, doc, docx, jpg, jpeg, png. */
export const ADMIN_UPLOAD_EXTENSIONS = ['pdf', 'doc', 'docx', 'jpg', 'png'] as const
export const ADMIN_UPLOAD_ACCEPT = '.pdf,.doc,.docx,.jpg,.jpeg,.png'

/**
 * The browser's check of an administration upload before sending it (the server checks again,
 * by the file's first bytes): its title and message when refused, else null.
 */
export function recusaUploadAdmin(file: { name: string; size: number }) {
  if (file.size > MAX_UPLOAD_BYTES)
    return { title: 'Arquivo muito grande', message: 'O arquivo deve ter no máximo 5MB.' }
  if (!/\.(pdf|doc|docx|jpg|jpeg|png)$/i.test(file.name))
    return {
      title: 'Tipo de arquivo inválido',
      message: 'Apenas arquivos PDF, DOC, DOCX, JPG e PNG são permitidos.',
    }
  return null
}

/**
 * The browser's check of a client's upload before sending it (the server checks again, by the
 * file's first bytes): its title and message when refused, else null.
 */
export function recusaUploadCliente(file: { size: number; type: string }) {
  if (file.size > MAX_UPLOAD_BYTES)
    return { title: 'Arquivo muito grande', message: 'O arquivo deve ter no máximo 5MB.' }
  if (!CLIENT_UPLOAD_MIME.includes(file.type))
    return {
      title: 'Tipo de arquivo inválido',
      message: 'Apenas arquivos PDF, JPG e PNG são permitidos.',
    }
  return null
}

/**
 * SPEC §3: characters other than letters, digits, dot and hyphen become underscores.
 * Accents are folded first so 'Licença.pdf' reads 'Licenca.pdf'. The extension found by the
 * file's content replaces a missing or misleading one.
 */
export function sanitizeFileName(name: string, ext?: string): string {
  const base = name.split(/[\\/]/).pop() ?? ''
  let safe = base
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-zA-Z0-9.-]/g, '_')
    .replace(/^\.+/, '')
    .slice(-120)
  if (!safe) safe = 'arquivo'
  if (ext) {
    const current = safe.includes('.') ? safe.split('.').pop()!.toLowerCase() : ''
    const same = current === ext || (ext === 'jpg' && current === 'jpeg')
    if (!same) safe = `${safe}.${ext}`
  }
  return safe
}

/** The extension of a stored path, without the dot ('' when none). */
export function extensionOf(filePath: string): string {
  const last = filePath.split('/').pop() ?? ''
  const i = last.lastIndexOf('.')
  return i > 0 ? last.slice(i + 1).toLowerCase() : ''
}

/** SPEC §7: download name = type name plus the extension of the stored path. */
export function downloadName(tipo: string, caminho: string): string {
  const ext = extensionOf(caminho)
  return ext ? `${tipo}.${ext}` : tipo
}

/**
 * A file's name inside the zip of a service's documents: the download name cleaned like an
 * uploaded file's (`sanitizeFileName`): a type named '../../x' is never a path out of the zip.
 */
export function zipEntryName(tipo: string, caminho: string): string {
  return sanitizeFileName(downloadName(tipo.replace(/[\\/]/g, '_'), caminho))
}

/** SPEC §9: zip name sanitised to letters, digits, dot, underscore, hyphen. */
export function zipFileName(tipoServico: string, protocolo: string | null | undefined): string {
  return `${tipoServico}_${protocolo ?? ''}_documentos.zip`
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-zA-Z0-9._-]/g, '_')
}

/** Bytes as the screens show them: '0 KB', '240 KB', '1,5 MB' (versions, storage). */
export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '-'
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1).replace('.', ',')} MB`
}
