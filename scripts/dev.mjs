// `npm run dev`: the API with reload (port 3001) behind Vite's dev server on PORT (3000).
import { spawn } from 'node:child_process'

const port = process.env.PORT || '3000'
const apiPort = String(Number(port) + 1)
const env = { ...process.env, APP_URL: process.env.APP_URL || `http://localhost:${port}` }
const children = [
  spawn('npx', ['tsx', 'watch', 'src/server/main.ts'], {
    stdio: 'inherit',
    env: { ...env, PORT: apiPort },
  }),
  spawn('npx', ['vite', '--port', port, '--strictPort'], {
    stdio: 'inherit',
    env: { ...env, API_PORT: apiPort },
  }),
]
const stop = () => children.forEach((c) => c.kill('SIGTERM'))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
