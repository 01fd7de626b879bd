import type { Estado } from './schemas/documentos.ts'

/** SPEC §4: the badge of a client's document (its current version's review). */
export function badgeExigido(doc: { estado: Estado | null } | null): {
  label: 'Pendente' | 'Em análise' | 'Aprovado' | 'Rejeitado' | 'Substituído'
  destructive: boolean
} {
  if (!doc) return { label: 'Pendente', destructive: true }
  if (doc.estado === 'aprovado') return { label: 'Aprovado', destructive: false }
  if (doc.estado === 'rejeitado') return { label: 'Rejeitado', destructive: true }
  if (doc.estado === 'substituido') return { label: 'Substituído', destructive: false }
  if (doc.estado === 'vencido') return { label: 'Pendente', destructive: true }
  return { label: 'Em análise', destructive: false }
}

/** SPEC §4: the badge of an administration document. */
export function badgeExtra(doc: { status: string | null }): {
  label: 'Disponível' | 'Aprovado' | 'Rejeitado'
  destructive: boolean
} {
  const nome = (doc.status ?? '').toLowerCase()
  if (nome.includes('aprovado')) return { label: 'Aprovado', destructive: false }
  if (nome.includes('rejeitado')) return { label: 'Rejeitado', destructive: true }
  return { label: 'Disponível', destructive: false }
}
