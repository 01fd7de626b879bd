import { once } from 'node:events'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import JSZip from 'jszip'
import { describe, expect, it } from 'vitest'
import { zipStream } from './zip.ts'

/** A file of `mb` megabytes read in 64 KB chunks, counting what was pulled from it. */
function arquivo(mb: number) {
  const chunk = Buffer.alloc(64 * 1024, 'a')
  let restantes = (mb * 1024 * 1024) / chunk.length
  const s = {
    lidos: 0,
    stream: new Readable({
      read() {
        if (restantes-- <= 0) return this.push(null)
        s.lidos += chunk.length
        this.push(chunk)
      },
    }),
  }
  return s
}

describe('zipStream', () => {
  it('writes every entry, opening each file only when its turn comes', async () => {
    const abertos: string[] = []
    const out = zipStream(
      ['a.txt', 'pasta/b.txt'].map((nome) => ({
        nome,
        abrir: () => {
          abertos.push(nome)
          return Readable.from([Buffer.from(`conteúdo de ${nome}`)])
        },
      })),
    )
    // The first at once, the next only after it was read.
    expect(abertos).toEqual(['a.txt'])
    const partes: Buffer[] = []
    for await (const p of out) partes.push(p as Buffer)
    const zip = await JSZip.loadAsync(Buffer.concat(partes))
    expect(Object.keys(zip.files).sort()).toEqual(['a.txt', 'pasta/b.txt'])
    expect(await zip.file('pasta/b.txt')!.async('string')).toBe('conteúdo de pasta/b.txt')
    expect(abertos).toEqual(['a.txt', 'pasta/b.txt'])
  })

  it('an entry whose file is gone (null) is left out', async () => {
    const out = zipStream([
      { nome: 'sumiu.pdf', abrir: () => null },
      { nome: 'fica.txt', abrir: () => Readable.from(['ok']) },
    ])
    const partes: Buffer[] = []
    for await (const p of out) partes.push(p as Buffer)
    const zip = await JSZip.loadAsync(Buffer.concat(partes))
    expect(Object.keys(zip.files)).toEqual(['fica.txt'])
  })

  it('respects backpressure: an unread zip pulls little of a big file', async () => {
    const grande = arquivo(50)
    const out = zipStream([{ nome: 'grande.bin', abrir: () => grande.stream }])
    await sleep(50)
    expect(grande.lidos).toBeLessThan(1024 * 1024)
    out.destroy()
  })

  it('a reader gone mid-way: the open file is destroyed, no other is opened, nothing thrown', async () => {
    const primeiro = arquivo(20)
    let abertos = 0
    const out = zipStream([
      {
        nome: '1.bin',
        abrir: () => {
          abertos++
          return primeiro.stream
        },
      },
      {
        nome: '2.bin',
        abrir: () => {
          abertos++
          return arquivo(20).stream
        },
      },
    ])
    await once(out, 'readable')
    out.read()
    out.destroy()
    await sleep(20)
    expect(primeiro.stream.destroyed).toBe(true)
    expect(abertos).toBe(1)
    expect(primeiro.lidos).toBeLessThan(2 * 1024 * 1024)
  })

  it('a file that cannot be opened, or fails mid-way, ends the zip with that error', async () => {
    const falha = zipStream([
      { nome: 'a.txt', abrir: () => Readable.from(['a']) },
      {
        nome: 'b.txt',
        abrir: () => Promise.reject(new Error('sumiu')),
      },
    ])
    falha.resume()
    const [err] = await once(falha, 'error')
    expect((err as Error).message).toBe('sumiu')

    const quebrado = new Readable({ read() {} })
    const meio = zipStream([{ nome: 'c.bin', abrir: () => quebrado }])
    meio.resume()
    quebrado.push(Buffer.alloc(1000))
    setImmediate(() => quebrado.destroy(new Error('conexão caiu')))
    const [err2] = await once(meio, 'error')
    expect((err2 as Error).message).toBe('conexão caiu')
  })
})
