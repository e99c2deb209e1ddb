// « Mes données » (RGPD art. 15 and 20): one click queues the export's job (services/data-export.ts); the page follows it
// by its id; the ZIP is streamed from storage to the person who asked, and to nobody else, for 7 days.
import type { DataExport } from '../../contract/people-exports.ts'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { HttpError, notFound } from '../../http/errors.ts'
import { enqueueJob } from '../../db/repositories/jobs.ts'
import { createExport, findExport, latestExports, type ExportRow } from '../../db/repositories/people-exports.ts'
import { DATA_EXPORT_JOB, EXPORT_ATTEMPTS, EXPORT_DAYS } from '../../services/data-export.ts'
import { longDate } from '../../lib/time.ts'
import { fileHeaders } from '../files.ts'

export const dataExportMessages = {
  unknown: 'Export introuvable.',
  preparing: 'Vos données sont encore en préparation : le lien de téléchargement vous sera envoyé par e-mail dès qu’elles seront prêtes.',
  failed: 'La préparation de vos données a échoué : relancez-la depuis « Informations personnelles ».',
  expired: (expiresAt: Date) =>
    `Ce lien a expiré le ${longDate.format(expiresAt)} : vos données ne restent disponibles que ${EXPORT_DAYS} jours. Préparez-les de nouveau depuis « Informations personnelles ».`,
  missing: 'Le fichier de vos données est introuvable : préparez-les de nouveau depuis « Informations personnelles ».',
} as const

const fileOf = (row: ExportRow) => `/api-protected/users/me/data-exports/${row.id}/file`

export function toDataExport(row: ExportRow): DataExport {
  return {
    id: row.id,
    state: row.state,
    progress: row.state === 'ready' ? 100 : row.progress,
    createdAt: row.createdAt.toISOString(),
    readyAt: row.readyAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    bytes: row.state === 'ready' ? row.bytes : null,
    letters: row.letters,
    file: row.state === 'ready' ? fileOf(row) : null,
  }
}

export function dataExportRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, clock, storage } = deps

  define('startDataExport', async ({ user }) => {
    const { id, created } = await createExport(db, user.id, (trx, exportId) =>
      enqueueJob(trx, DATA_EXPORT_JOB, { exportId }, { maxAttempts: EXPORT_ATTEMPTS }),
    )
    if (created) deps.jobs?.wake()
    return toDataExport((await findExport(db, user.id, id, clock.now()))!)
  })

  define('dataExports', async ({ user }) => (await latestExports(db, user.id, clock.now(), 5)).map(toDataExport))

  define('dataExport', async ({ user, params }) => {
    const row = await findExport(db, user.id, params.id, clock.now())
    if (!row) throw notFound('Export')
    return toDataExport(row)
  })

  define('dataExportFile', async ({ user, params, reply }) => {
    const row = await findExport(db, user.id, params.id, clock.now())
    // Another person's export is nobody's: the same 404 as one that never was.
    if (!row) throw new HttpError(404, dataExportMessages.unknown, 'NOT_FOUND')
    if (row.state === 'expired') throw new HttpError(410, dataExportMessages.expired(row.expiresAt!), 'EXPORT_EXPIRED')
    if (row.state === 'failed') throw new HttpError(409, dataExportMessages.failed, 'EXPORT_FAILED')
    if (row.state === 'preparing') throw new HttpError(409, dataExportMessages.preparing, 'EXPORT_PREPARING')
    const file = await storage.read(row.fileKey!)
    if (!file) throw new HttpError(410, dataExportMessages.missing, 'EXPORT_MISSING')
    const day = row.readyAt!.toISOString().slice(0, 10)
    fileHeaders(reply, 'application/zip', `mes-donnees-${day}.zip`, 'attachment').header('Content-Length', file.bytes)
    return reply.send(file.stream) as never
  })
}
