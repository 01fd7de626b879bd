import type { DbOrTx } from '../../db/client.ts'
import { condicoes, pagina } from './auditoria.queries.ts'
import { describeEvento, namesOf, quem } from './descricoes.ts'
import { BOM, campoCsv } from '../../exportar/planilha.ts'
import { formatDateTimeIn } from '#shared/datas.ts'
import { ROTULO_ACAO, ROTULO_ENTIDADE, type AuditoriaFiltro } from '#shared/schemas/auditoria.ts'

const CSV_CABECALHO = [
  'Data',
  'Usuário',
  'E-mail',
  'Papel',
  'IP',
  'Navegador',
  'Ação',
  'Entidade',
  'Identificador',
  'Nome',
  'Descrição',
  'Antes',
  'Depois',
]

/**
 * The filtered list as CSV (";"-separated, as spreadsheets in pt-BR read it), streamed: keyset
 * batches of 500, one batch in memory at a time.
 */
export async function* auditoriaCsv(
  db: DbOrTx,
  f: AuditoriaFiltro,
): AsyncGenerator<string, void, undefined> {
  const conds = condicoes(f)
  yield `${BOM}${CSV_CABECALHO.map(campoCsv).join(';')}\r\n`
  let after: string | undefined
  for (;;) {
    const p = await pagina(db, conds, { after }, 500)
    const nomes = await namesOf(db, p.rows)
    let bloco = ''
    for (const l of p.rows) {
      bloco +=
        [
          formatDateTimeIn(new Date(l.em)),
          quem(l),
          l.ator_email,
          l.ator_role,
          l.ip,
          l.user_agent,
          ROTULO_ACAO[l.acao],
          ROTULO_ENTIDADE[l.entidade as keyof typeof ROTULO_ENTIDADE] ?? l.entidade,
          l.entidade_id,
          l.rotulo,
          describeEvento(l, nomes),
          l.antes,
          l.depois,
        ]
          .map(campoCsv)
          .join(';') + '\r\n'
    }
    if (bloco) yield bloco
    if (!p.next) return
    after = p.next
  }
}
