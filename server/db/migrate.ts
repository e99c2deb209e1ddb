import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration'
import type { Kysely } from 'kysely'
import * as initial from './migrations/001_initial.ts'
// people
import * as people from './migrations/003_people.ts'
// billing
import * as billing from './migrations/002_billing.ts'
// company area
import * as company from './migrations/004_company.ts'

// Listed in code rather than read from disk, so the bundle-free tsx runtime and tests need no file lookups.
const migrations: Record<string, Migration> = {
  '001_initial': initial,
  // people
  '003_people': people,
  // billing
  '002_billing': billing,
  // company area
  '004_company': company,
}

const provider: MigrationProvider = { getMigrations: async () => migrations }

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} a échoué`, { cause: error })
}
