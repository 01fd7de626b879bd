import { z } from 'zod'

// Fallback wording of zod's own messages in Brazilian Portuguese; SPEC texts stay in the schemas.
z.config(z.locales.ptBR())
