// uvu's closing summary read from a run's output, and what uvu 0.5 leaves unsaid: a suite whose before() threw never
// runs its tests, prints (0 / N) in green and exits 0. Tests that neither passed nor were skipped are counted here, so
// that such a suite can never pass by not running (scripts/run-tests.mjs, scripts/uvu.mjs).

import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * The node arguments of every test process (scripts/uvu.mjs, scripts/run-tests.mjs): scripts/uvu-before-errors.mjs, which
 * prints the error of a suite's before() that uvu drops, then tsx.
 */
export const TEST_NODE_ARGS = ['--import', pathToFileURL(join(import.meta.dirname, 'uvu-before-errors.mjs')).href, '--import', 'tsx']

// eslint-disable-next-line no-control-regex
const plain = (text) => text.replace(/\u001b\[[0-9;]*m/g, '')
const count = (text, label) => Number(plain(text).match(new RegExp(`^\\s*${label}:\\s+(\\d+)`, 'm'))?.[1] ?? 0)

/** Total, passed and skipped as uvu printed them; `unrun`: the tests of a run that exited 0 yet never ran. */
export function uvuSummary(output, code) {
  const total = count(output, 'Total')
  const passed = count(output, 'Passed')
  const skipped = count(output, 'Skipped')
  // A run that crashed before uvu's summary counts as one failure, whatever it printed.
  const failed = code === 0 ? total - passed - skipped : Math.max(1, total - passed - skipped)
  return { total, passed, skipped, failed, unrun: code === 0 && failed > 0 ? failed : 0, empty: code === 0 && total === 0 }
}

/** A run of no test at all passes in uvu: a suite never `.run()`, or a file whose tests all moved away. */
export const emptyMessage = '[tests] aucun test lancé : une suite sans `.run()`, ou un fichier qui n’en déclare aucun.'

export const unrunMessage = (unrun) =>
  `[tests] ${unrun} test(s) jamais lancés : le before() d’une suite a échoué (son erreur est affichée plus haut).`

/** The line that closes a file's output in a shared test process (scripts/test-worker.mjs): this marker, then its exit code. */
export const WORKER_DONE = '[test-worker] fin du fichier, code'

/**
 * Written in a server test file's source: with STORAGE_URL set (bash scripts/with-s3.sh …), that file's apps store on
 * the S3 server; every other file runs on the directory store all the same (STORAGE_URL taken out of its environment):
 * those read or damage STORAGE_DIR's files themselves, and the store is one layer, tested apart from the database's.
 */
export const ON_S3 = 'tests: on S3 too'

/** The environment a test file runs in: STORAGE_URL only for a file marked ON_S3 (`s3Url`: the run's own). */
export function storageEnvFor(source, env, s3Url) {
  if (!s3Url) return env
  if (source.includes(ON_S3)) env.STORAGE_URL = s3Url
  else delete env.STORAGE_URL
  return env
}
