import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The files that start a process of their own (the server, a backup, a restore) take the longest:
 * they start first, so the last seconds of a run are not one of them on a single worker.
 */
class ProcessesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files)
    const starts = (f: TestSpecification) =>
      /\b(spawn|execFile|fork)\(/.test(readFileSync(f.moduleId, 'utf8'))
    return [...sorted.filter(starts), ...sorted.filter((f) => !starts(f))]
  }
}

export default defineConfig({
  test: {
    // Vitest's default leaves a core idle; many API files wait on processes and sockets they start.
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: ProcessesFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/shared/**/*.test.ts', 'src/web/**/*.test.ts', 'tests/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['src/server/**/*.test.ts'],
          globalSetup: ['tests/setup/global-api.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // Each file opens its own database and app; sharing the worker's loaded modules between
          // files saves loading the whole server again for every file.
          isolate: false,
        },
      },
    ],
  },
})
