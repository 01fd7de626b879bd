import path from 'node:path'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { compression } from 'vite-plugin-compression2'

const root = path.resolve(import.meta.dirname, 'src/web')

/** In dev, every path but `/` is the app shell, as the server does in production. */
const appShellFallback = (): Plugin => ({
  name: 'app-shell-fallback',
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      const url = req.url ?? '/'
      const isAsset = /^\/(@|src\/|node_modules\/|api\/)|\.[a-z0-9]+(\?|$)/i.test(url)
      if (req.method === 'GET' && url !== '/' && !url.startsWith('/?') && !isAsset)
        req.url = '/app.html'
      next()
    })
  },
})

/**
 * `app-area.html`, the app shell for the signed-in screens (`/app/...`; the server chooses it): the
 * same page, which also asks at once for the `area` chunk every such screen needs and for the
 * session (`/api/me`, which the entry prefetches). Without it both wait until the first script
 * has run: two round trips more before a phone shows the screen. `/auth` keeps `app.html` (its
 * budget has no room for `area`, and an anonymous `/api/me` is a 401).
 */
const appAreaShell = (): Plugin => ({
  name: 'app-area-shell',
  apply: 'build',
  generateBundle: {
    order: 'post',
    handler(_options, bundle) {
      const shell = bundle['app.html']
      const area = Object.values(bundle).find((f) => f.type === 'chunk' && f.name === 'area')
      if (shell?.type !== 'asset' || area?.type !== 'chunk') return
      // A module of `area` that imports a `forms` one statically pulls it (zod, the schemas) into
      // every signed-in screen: the build refuses it.
      const leaked = Object.keys(area.modules).filter(anyForms)
      if (leaked.length)
        this.error(
          `the area chunk holds forms modules (an area module imports them statically; a label or rule belongs in a zod-free module of src/shared): ${leaked.slice(0, 5).join(', ')}`,
        )
      // Meus Dados loads `forms` at once and the schemas at a form's first validation: a module of
      // `forms` that imports a schema statically brings them all back before the screen answers.
      const chunks = Object.values(bundle).filter((f) => f.type === 'chunk')
      const forms = chunks.find((f) => f.name === 'forms')
      const mais = chunks.find((f) => f.name === 'forms-mais')
      if (forms && mais && forms.imports.includes(mais.fileName))
        this.error(
          'the forms chunk imports forms-mais statically (a Meus Dados form imports a schema or zod: use resolverTardio, and a zod-free module of src/shared for its labels)',
        )
      const hints =
        `<link rel="modulepreload" crossorigin href="/${area.fileName}">\n` +
        `    <link rel="preload" href="/api/me" as="fetch" crossorigin>\n    `
      const html = String(shell.source)
      if (!html.includes('<link rel="stylesheet"')) throw new Error('app.html: no stylesheet link')
      this.emitFile({
        type: 'asset',
        fileName: 'app-area.html',
        source: html.replace('<link rel="stylesheet"', `${hints}<link rel="stylesheet"`),
      })
    },
  },
})

/**
 * Two builds into one folder: the app (React), then, with `--mode landing`, the landing page on
 * Preact's React-compatible runtime (the same components, 10 KB of runtime instead of React's
 * 60 KB; the 60 KB budget for `/`). `npm run dev` serves both entries with React.
 */
const isLanding = (mode: string) => mode === 'landing'

/** The landing build resolves React to Preact's compatibility layer. */
const preactAliases = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
]

/** What the `base` chunk holds: loaded by /auth and by every screen of the app. */
const baseModules = [
  /node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/](react-query|query-core))[\\/]/,
  /src[\\/]web[\\/]components[\\/]ui[\\/](button|card|input|label|field|password-input)\.tsx$/,
  /src[\\/]web[\\/]features[\\/]conta[\\/]aceite-campo\.tsx$/,
  /src[\\/]web[\\/]lib[\\/](query-keys|me-query|mutation|notify)\.ts$/,
  // What the entry needs that `area`'s modules use too: here, or `area` would take it.
  /src[\\/]web[\\/](paths\.ts|components[\\/]ui[\\/]spinner\.tsx)$/,
  /node_modules[\\/]react-router[\\/]|vite[\\/]preload-helper/,
  /src[\\/]web[\\/]features[\\/]conta[\\/]api\.ts$/,
  /node_modules[\\/](@radix-ui[\\/]react-(slot|compose-refs|primitive|label)|class-variance-authority)[\\/]/,
  /node_modules[\\/]lucide-react[\\/].*[\\/]icons[\\/](eye|eye-off|leaf)\.mjs$/,
]

/**
 * What the `forms` chunk holds: the form library, the masks and the date picker, and Meus Dados'
 * form. Only a screen with a form on it at first sight loads it (Meus Dados, the back office's
 * screens); a dialog's form is imported when it opens, so Meus Serviços and a service's documents
 * load without it (a phone on a slow network: ~75 KB less). Validation (zod and the schemas) is in
 * `forms-mais`: Meus Dados' forms import their schemas at their first validation
 * (`lib/resolver-tardio.ts`), since building them was the screen's longest task on a phone. The
 * date picker's calendar (`ui/calendario.tsx`) and the QR code load when they first show, in
 * chunks of their own.
 */
