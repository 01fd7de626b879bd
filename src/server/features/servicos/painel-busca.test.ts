import { describe, expect, it } from 'vitest'
import { totaisDeBusca, type Contagem } from './painel-busca.ts'
import { TotaisDeBusca } from '../../db/palavras.ts'

// The totals of the dashboard's searches, kept by search: a bounded map that forgets the oldest
// search kept when a new one comes past its bound.

const contagem = (n: number, versao = '1'): Contagem => ({
  n,
  servicos: 100,
  versao,
  tsquery: `palavra${n}:*`,
})

describe('TotaisDeBusca', () => {
  it('answers the total kept for a search, and nothing for a search not kept', () => {
    const totais = new TotaisDeBusca<Contagem>(10)
    totais.set('joao|||false|', contagem(3))
    expect(totais.get('joao|||false|')).toEqual(contagem(3))
    expect(totais.get('maria|||false|')).toBeUndefined()
    expect(totais.size).toBe(1)
  })

  it('a search kept already is replaced in place (a new data version), evicting nothing', () => {
    const totais = new TotaisDeBusca<Contagem>(2)
    totais.set('a', contagem(1))
    totais.set('b', contagem(2))
    totais.set('a', contagem(5, '2'))
    expect(totais.size).toBe(2)
    expect(totais.get('a')).toEqual(contagem(5, '2'))
    expect(totais.get('b')).toEqual(contagem(2))
  })

  it('keeps at most its bound: a new search forgets the oldest one set', () => {
    const totais = new TotaisDeBusca<Contagem>(3)
    for (const k of ['a', 'b', 'c']) totais.set(k, contagem(1))
    // Replacing 'a' keeps its place: it is still the oldest.
    totais.set('a', contagem(9))
    totais.set('d', contagem(4))
    expect(totais.size).toBe(3)
    expect(totais.get('a')).toBeUndefined()
    expect(['b', 'c', 'd'].map((k) => totais.get(k)?.n)).toEqual([1, 1, 4])
    totais.set('e', contagem(5))
    expect(totais.size).toBe(3)
    expect(totais.get('b')).toBeUndefined()
    expect(totais.get('e')?.n).toBe(5)
  })

  it('the dashboard keeps up to 5,000 searches', () => {
    expect(totaisDeBusca.max).toBe(5000)
  })
})
