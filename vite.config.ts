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

export default defineConfig({
  root,
  plugins: [
    react(),
    tailwindcss(),
    appShellFallback(),
    // Brotli and gzip copies beside each file; the server sends the one the browser accepts.
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024, logLevel: 'silent' }),
  ],
  build: {
    outDir: path.resolve(import.meta.dirname, process.env.PORTAL_DIST ?? 'dist', 'web'),
    emptyOutDir: true,
    rollupOptions: {
      input: { index: path.join(root, 'index.html'), app: path.join(root, 'app.html') },
      output: {
        // React itself is shared by the landing page and the app; everything else stays apart.
        advancedChunks: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
        },
      },
    },
  },
  server: {
    proxy: { '/api': `http://127.0.0.1:${process.env.API_PORT ?? '3001'}` },
  },
})
