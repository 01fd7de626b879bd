import { describe, expect, it } from 'vitest'
import { sanitizeFileName } from '../arquivos.ts'
import { arquivoDaChave, clientDocumentKey } from './documentos.ts'
import { badgeExigido, badgeExtra } from '../badges-documentos.ts'

describe('client document key (SPEC §3)', () => {
  const ids = {
    userId: 'u1',
    servicoId: 's1',
    tipoDocumentoId: 't1',
    timestamp: 1767261600000,
    id: '0a1b2c3d4e5f6789',
  }

  it.each([
    ['Contrato Social.pdf', 'pdf', 'u1/s1/t1/1767261600000.0a1b2c3d4e5f6789-Contrato_Social.pdf'],
    ['Licença (cópia).PDF', 'pdf', 'u1/s1/t1/1767261600000.0a1b2c3d4e5f6789-Licenca__copia_.PDF'],
    ['../../etc/passwd', 'pdf', 'u1/s1/t1/1767261600000.0a1b2c3d4e5f6789-passwd.pdf'],
    ['..\\..\\segredo.png', 'png', 'u1/s1/t1/1767261600000.0a1b2c3d4e5f6789-segredo.png'],
    ['...oculto.jpg', 'jpg', 'u1/s1/t1/1767261600000.0a1b2c3d4e5f6789-oculto.jpg'],
    ['foto.jpeg', 'jpg', 'u1/s1/t1/1767261600000.0a1b2c3d4e5f6789-foto.jpeg'],
    ['relatorio.pdf', 'png', 'u1/s1/t1/1767261600000.0a1b2c3d4e5f6789-relatorio.pdf.png'],
    ['', 'pdf', 'u1/s1/t1/1767261600000.0a1b2c3d4e5f6789-arquivo.pdf'],
  ])('%s → %s', (name, ext, key) => {
    const k = clientDocumentKey({ ...ids, safeName: sanitizeFileName(name, ext) })
    expect(k).toBe(key)
    expect(k.split('/')).toHaveLength(4)
    expect(k).not.toMatch(/\.\.\/|\/\.\./)
  })

  it('the file name shown drops the timestamp', () => {
    expect(arquivoDaChave('u1/s1/t1/1767261600000.0a1b2c3d4e5f6789-Contrato_Social.pdf')).toBe(
      'Contrato_Social.pdf',
    )
    expect(arquivoDaChave('s1/2-parecer.pdf')).toBe('parecer.pdf')
  })
})

describe('badges (SPEC §4)', () => {
  it.each([
    [null, 'Pendente', true],
    [{ estado: null }, 'Em análise', false],
    [{ estado: 'enviado' }, 'Em análise', false],
    [{ estado: 'aprovado' }, 'Aprovado', false],
    [{ estado: 'rejeitado' }, 'Rejeitado', true],
    [{ estado: 'substituido' }, 'Substituído', false],
  ] as const)('required (its review) %j → %s', (doc, label, destructive) => {
    expect(badgeExigido(doc)).toEqual({ label, destructive })
  })

  it.each([
    [{ status: null }, 'Disponível'],
    [{ status: 'Aprovado' }, 'Aprovado'],
    [{ status: 'rejeitado' }, 'Rejeitado'],
    [{ status: 'Outro' }, 'Disponível'],
  ])('administration %j → %s', (doc, label) => {
    expect(badgeExtra(doc).label).toBe(label)
  })
})
