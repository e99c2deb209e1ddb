// One process that runs test files one after another, each as uvu's own command would run it alone (its suites queued
// at import, then uvu's exec, its summary printed): started by scripts/run-tests.mjs with `--shared-processes`, which
// sends it a file at a time. The server's test files spent about 6 s of a core each before their first test
// (tsx's loader, the server's modules, PGlite's WebAssembly compiled and warmed up, the migrated template read): paid
// once per process here instead of once per file. Everything a file writes (stdout and stderr) comes out on stdout, in
// order, followed by a line naming how the file ended, which the runner reads.
//   node --import ./scripts/uvu-before-errors.mjs --import tsx scripts/test-worker.mjs   (stdin: a file path per line)
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { relative, resolve } from 'node:path'
import { storageEnvFor, WORKER_DONE } from './uvu-summary.mjs'

// uvu queues the suites instead of running them at once (its CLI's mode): set before uvu is first imported.
globalThis.UVU_DEFER = 1
// One ordered stream: stderr's writes go to stdout (both synchronous on a pipe), so a file's errors stay within it.
process.stderr.write = process.stdout.write.bind(process.stdout)

const dir = process.argv[2] ?? '.'
/** The run's S3 server (with-s3.sh): each file gets it only if it says « tests: on S3 too » (scripts/uvu-summary.mjs). */
const s3Url = process.env.STORAGE_URL?.trim() || undefined
const uvu = await import('uvu')
// The server's tests on the embedded database: a server or command started on a new data directory copies the run's
// migrated database in instead of running initdb (PGLITE_TEMPLATE_DIR, server/db/connect.ts).
if (/(^|\/)test\/server\/?$/.test(dir) && !process.env.DATABASE_URL && process.env.TEST_RUN_DIR) {
  const { pgliteTemplateDir } = await import('../test/util/pglite-template.ts')
  process.env.PGLITE_TEMPLATE_DIR = await pgliteTemplateDir(process.env.TEST_RUN_DIR)
}

const lines = createInterface({ input: process.stdin })
for await (const line of lines) {
  const file = line.trim()
  if (!file) continue
  process.exitCode = undefined
  // As uvu's own command: one group named after the file, relative to the folder it was given.
  globalThis.UVU_QUEUE = [[relative(dir, file)]]
  globalThis.UVU_INDEX = 0
  try {
    storageEnvFor(readFileSync(file, 'utf8'), process.env, s3Url)
    await import(pathToFileURL(resolve(file)).href)
    await uvu.exec(false)
  } catch (error) {
    console.error(error)
    process.exitCode = 1
  }
  const code = process.exitCode ?? 0
  process.exitCode = undefined
  process.stdout.write(`\n${WORKER_DONE} ${code}\n`)
}
// No file left: whatever a file left running (a timer, a socket) does not keep the process.
process.exit(0)
