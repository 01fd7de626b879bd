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
 * 60 KB; issue 18's 60 KB budget for `/`). `npm run dev` serves both entries with React.
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
    rollupOptions: {
      input: isLanding(mode) ? path.join(root, 'index.html') : path.join(root, 'app.html'),
      output: {
        // React in a chunk of its own: it changes less often than the app's code.
        advancedChunks: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
        },
      },
    },
  },
  server: {
    proxy: { '/api': `http://127.0.0.1:${process.env.API_PORT ?? '3001'}` },
  },
}))
