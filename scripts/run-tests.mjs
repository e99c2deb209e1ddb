// Runs uvu test files in parallel processes, each file in a process of its own, as many at once as the machine has
// cores (TEST_JOBS to choose): independent files take the machine's cores instead of one, and no file sees another's
// globals (happy-dom's window, a server's timers). Each file's output is printed whole once it ends, then a summary:
// every file's time, longest first, and the closing line 'N passed, N failed'. Exits non-zero if any file failed.
//   node scripts/run-tests.mjs test/server '\.test\.ts$' [--ignore REGEX] [--jobs N] [--shared-processes] [--on-s3]
// With STORAGE_URL (bash scripts/with-s3.sh …), only the files that say « tests: on S3 too » store on S3 (ON_S3,
// scripts/uvu-summary.mjs); `--on-s3` runs those files only.
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { emptyMessage, ON_S3, storageEnvFor, TEST_NODE_ARGS, unrunMessage, uvuSummary, WORKER_DONE } from './uvu-summary.mjs'

const root = join(import.meta.dirname, '..')
const uvu = join(root, 'node_modules', 'uvu', 'bin.js')
const worker = join(root, 'scripts', 'test-worker.mjs')
/** Written in a test file's source, it runs in a process of its own even with --shared-processes. */
const OWN_PROCESS = 'tests: a process of its own'
/**
 * Written in a test file's source: it never reaches DATABASE_URL (its servers and commands open embedded databases of
 * their own, or none), so a PostgreSQL run (DATABASE_URL set) leaves it out rather than run the same tests again.
 */
const EMBEDDED_ONLY = 'tests: the embedded database only'

function parseArgs(argv) {
  const options = {
    jobs: Number(process.env.TEST_JOBS) || availableParallelism(),
    ignore: undefined,
    shared: false,
    onS3: false,
    positional: [],
  }
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--jobs') options.jobs = Number(argv[++i])
    else if (argv[i] === '--shared-processes') options.shared = true
    else if (argv[i] === '--on-s3') options.onS3 = true
    else if (argv[i] === '--ignore') options.ignore = new RegExp(argv[++i])
    else options.positional.push(argv[i])
  }
  const [dir, pattern = '\\.test\\.tsx?$'] = options.positional
  if (!dir || !Number.isInteger(options.jobs) || options.jobs < 1) {
    console.error('usage : node scripts/run-tests.mjs DOSSIER [MOTIF] [--ignore MOTIF] [--jobs N] [--shared-processes] [--on-s3]')
    process.exit(2)
  }
  return { dir, pattern: new RegExp(pattern), ignore: options.ignore, jobs: options.jobs, shared: options.shared, onS3: options.onS3 }
}

/** The test files of a folder, the largest first: the longest files start first, so that no core idles at the end. */
function testFiles(dir, pattern, ignore) {
  return readdirSync(join(root, dir), { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((file) => pattern.test(file) && !ignore?.test(file))
    .sort((a, b) => statSync(join(root, b)).size - statSync(join(root, a)).size)
}

/** A test file's source, read once per run: its markers (ON_S3, EMBEDDED_ONLY, OWN_PROCESS) are looked up there. */
const sources = new Map()
const sourceOf = (file) => {
  if (!sources.has(file)) sources.set(file, readFileSync(join(root, file), 'utf8'))
  return sources.get(file)
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** One file in a process of its own, through uvu's own command (the file as the only match of its folder). */
function runFile(dir, file) {
  const started = Date.now()
  const name = relative(dir, file)
  return new Promise((resolve) => {
    let output = ''
    const env = storageEnvFor(sourceOf(file), { ...process.env }, s3Url)
    const child = testProcess(
      [uvu, dir, `^${escapeRegExp(name)}$`],
      (chunk) => {
        output += chunk
      },
      env,
    )
    child.on('close', (code, signal) => resolve(fileResult(file, output, code ?? signal, started)))
  })
}

/** A node process of the run (TEST_NODE_ARGS, the run's folder), its stdout and stderr given to `onOutput` as they come. */
function testProcess(args, onOutput, env = process.env) {
  const child = spawn(process.execPath, [...TEST_NODE_ARGS, ...args], { cwd: root, env: { ...env, TEST_RUN_DIR: runDir } })
  child.stdout.on('data', onOutput)
  child.stderr.on('data', onOutput)
  return child
}

/** A file's result from its output and how it ended (an exit code, or the signal that ended its process). */
function fileResult(file, output, code, started) {
  const { passed, failed, skipped, unrun, empty } = uvuSummary(output, typeof code === 'number' ? code : 1)
  let text = output
  if (unrun) text += `\n${unrunMessage(unrun)}\n`
  if (empty) text += `\n${emptyMessage}\n`
  const outcome = unrun ? 'tests non lancés' : empty ? 'aucun test' : code
  return { file, output: text, code: outcome, passed, failed, skipped, ms: Date.now() - started }
}

/**
 * `--shared-processes`: a process that runs the files it is given one after another (scripts/test-worker.mjs), so that
 * what every file pays before its first test is paid once per process. `next()` gives a file or undefined; each file's
 * result goes to `done`. A file that ends the process (a crash, process.exit) fails with what it printed, and the
 * next files go on in a new process.
 */
async function runShared(dir, next, done) {
  for (let file = next(); file; ) {
    let output = ''
    const child = testProcess([worker, dir], (chunk) => {
      output += chunk
    })
    let started = Date.now()
    const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)))
    const ended = () =>
      new Promise((resolve) => {
        const onData = () => {
          const at = output.indexOf(`\n${WORKER_DONE} `)
          if (at === -1) return
          const end = output.indexOf('\n', at + 1 + WORKER_DONE.length)
          if (end === -1) return
          child.stdout.off('data', onData)
          const code = Number(output.slice(at + 1 + WORKER_DONE.length, end))
          const text = output.slice(0, at)
          output = output.slice(end + 1)
          resolve({ code, text })
        }
        child.stdout.on('data', onData)
        exited.then((code) => {
          child.stdout.off('data', onData)
          resolve({ code: code === 0 ? 'processus arrêté' : code, text: output, crashed: true })
        })
        onData()
      })
    for (; file; file = next()) {
      started = Date.now()
      const finished = ended()
      child.stdin.write(`${file}\n`)
      const { code, text, crashed } = await finished
      done(fileResult(file, crashed ? `${text}\n[tests] le processus s’est arrêté pendant ce fichier (${code})\n` : text, code, started))
      if (crashed) {
        file = next()
        break
      }
    }
    child.stdin.end()
    await exited
  }
}