const formsModules = [
  /node_modules[\\/](react-hook-form|@hookform|imask)[\\/]/,
  /src[\\/]web[\\/]lib[\\/]resolver-tardio\.ts$/,
  /src[\\/]web[\\/]components[\\/]ui[\\/](date-field|masked-input|form-select)\.tsx$/,
  /src[\\/]web[\\/]components[\\/]ui[\\/]mascara\.ts$/,
  /src[\\/]web[\\/]features[\\/]conta[\\/](dois-fatores|alterar-senha-card)\.tsx$/,
  /src[\\/]web[\\/]features[\\/]clientes[\\/](contato-endereco-fields|cep-field)\.tsx$/,
  // Meus Dados' form and cards travel with the forms; its frame (title, spinner) is in `area`,
  // drawn before them.
  /src[\\/]web[\\/](pages[\\/]meus-dados-conteudo|features[\\/]clientes[\\/]meus-dados-form)\.tsx$/,
]

/**
 * zod, the schemas and the other screens' dialogs, in `forms-mais`: a chunk's modules all run when
 * it loads, and building the schemas cost Meus Dados ~180 ms of a phone's main thread (4×
 * slowdown) before it could answer. The `forms` chunk must not import it (the build checks it).
 */
const moreFormsModules = [
  /node_modules[\\/]zod[\\/]/,
  /src[\\/]shared[\\/](schemas[\\/]|zod-locale\.ts$)/,
  /src[\\/]web[\\/]features[\\/](renovacoes[\\/]renovacao-dialogs|documentos[\\/]revisao-dialogs)\.tsx$/,
]

/** Modules that must never be in `area` (the build checks it). */
const anyForms = (id: string) =>
  formsModules.some((re) => re.test(id)) || moreFormsModules.some((re) => re.test(id))

/** What the `area` chunk holds: the signed-in frame and what the screens behind it share. */
const areaModules = [
  // Meus Dados' frame (its title and spinner, ~1 KB) rides with the area: no request of its own.
  /src[\\/]web[\\/]pages[\\/](app-layout|meus-dados-page)\.tsx$/,
  /src[\\/]web[\\/]components[\\/](?!ui[\\/](tabs|spinner|calendario)\.tsx$|toaster\.tsx$).*\.tsx?$/,
  /src[\\/]shared[\\/]/,
  // The client screens' cards and badges that other screens show too.
  /src[\\/]web[\\/]features[\\/]servicos[\\/](status-cor-badge|servico-badges)\.tsx$/,
  /src[\\/]web[\\/]features[\\/](condicionantes[\\/](condicionantes-servico|situacao-badge)|processos[\\/](processo-card|situacao-badge)|renovacoes[\\/]renovacao-(card|dialogs)|notificacoes[\\/]notificacoes-card|documentos[\\/](revisao|documento-enviado|documento-validade|dossie-link)|auditoria[\\/]historico-card|mensagens[\\/](mensagens-card|mensagem-item|nova-mensagem|nao-lidas))\.tsx$/,
  /src[\\/]web[\\/]features[\\/]mensagens[\\/]links\.ts$/,
  /src[\\/]web[\\/]features[\\/]conta[\\/](sessoes-card|dois-fatores|alterar-senha-card)\.tsx$/,
  /src[\\/]web[\\/]features[\\/]clientes[\\/](contato-endereco-fields|cep-field)\.tsx$/,
  /src[\\/]web[\\/]lib[\\/](?!light-form\.ts$|notify\.ts$).*\.ts$/,
  /src[\\/]web[\\/]features[\\/][^\\/]+[\\/]api\.ts$/,
  /node_modules[\\/](@radix-ui|radix-ui|date-fns)[\\/]/,
  /node_modules[\\/]lucide-react[\\/].*[\\/]icons[\\/]/,
]

/**
 * The app's chunks: React in a chunk of its own (it changes less often than the app's code); the
 * small modules every screen shares, /auth's included, in one `base` chunk. Without it each of
 * them is a chunk of its own and /auth made 17 script requests, each with its headers
 * (/auth's JS ≤ 120 KB as Lighthouse counts it, headers included).
 */
const appChunks = {
  groups: [
    {
      name: 'base',
      priority: 10,
      test: (id: string) => baseModules.some((re) => re.test(id)),
    },
    {
      name: 'area',
      priority: 7,
      test: (id: string) => areaModules.some((re) => re.test(id)) && !anyForms(id),
    },
    { name: 'forms', priority: 5, test: (id: string) => formsModules.some((re) => re.test(id)) },
    {
      name: 'forms-mais',
      priority: 4,
      test: (id: string) => moreFormsModules.some((re) => re.test(id)),
    },
  ],
}

export default defineConfig(({ mode }) => ({
  root,
  resolve: isLanding(mode) ? { alias: preactAliases } : undefined,
  plugins: [
    react(),
    tailwindcss(),
    appShellFallback(),
    appAreaShell(),
    // Brotli and gzip copies beside each file; the server sends the one the browser accepts.
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024, logLevel: 'silent' }),
  ],
  build: {
    outDir: path.resolve(import.meta.dirname, process.env.PORTAL_DIST ?? 'dist', 'web'),
    emptyOutDir: !isLanding(mode),
    cssCodeSplit: isLanding(mode),
    rollupOptions: {
      input: isLanding(mode) ? path.join(root, 'index.html') : path.join(root, 'app.html'),
      // The landing page is one script (Preact and its components): no groups there.
      output: isLanding(mode) ? {} : { codeSplitting: appChunks },
    },
  },
  server: {
    proxy: { '/api': `http://127.0.0.1:${process.env.API_PORT ?? '3001'}` },
  },
}))
