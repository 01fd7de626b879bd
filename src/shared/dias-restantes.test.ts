import { describe, expect, it } from 'vitest'
import { adminStatusBadge, diasRestantes, diasRestantesBadge } from './dias-restantes.ts'

const HOJE = '2026-03-10'

describe('diasRestantes', () => {
  it('counts calendar days to vigencia_fim, 0 on the last day, negative after', () => {
    expect(diasRestantes('2026-03-10', 'Em andamento', HOJE)).toBe(0)
    expect(diasRestantes('2026-03-11', 'Em andamento', HOJE)).toBe(1)
    expect(diasRestantes('2026-03-09', 'Em andamento', HOJE)).toBe(-1)
    expect(diasRestantes('2027-03-10', null, HOJE)).toBe(365)
  })
  it('is 0 for an archived service and null without an end date', () => {
    expect(diasRestantes('2020-01-01', 'Arquivado', HOJE)).toBe(0)
    expect(diasRestantes('2020-01-01', 'ARQUIVADO', HOJE)).toBe(0)
    expect(diasRestantes(null, 'Em andamento', HOJE)).toBeNull()
  })
})

describe('diasRestantesBadge', () => {
  it.each([
    ['2026-03-10', 0, '0 dias', 'destructive'],
    ['2026-03-15', 5, '5 dias', 'destructive'],
    ['2026-03-16', 6, '6 dias', 'secondary'],
    ['2026-03-25', 15, '15 dias', 'secondary'],
    ['2026-03-26', 16, '16 dias', 'outline'],
    ['2026-03-11', 1, '1 dia', 'destructive'],
  ])('%s (%i days) → %s %s', (fim, _dias, label, variant) => {
    expect(diasRestantesBadge(fim, 'Em andamento', HOJE)).toEqual({ label, variant })
  })
  it('negative is Vencido (destructive)', () => {
    expect(diasRestantesBadge('2026-03-09', 'Em andamento', HOJE)).toEqual({
      label: 'Vencido',
      variant: 'destructive',
    })
  })
  it("filed on time ('Em renovação') reads Prorrogada, a renewed one Renovada, whatever the date", () => {
    expect(diasRestantesBadge('2026-03-09', 'Em renovação', HOJE)).toEqual({
      label: 'Prorrogada',
      variant: 'default',
    })
    expect(diasRestantesBadge('2026-03-12', 'em renovacao', HOJE).label).toBe('Prorrogada')
    expect(diasRestantesBadge('2026-03-12', 'Renovada', HOJE).label).toBe('Renovada')
    expect(diasRestantes('2026-03-12', 'Em renovação', HOJE)).toBeNull()
    expect(diasRestantes('2026-03-12', 'Renovada', HOJE)).toBeNull()
  })
  it('arquivado wins over the date', () => {
    expect(diasRestantesBadge('2026-03-09', 'Arquivado', HOJE).label).toBe('Arquivado')
    expect(diasRestantesBadge('2026-03-12', 'arquivado', HOJE).label).toBe('Arquivado')
  })
  it('no end date shows a dash', () => {
    expect(diasRestantesBadge(null, 'Em andamento', HOJE).label).toBe('-')
  })
})

describe('adminStatusBadge', () => {
  it.each([
    ['Concluído', 'default'],
    ['Aprovado pelo órgão', 'default'],
    ['Pendente', 'secondary'],
    ['Aguardando cliente', 'secondary'],
    ['Rejeitado', 'destructive'],
    ['Cancelado', 'destructive'],
    ['Em andamento', 'outline'],
  ])('%s → %s', (nome, variant) => {
    expect(adminStatusBadge(nome)).toEqual({ label: nome, variant })
  })
  it('blank shows Indefinido', () => {
    expect(adminStatusBadge(null)).toEqual({ label: 'Indefinido', variant: 'outline' })
    expect(adminStatusBadge('  ')).toEqual({ label: 'Indefinido', variant: 'outline' })
  })
})
