import { describe, expect, it } from 'vitest'
import { zipEntryName } from './arquivos.ts'

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
