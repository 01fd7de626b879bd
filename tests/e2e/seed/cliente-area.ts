import type { SeedContext } from './context.ts'

/** Fixtures of the client area (Meus Dados, Meus Serviços, Solicitar Serviço, Documentos) end-to-end tests. */
export async function seedClienteArea(_ctx: SeedContext) {}
