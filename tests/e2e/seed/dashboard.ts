import type { SeedContext } from './context.ts'

/** Fixtures of the dashboard and service detail end-to-end tests. */
export async function seedDashboard(_ctx: SeedContext) {}
