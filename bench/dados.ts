// The bench's names and words (its data set and the varied search terms), shared by the
// dashboard bench and the per-term timings of a kept database (bench/busca-termos.ts).

// Names as a Brazilian client list has them: 60 first names, 60 surnames (with accents), and one
// client in five a company with its state ("Souza Agropecuária Ltda - SP").
export const FIRST = (
  'Ana Bruno Carla Diego Elaine Fábio Gabriela Heitor Isabela João Karina Luís Mariana Nelson ' +
  'Otávio Patrícia Rafael Sabrina Tiago Vânia Adriana Antônio Beatriz Carlos Cecília Daniel ' +
  'Débora Eduardo Fernanda Francisco Giovana Gustavo Helena Henrique Júlia José Larissa Leonardo ' +
  'Lúcia Marcelo Márcia Mateus Natália Paulo Renata Ricardo Rosângela Sérgio Simone Thiago ' +
  'Valéria Vinícius Yasmin Wagner Aline André Camila Felipe Letícia Rodrigo'
).split(' ')
export const LAST = (
  'Silva Souza Oliveira Santos Pereira Lima Carvalho Ferreira Rodrigues Almeida Costa Gomes ' +
  'Martins Araújo Melo Barbosa Ribeiro Cardoso Rocha Dias Alves Nascimento Moreira Mendes ' +
  'Freitas Vieira Monteiro Castro Correia Teixeira Nunes Cavalcanti Moura Ramos Lopes Batista ' +
  'Fernandes Machado Azevedo Campos Pinto Reis Duarte Farias Sampaio Brandão Peixoto Guimarães ' +
  'Queiroz Siqueira Tavares Magalhães Fonseca Bezerra Assunção Coelho Prado Xavier Leão Conceição'
).split(' ')
export const EMPRESAS = [
  'Agropecuária',
  'Mineração',
  'Construtora',
  'Cerâmica',
  'Laticínios',
  'Transportes',
  'Loteamentos',
  'Indústria Química',
]
// Weighted like the country's economy: São Paulo first.
export const UFS = 'SP SP SP SP SP MG MG PR RS SC GO MT MS BA PE CE PA ES RJ RJ'.split(' ')
export const CATEGORIAS = [
  'Licenciamento Ambiental',
  'Outorga de Recursos Hídricos',
  'Estudos Ambientais',
  'Monitoramento',
  'Gestão de Resíduos',
  'Regularização Fundiária',
  'Fauna e Flora',
  'Consultoria',
]
export const TIPOS = [
  'Licença Prévia',
  'Licença de Instalação',
  'Licença de Operação',
  'Renovação de Licença',
  'Relatório de Monitoramento',
]
export const DOCS = [
  'RG',
  'CPF',
  'Contrato Social',
  'Matrícula do Imóvel',
  'Planta de Situação',
  'ART',
  'Procuração',
  'Certidão Municipal',
  'Parecer Técnico',
  'Laudo',
]

/**
 * The varied case: 200 terms as analysts type them (first names, surnames, words of the types and
 * categories, states, a surname with a type word, a first name with a surname, whole and cut
 * short); each request takes the next one, so no single term's cache serves the case.
 */
export function variedTerms() {
  const typeWords = [...TIPOS, ...CATEGORIAS]
    .flatMap((t) => t.split(' '))
    .filter((w) => w.length > 2)
  const cut = (w: string) => (w.length > 5 ? w.slice(0, 4 + (w.length % 3)) : w)
  const terms = [
    ...FIRST.slice(0, 50),
    ...LAST.slice(0, 50).map(cut),
    ...[...new Set(typeWords)].slice(0, 30).map(cut),
    ...[...new Set(UFS)].slice(0, 10),
    ...LAST.slice(0, 30).map((l, i) => `${l} ${cut(typeWords[i % typeWords.length])}`),
  ]
  for (let i = 0; terms.length < 200; i++) terms.push(`${FIRST[i]} ${LAST[(i * 7) % LAST.length]}`)
  return terms
}

/**
 * The digits case: every fragment of three and four digits (11,000, '0042' too), as analysts type
 * a protocol's number, in a spread order (7919 is prime to 11,000, so each comes once a round).
 * More than the totals the server keeps (5,000): each request is a search it has not read.
 */
export function digitTerms() {
  return Array.from({ length: 11_000 }, (_, i) => {
    const k = (i * 7919) % 11_000
    return k < 1000 ? String(k).padStart(3, '0') : String(k - 1000).padStart(4, '0')
  })
}

/**
 * The protocols case: protocols as analysts paste them from an agency's letter, in the bench's
 * four formats with its three years and numbers that exist at 100,000 services and more
 * ('PRT-2025-0137', '2024/0873', 'IEMA-2026/0011', '0412/2025'), one in ten only its start, the
 * agency's letters and the year ('IEMA-2026', 'PRT-2024'), in a spread order: 12,000 of them,
 * more than the totals the server keeps (5,000), so each full protocol is a search it has not read.
 */
export function protocolTerms() {
  return Array.from({ length: 12_000 }, (_, i) => {
    const k = (i * 7919) % 12_000
    const ano = 2024 + (k % 3)
    const seq = String(1 + ((k * 37) % 4000)).padStart(4, '0')
    if (k % 10 === 9) return [`PRT-${ano}`, `IEMA-${ano}`][k % 2]
    return [`PRT-${ano}-${seq}`, `${ano}/${seq}`, `IEMA-${ano}/${seq}`, `${seq}/${ano}`][
      (k >> 1) % 4
    ]
  })
}
