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

/** What the `area` chunk holds: the signed-in frame and what the screens behind it share. */
const areaModules = [
  /src[\\/]web[\\/]pages[\\/]app-layout\.tsx$/,
  /src[\\/]web[\\/]components[\\/](?!ui[\\/](tabs|spinner)\.tsx$|toaster\.tsx$).*\.tsx?$/,
  /src[\\/]shared[\\/]/,
  // The client screens' cards and badges that other screens show too.
  /src[\\/]web[\\/]features[\\/]servicos[\\/](status-cor-badge|servico-badges)\.tsx$/,
  /src[\\/]web[\\/]features[\\/](renovacoes[\\/]renovacao-(card|dialogs)|notificacoes[\\/]notificacoes-card|documentos[\\/](revisao|documento-enviado|documento-validade)|auditoria[\\/]historico-card|mensagens[\\/](mensagens-card|nao-lidas))\.tsx$/,
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
    { name: 'area', priority: 5, test: (id: string) => areaModules.some((re) => re.test(id)) },
  ],
}

export default defineConfig(({ mode }) => ({
  root,
  resolve: isLanding(mode) ? { alias: preactAliases } : undefined,
  plugins: [
    react(),
    tailwindcss(),
    appShellFallback(),
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
