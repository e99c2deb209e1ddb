// npm run storage:check: every row that points at a file compared with its object (missing, size, SHA-256), and every
// object with a row (orphans), on either store. The report is in French; a file missing or damaged is a loss.
import { sql, type Kysely } from 'kysely'
import type { StorageReport } from '../contract/storage.ts'
import { STORED_FILE_COLUMNS } from '../db/repositories/stored-files.ts'
import type { Database } from '../db/schema.ts'
import { digestOf } from './checked-storage.ts'
import type { Storage } from './storage.ts'

export type { StorageReport }

/** The far future: every object of the store, whatever its date (Storage.listOlderThan). */
const ALL = new Date(8.64e15)

export async function checkStorage({
  db,
  objects,
  recordMissing = false,
}: {
  db: Kysely<Database>
  /** The store as it is (openObjectStore): the checks here read it, they are not done by it. */
  objects: Storage
  recordMissing?: boolean
}): Promise<StorageReport> {
  const where = new Map<string, string[]>()
  for (const [table, column] of STORED_FILE_COLUMNS) {
    const { rows } = await sql<{
      key: string
    }>`select distinct ${sql.ref(column)} as key from ${sql.table(table)} where ${sql.ref(column)} is not null`.execute(db)
    for (const { key } of rows) where.set(key, [...(where.get(key) ?? []), `${table}.${column}`])
  }
  const records = new Map(
    (await db.selectFrom('stored_files').select(['key', 'bytes', 'sha256']).execute()).map((row) => [row.key, row] as const),
  )
  const report: StorageReport = {
    referenced: where.size,
    verified: 0,
    missing: [],
    damaged: [],
    unrecorded: [],
    recorded: 0,
    orphans: [],
  }
  for (const [key, places] of [...where].sort(([a], [b]) => a.localeCompare(b))) {
    const file = await objects.read(key)
    if (!file) {
      report.missing.push({ key, where: places })
      continue
    }
    const actual = await digestOf(file.stream)
    const expected = records.get(key)
    if (!expected) {
      report.unrecorded.push(key)
      if (recordMissing) {
        await db
          .insertInto('stored_files')
          .values({ key, ...actual })
          .onConflict((oc) => oc.column('key').doNothing())
          .execute()
        report.recorded++
      }
      continue
    }
    report.verified++
    if (Number(expected.bytes) !== actual.bytes)
      report.damaged.push({ key, where: places, detail: `${actual.bytes} octets au lieu de ${expected.bytes}` })
    else if (expected.sha256 !== actual.sha256)
      report.damaged.push({ key, where: places, detail: `empreinte SHA-256 ${actual.sha256} au lieu de ${expected.sha256}` })
  }
  report.orphans = (await objects.listOlderThan(ALL)).filter((key) => !where.has(key)).sort()
  return report
}

/** Something the rows point at is gone or changed. */
export const storageLost = (report: StorageReport) => report.missing.length + report.damaged.length > 0

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('fr-FR')} ${n === 1 ? one : many}`

export function formatStorageReport(report: StorageReport): string[] {
  const lines = [
    `Fichiers référencés par la base : ${report.referenced.toLocaleString('fr-FR')} ; ` +
      `${plural(report.verified, 'vérifié')} (taille et empreinte SHA-256).`,
  ]
  for (const { key, where } of report.missing) lines.push(`MANQUANT  ${key} (${where.join(', ')})`)
  for (const { key, where, detail } of report.damaged) lines.push(`ENDOMMAGÉ ${key} (${where.join(', ')}) : ${detail}`)
  if (report.unrecorded.length)
    lines.push(
      report.recorded
        ? `${plural(report.recorded, 'empreinte enregistrée', 'empreintes enregistrées')} pour des fichiers antérieurs à leur enregistrement.`
        : `${plural(report.unrecorded.length, 'fichier')} sans empreinte enregistrée (antérieurs à l’enregistrement des empreintes) : ` +
            'npm run storage:check -- --enregistrer les calcule.',
    )
  if (report.orphans.length) {
    lines.push(
      `${plural(report.orphans.length, 'objet')} sans ligne dans la base (orphelins : laissés par un arrêt brutal, ` +
        'supprimés par le serveur un quart d’heure après leur écriture) :',
    )
    for (const key of report.orphans.slice(0, 50)) lines.push(`ORPHELIN  ${key}`)
    if (report.orphans.length > 50) lines.push(`… et ${plural(report.orphans.length - 50, 'autre')}.`)
  }
  lines.push(
    storageLost(report)
      ? `PERTE : ${plural(report.missing.length, 'fichier manquant', 'fichiers manquants')}, ` +
          `${plural(report.damaged.length, 'fichier endommagé', 'fichiers endommagés')}. Restaurez-les depuis la dernière sauvegarde.`
      : 'Aucune perte : chaque fichier référencé est présent et intact.',
  )
  return lines
}
