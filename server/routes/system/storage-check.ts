// POST /api/operator/storage-checks: npm run storage:check done by the running server, for when it holds the embedded
// database (scripts/storage-check.ts goes through it then). Journaled, with what it found.
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { recordJournal } from '../../db/repositories/operators-journal.ts'
import { openObjectStore } from '../../services/open-storage.ts'
import { checkStorage, storageLost } from '../../services/storage-check.ts'
import { machineOf } from '../operator-input.ts'

export function storageCheckRoutes(define: DefineRoute, deps: AppDeps) {
  define('operatorStorageCheck', async ({ body, req }) => {
    const report = await checkStorage({ db: deps.db, objects: openObjectStore(deps.config), recordMissing: body.recordMissing })
    await deps.db.transaction().execute((trx) =>
      recordJournal(trx, {
        actor: machineOf(req),
        action: 'storage.checked',
        summary:
          `Vérification des fichiers : ${report.referenced} référencés, ${report.missing.length} manquants, ` +
          `${report.damaged.length} endommagés, ${report.orphans.length} orphelins` +
          (report.recorded ? `, ${report.recorded} empreintes enregistrées` : '') +
          (storageLost(report) ? ' (PERTE)' : ''),
        after: { missing: report.missing.map((m) => m.key), damaged: report.damaged.map((d) => d.key) },
        at: deps.clock.now(),
      }),
    )
    return report
  })
}
