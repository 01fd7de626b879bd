import { z } from 'zod'

// Fallback wording of zod's own messages in Brazilian Portuguese; SPEC texts stay in the schemas.
z.config(z.locales.ptBR())
// In the browser the page's CSP forbids eval: without `jitless`, zod's probe for it (a caught
// `new Function`) is reported as a CSP violation. The server keeps zod's compiled parsers.
if (typeof window !== 'undefined') z.config({ jitless: true })
