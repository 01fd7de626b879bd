import type { Auth } from '../../../src/server/auth/auth.ts'
import type { Db } from '../../../src/server/db/client.ts'
import type { Storage } from '../../../src/server/storage/storage.ts'

export type SeedContext = { db: Db; auth: Auth; storage: Storage; dataDir: string }