const { dir, pattern, ignore, jobs, shared, onS3 } = parseArgs(process.argv.slice(2))
/** The run's S3 server (with-s3.sh): given to the files marked ON_S3 only (the worker does the same for its files). */
const s3Url = process.env.STORAGE_URL?.trim() || undefined
const found = testFiles(dir, pattern, ignore).filter((file) => !onS3 || sourceOf(file).includes(ON_S3))
const embeddedOnly = process.env.DATABASE_URL ? found.filter((file) => sourceOf(file).includes(EMBEDDED_ONLY)) : []
const files = found.filter((file) => !embeddedOnly.includes(file))
if (embeddedOnly.length)
  console.log(`[tests] sans objet sur PostgreSQL (la base embarquée seulement, passés par npm test) : ${embeddedOnly.join(', ')}`)
if (files.length === 0) {
  console.error(`aucun fichier de test dans ${dir} pour ${pattern}`)
  process.exit(1)
}
// What the files of one run make once and share (the browser journeys' demo data, test/util/e2e.ts), removed at the end.
const runDir = process.env.TEST_RUN_DIR || mkdtempSync(join(tmpdir(), 'portail-tests-'))
if (!process.env.TEST_RUN_DIR) process.once('exit', () => rmSync(runDir, { recursive: true, force: true }))
const started = Date.now()
const queue = [...files]
const results = []
console.log(
  `[tests] ${files.length} fichiers de ${dir}, ${Math.min(jobs, files.length)} à la fois${shared ? ', dans des processus qui en lancent plusieurs' : ''}`,
)
const report = (result) => {
  results.push(result)
  const status = result.code === 0 ? 'ok' : `ÉCHEC (code ${result.code})`
  process.stdout.write(`\n──── ${result.file} : ${status}, ${(result.ms / 1000).toFixed(1)} s\n${result.output}`)
}
// A file that measures its own process (its memory) keeps a process of its own, even with --shared-processes: it says
// so with OWN_PROCESS in its source. Those run first.
const ownProcess = shared ? queue.filter((file) => sourceOf(file).includes(OWN_PROCESS)) : []
for (const file of ownProcess) queue.splice(queue.indexOf(file), 1)
await Promise.all(
  Array.from({ length: Math.min(jobs, files.length) }, async () => {
    for (let file = ownProcess.shift(); file; file = ownProcess.shift()) report(await runFile(dir, file))
    if (shared) return runShared(dir, () => queue.shift(), report)
    for (let file = queue.shift(); file; file = queue.shift()) report(await runFile(dir, file))
  }),
)
const sum = (key) => results.reduce((total, r) => total + r[key], 0)
const failedFiles = results.filter((r) => r.code !== 0)
console.log(`\n[tests] ${dir} : ${((Date.now() - started) / 1000).toFixed(1)} s en tout, ${jobs} à la fois ; par fichier :`)
for (const r of [...results].sort((a, b) => b.ms - a.ms))
  console.log(`  ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${r.file}${r.code === 0 ? '' : '  ÉCHEC'}`)
if (failedFiles.length) console.log(`[tests] en échec : ${failedFiles.map((r) => r.file).join(', ')}`)
// The failures again, at the end: a CI log often keeps only its end, and the files' outputs came long before.
for (const r of failedFiles) console.log(`\n[tests] ${r.file} :\n${failureLines(r.output).join('\n')}`)
console.log(`${sum('passed')} passed, ${sum('failed')} failed${sum('skipped') ? `, ${sum('skipped')} skipped` : ''}`)
process.exitCode = failedFiles.length ? 1 : 0

/** What a failed file's output says of its failures: uvu's FAIL blocks (and the errors around them), at most 80 lines. */
function failureLines(output) {
  const lines = output.replace(/\x1b\[[0-9;]*m/g, '').split('\n')
  const start = lines.findIndex((line) => /FAIL|Error|erreur|tests non lancés|aucun test/.test(line))
  const kept = (start === -1 ? lines.slice(-40) : lines.slice(start)).filter((line) => line.trim() !== '')
  return kept.length > 80 ? [...kept.slice(0, 80), `  … (${kept.length - 80} lignes de plus plus haut dans la sortie du fichier)`] : kept
}
