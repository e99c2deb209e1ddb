// Which stored files a row still points at: what the storage sweep keeps (services/storage-sweep.ts).
import { sql, type Kysely } from 'kysely'
import type { Database } from '../schema.ts'

/** Every column holding a storage key (a test compares this list with the database's columns). */
export const STORED_FILE_COLUMNS = [
  ['contracts', 'kbis_file_key'],
  ['documents', 'file_key'],
  ['invoices', 'file_key'],
  ['credit_notes', 'file_key'],
  ['uploaded_documents', 'file_key'],
  // mail pipeline: a letter's page images
  ['document_pages', 'file_key'],
  // the mail room: scans waiting to be published, their page images, a package's photo
  ['mail_scans', 'file_key'],
  ['mail_scan_pages', 'file_key'],
  ['packages', 'photo_file_key'],
  // « Mes données »: a prepared ZIP, until it expires
  ['data_exports', 'file_key'],
] as const satisfies readonly (readonly [keyof Database, string])[]

/** The keys among `keys` that some row points at. */
export async function referencedFileKeys(db: Kysely<Database>, keys: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>()
  for (let i = 0; i < keys.length; i += 500) {
    const batch = keys.slice(i, i + 500)
    for (const [table, column] of STORED_FILE_COLUMNS) {
      const { rows } = await sql<{
        key: string
      }>`select ${sql.ref(column)} as key from ${sql.table(table)} where ${sql.ref(column)} in (${sql.join(batch)})`.execute(db)
      for (const row of rows) found.add(row.key)
    }
  }
  return found
}
