// The people area's « Mes données » (RGPD art. 15 and 20): a ZIP of everything the person sees in the portal, prepared
// by a background job, followed while it is prepared, downloaded by that person only for 7 days (docs/LEGAL.md).
import { Type, type Static } from 'typebox'
import { DateTime, Id, IdParams, Nullable } from './common.ts'
import { ok, type RouteDef } from './route-def.ts'

export const DataExportState = Type.Union([
  Type.Literal('preparing'),
  Type.Literal('ready'),
  Type.Literal('failed'),
  Type.Literal('expired'),
])
export type DataExportState = Static<typeof DataExportState>

export const DataExport = Type.Object({
  id: Id,
  state: DataExportState,
  /** 0 to 100, while it is prepared (100 once ready). */
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  createdAt: DateTime,
  readyAt: Nullable(DateTime),
  /** Until when the ZIP may be downloaded (ready), or could have been (expired). */
  expiresAt: Nullable(DateTime),
  /** The ZIP's size in bytes and how many letters it holds, once ready. */
  bytes: Nullable(Type.Integer({ minimum: 0 })),
  letters: Nullable(Type.Integer({ minimum: 0 })),
  /** The ZIP's address on this API while it may be downloaded, else null. */
  file: Nullable(Type.String()),
})
export type DataExport = Static<typeof DataExport>

export const DataExportFile = Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary' })

export const peopleExportRoutes = {
  startDataExport: {
    method: 'POST',
    path: '/api-protected/users/me/data-exports',
    auth: 'apiToken',
    tags: ['Compte'],
    summary:
      '« Mes données »: prepare the ZIP of everything the person sees (letters, invoices, certificates, contracts, their data as JSON and CSV) ' +
      'as a background job; one being prepared already is answered instead. An e-mail says when it is ready.',
    schema: { response: ok(DataExport) },
    perUserHourly: 10,
  },

  dataExports: {
    method: 'GET',
    path: '/api-protected/users/me/data-exports',
    auth: 'apiToken',
    tags: ['Compte'],
    summary: "The person's latest exports, newest first (at most 5).",
    schema: { response: ok(Type.Array(DataExport)) },
  },

  dataExport: {
    method: 'GET',
    path: '/api-protected/users/me/data-exports/{id}',
    auth: 'apiToken',
    tags: ['Compte'],
    summary: "One of the person's exports: its state and progress (404 for anyone else's).",
    schema: { params: IdParams, response: ok(DataExport) },
  },

  dataExportFile: {
    method: 'GET',
    path: '/api-protected/users/me/data-exports/{id}/file',
    auth: 'apiToken',
    kind: 'file',
    fileType: 'application/zip',
    tags: ['Compte'],
    summary: 'The ZIP, streamed: to the person who asked only (404 for anyone else), 409 while prepared, 410 after its 7 days.',
    schema: { params: IdParams, response: ok(DataExportFile) },
  },
} as const satisfies Record<string, RouteDef>
