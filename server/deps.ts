import type { Kysely } from 'kysely'
import type { Config } from './config.ts'
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
}
