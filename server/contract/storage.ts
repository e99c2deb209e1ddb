// Operations: the stored files checked against their rows (npm run storage:check, services/storage-check.ts), through
// the running server when it holds the embedded database (the command cannot open it then).
import { Type, type Static } from 'typebox'
import { ok, type RouteDef } from './route-def.ts'

const Places = Type.Array(Type.String(), { description: 'The columns pointing at the file (`table.column`).' })

export const StorageReport = Type.Object({
  referenced: Type.Integer({ description: 'Files the rows point at.' }),
  verified: Type.Integer({ description: 'Of those, read and compared with the size and SHA-256 recorded when written.' }),
  missing: Type.Array(Type.Object({ key: Type.String(), where: Places })),
  damaged: Type.Array(Type.Object({ key: Type.String(), where: Places, detail: Type.String() })),
  unrecorded: Type.Array(Type.String(), { description: 'Present, written before sizes and checksums were recorded.' }),
  recorded: Type.Integer({ description: 'Of the unrecorded, those whose size and SHA-256 this check recorded (recordMissing).' }),
  orphans: Type.Array(Type.String(), {
    description: 'Objects no row points at: left by a crash, removed by the server’s sweep a quarter of an hour after they were written.',
  }),
})
export type StorageReport = Static<typeof StorageReport>

export const storageRoutes = {
  operatorStorageCheck: {
    method: 'POST',
    path: '/api/operator/storage-checks',
    auth: 'operator',
    tags: ['Exploitation'],
    summary:
      'Reads every stored file the rows point at and compares it with its recorded size and SHA-256, then lists the objects no row ' +
      'points at; `recordMissing` records the files written before checksums were. Journaled.',
    schema: {
      body: Type.Object({ recordMissing: Type.Boolean({ default: false }) }, { additionalProperties: false }),
      response: ok(StorageReport),
    },
  },
} as const satisfies Record<string, RouteDef>
