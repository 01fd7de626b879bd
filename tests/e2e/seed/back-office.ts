import type { SeedContext } from './context.ts'

/** Fixtures of the back office (clients, catalogues, rules, schedules) end-to-end tests. */
export async function seedBackOffice(_ctx: SeedContext) {}
