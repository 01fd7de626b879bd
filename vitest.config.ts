import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Vitest's default leaves a core idle; many API files wait on processes and sockets they start.
    maxWorkers: Math.max(2, availableParallelism()),
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
