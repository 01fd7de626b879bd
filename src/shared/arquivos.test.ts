import { describe, expect, it } from 'vitest'
import { recusaUploadAdmin, zipEntryName } from './arquivos.ts'

describe('zipEntryName', () => {
  it('cleans a type name like an uploaded file name: never a path out of the zip', () => {
    expect(zipEntryName('../../x', 'a/b.pdf')).toBe('_.._x.pdf')
    expect(zipEntryName('/etc/passwd', 'x.pdf')).toBe('_etc_passwd.pdf')
    expect(zipEntryName('..\\..\\win', 'x.png')).toBe('_.._win.png')
    expect(zipEntryName('Licença Prévia', 'x.pdf')).toBe('Licenca_Previa.pdf')
    for (const tipo of ['../../x', '..', '/', '\\', 'a/../../b'])
      expect(zipEntryName(tipo, 'x.pdf')).not.toMatch(/^\.|[\\/]/)
  })
})

describe('recusaUploadAdmin', () => {
  it('accepts the administration formats up to 5 MB, in any case', () => {
    expect(recusaUploadAdmin({ name: 'protocolo.PDF', size: 5 * 1024 * 1024 })).toBeNull()
    expect(recusaUploadAdmin({ name: 'oficio.docx', size: 10 })).toBeNull()
  })
  it('refuses a larger file or another format, saying why', () => {
    expect(recusaUploadAdmin({ name: 'a.pdf', size: 5 * 1024 * 1024 + 1 })?.message).toBe(
      'O arquivo deve ter no máximo 5MB.',
    )
    expect(recusaUploadAdmin({ name: 'a.exe', size: 10 })?.message).toBe(
      'Apenas arquivos PDF, DOC, DOCX, JPG e PNG são permitidos.',
    )
  })
})
