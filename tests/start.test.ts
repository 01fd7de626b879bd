import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error a plain .mjs script without types
import { stale } from '../scripts/stale.mjs'

// `npm start` rebuilds only what is stale; its sources are folders and single files
// (vite.config.ts), and a single file once made it crash.
describe('npm start: stale build check', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-stale-'))
  const at = (file: string, seconds: number) => {
    const t = new Date(Date.UTC(2026, 0, 1, 0, 0, seconds))
    utimesSync(file, t, t)
  }
  mkdirSync(path.join(dir, 'src/web'), { recursive: true })
  const source = path.join(dir, 'src/web/main.tsx')
  const config = path.join(dir, 'vite.config.ts')
  const output = path.join(dir, 'index.html')
  for (const f of [source, config, output]) writeFileSync(f, '')

  it('is stale when the output is missing', () => {
    expect(stale(path.join(dir, 'missing.html'), path.join(dir, 'src'))).toBe(true)
  })

  it('is fresh when the output is newer than every file and folder named', () => {
    at(source, 1)
    at(config, 1)
    at(output, 2)
    expect(stale(output, path.join(dir, 'src'), config)).toBe(false)
  })

  it('is stale when a file inside a folder, or a single file, changed after the output', () => {
    at(output, 2)
    at(source, 3)
    expect(stale(output, path.join(dir, 'src'), config)).toBe(true)
    at(source, 1)
    at(config, 3)
    expect(stale(output, path.join(dir, 'src'), config)).toBe(true)
  })
})
