// npm run backup on the embedded database while the server runs: PGlite is one process, so the server that holds it
// dumps it (docs/BACKUPS.md); each dump is journaled with the key that asked for it. Asked from this machine only: the
// command runs beside the server (it finds it through DATA_DIR), and a machine's key taken elsewhere (a scanner's) must
// not carry every customer's data away.
import type { FastifyRequest } from 'fastify'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { conflict, HttpError } from '../../http/errors.ts'
import { recordJournal } from '../../db/repositories/operators-journal.ts'
import { fileHeaders } from '../files.ts'
import { machineOf } from '../operator-input.ts'

export const backupMessages = {
  postgres: 'La base est PostgreSQL : npm run backup la sauvegarde elle-même avec pg_dump, sans passer par le serveur.',
  notLocal: 'La sauvegarde de la base ne se demande que depuis la machine du serveur (npm run backup).',
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/
/** The peer and the client (behind a proxy of this machine, the address it forwards) are both this machine. */
const fromThisMachine = (req: FastifyRequest) => LOOPBACK.test(req.socket.remoteAddress ?? '') && LOOPBACK.test(req.ip)

export function backupRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, clock } = deps
  define('operatorBackupDatabase', async ({ req, reply }) => {
    if (!fromThisMachine(req)) throw new HttpError(403, backupMessages.notLocal, 'NOT_LOCAL')
    if (!deps.dumpDatabase) throw conflict(backupMessages.postgres)
    const dump = Buffer.from(await (await deps.dumpDatabase()).arrayBuffer())
    const now = clock.now()
    // After the dump, so that it is not in it; a dump that failed writes no row.
    await db.transaction().execute((tx) =>
      recordJournal(tx, {
        actor: machineOf(req),
        action: 'backup.database',
        summary: `Sauvegarde de la base embarquée (${(dump.length / 1e6).toLocaleString('fr-FR', { maximumFractionDigits: 1 })} Mo)`,
        at: now,
      }),
    )
    fileHeaders(reply, 'application/gzip', `base-${now.toISOString().slice(0, 10)}.tar.gz`, 'attachment')
    return dump
  })
}
