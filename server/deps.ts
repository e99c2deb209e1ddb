import type { Kysely } from 'kysely'
import type { Config } from './config.ts'
import type { Listen } from './db/connect.ts'
import type { OneAtATime } from './db/one-at-a-time.ts'
import type { Database } from './db/schema.ts'
import type { Mailer } from './services/mailer.ts'
import type { PaymentProvider } from './services/payment.ts'
import type { Storage } from './services/storage.ts'

export interface Clock {
  now(): Date
}

/** Everything the app talks to, injected so tests can build it on an in-memory database. */
export interface AppDeps {
  db: Kysely<Database>
  storage: Storage
  payments: PaymentProvider
  mailer: Mailer
  config: Config
  clock: Clock
  /** mail pipeline: this process's job worker, woken when a letter arrives; absent, the jobs wait for a worker's next look. */
  jobs?: { wake(): void }
  /** notifications: LISTEN on the database, for the live stream (the connection's `listen`). */
  listen: Listen
  /** One call at a time per key, in every instance on the database (the connection's `oneAtATime`): see http/send-or-undo.ts. */
  oneAtATime: OneAtATime
  /** The embedded database's dump (the connection's `dump`, PGlite only): npm run backup asks the running server for it. */
  dumpDatabase?: () => Promise<Blob>
}
