// Bundles the server (TypeScript) into dist/server/main.js; npm packages stay external.
import { build } from 'esbuild'

// PORTAL_DIST lets parallel checkouts of the work build side by side (default dist).
const dist = process.env.PORTAL_DIST ?? 'dist'

await build({
  entryPoints: ['src/server/main.ts'],
  outfile: `${dist}/server/main.js`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
})
console.log(`server built: ${dist}/server/main.js`)
