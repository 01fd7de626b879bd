import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// ARCHITECTURE.md "Allowed imports", as `npm run lint` enforces them: each case is a file that
// would break one rule, linted as if it lived at `filePath`.
const eslint = new ESLint()

async function boundaryErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath })
  return result.messages
    .filter((m) => m.ruleId === 'import-x/no-restricted-paths')
    .map((m) => m.message)
}

describe('import boundaries (npm run lint)', () => {
  it('refuses a web feature importing another feature, by relative path or alias', async () => {
    const errors = await boundaryErrors(
      'src/web/features/avisos/x.ts',
      `import { servicosQuery } from '../servicos/api.ts'
import { clientesQuery } from '#web/features/clientes/api.ts'
export const x = [servicosQuery, clientesQuery]\n`,
    )
    expect(errors).toHaveLength(2)
    expect(errors[0]).toContain('A feature never imports another feature')
  })

  it('refuses a server feature importing another feature', async () => {
    const errors = await boundaryErrors(
      'src/server/features/avisos/x.ts',
      `import { listServicos } from '../servicos/servicos.queries.ts'\nexport const x = listServicos\n`,
    )
    expect(errors).toEqual([expect.stringContaining('A feature never imports another feature')])
  })

  it('refuses components/ and lib/ importing a feature or a page', async () => {
    const component = await boundaryErrors(
      'src/web/components/x.tsx',
      `import { useMe } from '../features/conta/api.ts'\nexport const x = useMe\n`,
    )
    const lib = await boundaryErrors(
      'src/web/lib/x.ts',
      `import { ClientesPage } from '#web/pages/clientes-page.tsx'\nexport const x = ClientesPage\n`,
    )
    expect(component).toEqual([expect.stringContaining('components/ and lib/')])
    expect(lib).toEqual([expect.stringContaining('components/ and lib/')])
  })

  it('refuses web importing server, server importing web, and shared importing either', async () => {
    const web = await boundaryErrors(
      'src/web/lib/x.ts',
      `import { buildApp } from '#server/app.ts'\nexport const x = buildApp\n`,
    )
    const server = await boundaryErrors(
      'src/server/x.ts',
      `import { paths } from '../web/paths.ts'\nexport const x = paths\n`,
    )
    const shared = await boundaryErrors(
      'src/shared/x.ts',
      `import { paths } from '#web/paths.ts'\nexport const x = paths\n`,
    )
    expect(web).toEqual([expect.stringContaining('never imports the server')])
    expect(server).toEqual([expect.stringContaining('never imports the web app')])
    expect(shared).toEqual([expect.stringContaining('shared is imported by server and web')])
  })

  it('refuses infrastructure importing a feature', async () => {
    const errors = await boundaryErrors(
      'src/server/db/x.ts',
      `import { listAvisos } from '../features/avisos/avisos.queries.ts'\nexport const x = listAvisos\n`,
    )
    expect(errors).toEqual([expect.stringContaining('Infrastructure never imports a feature')])
  })

  // TypeScript and Vite accept an import without its extension, or of a folder's index: the
  // boundaries must see those too, one planted case per zone.
  it.each([
    [
      'a web feature, another feature',
      'src/web/features/avisos/x.ts',
      '../servicos/api',
      'A feature never imports another feature',
    ],
    [
      'a web feature, a page',
      'src/web/features/avisos/x.ts',
      '../../pages/clientes-page',
      'A feature never imports another feature',
    ],
    [
      'a server feature, another feature',
      'src/server/features/avisos/x.ts',
      '../servicos/servicos.queries',
      'A feature never imports another feature',
    ],
    [
      'components/, a feature',
      'src/web/components/x.tsx',
      '../features/auditoria/api',
      'components/ and lib/',
    ],
    ['lib/, a page', 'src/web/lib/x.ts', '../pages/clientes-page', 'components/ and lib/'],
    [
      'infrastructure, a feature',
      'src/server/storage/x.ts',
      '../features/documentos/documentos.queries',
      'Infrastructure never imports a feature',
    ],
    ['web, the server', 'src/web/lib/x.ts', '../../server/app', 'never imports the server'],
    ['the server, web', 'src/server/x.ts', '../web/paths', 'never imports the web app'],
    [
      'shared, the server',
      'src/shared/x.ts',
      '../server/errors',
      'shared is imported by server and web',
    ],
    [
      'shared, web (alias)',
      'src/shared/x.ts',
      '#web/paths',
      'shared is imported by server and web',
    ],
  ])('refuses %s imported without its extension', async (_case, filePath, from, message) => {
    const errors = await boundaryErrors(
      filePath,
      `import * as m from '${from}'\nexport const x = m\n`,
    )
    expect(errors).toEqual([expect.stringContaining(message)])
  })

  it('lets a page compose several features, and a feature import its own files and lib/', async () => {
    const page = await boundaryErrors(
      'src/web/pages/x.tsx',
      `import { avisosQuery } from '../features/avisos/api.ts'
import { servicoQuery } from '../features/servicos/api.ts'
export const x = [avisosQuery, servicoQuery]\n`,
    )
    const feature = await boundaryErrors(
      'src/web/features/avisos/x.ts',
      `import { avisosQuery } from './api.ts'
import { avisosKeys } from '../../lib/query-keys.ts'
import { formatDate } from '#shared/datas.ts'
export const x = [avisosQuery, avisosKeys, formatDate]\n`,
    )
    expect(page).toEqual([])
    expect(feature).toEqual([])
  })
})
