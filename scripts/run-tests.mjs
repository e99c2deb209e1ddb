// Runs uvu test files in parallel processes, each file in a process of its own, as many at once as the machine has
// cores (TEST_JOBS to choose): independent files take the machine's cores instead of one, and no file sees another's
// globals (happy-dom's window, a server's timers). Each file's output is printed whole once it ends, then a summary:
// every file's time, longest first, and the closing line 'N passed, N failed'. Exits non-zero if any file failed.
//   node scripts/run-tests.mjs test/server '\.test\.ts$' [--ignore REGEX] [--jobs N]
import { spawn } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { emptyMessage, unrunMessage, uvuSummary } from './uvu-summary.mjs'

const root = join(import.meta.dirname, '..')
const uvu = join(root, 'node_modules', 'uvu', 'bin.js')
/** Prints the error of a suite's before(), which uvu drops. */
const beforeErrors = pathToFileURL(join(root, 'scripts', 'uvu-before-errors.mjs')).href

function parseArgs(argv) {
  const options = { jobs: Number(process.env.TEST_JOBS) || availableParallelism(), ignore: undefined, positional: [] }
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--jobs') options.jobs = Number(argv[++i])
    else if (argv[i] === '--ignore') options.ignore = new RegExp(argv[++i])
    else options.positional.push(argv[i])
  }
  const [dir, pattern = '\\.test\\.tsx?$'] = options.positional
  if (!dir || !Number.isInteger(options.jobs) || options.jobs < 1) {
    console.error('usage : node scripts/run-tests.mjs DOSSIER [MOTIF] [--ignore MOTIF] [--jobs N]')
    process.exit(2)
  }
  return { dir, pattern: new RegExp(pattern), ignore: options.ignore, jobs: options.jobs }
}

/** The test files of a folder, the largest first: the longest files start first, so that no core idles at the end. */
function testFiles(dir, pattern, ignore) {
  return readdirSync(join(root, dir), { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((file) => pattern.test(file) && !ignore?.test(file))
    .sort((a, b) => statSync(join(root, b)).size - statSync(join(root, a)).size)
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** One file in a process of its own, through uvu's own command (the file as the only match of its folder). */
function runFile(dir, file) {
  const started = Date.now()
  const name = relative(dir, file)
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', beforeErrors, '--import', 'tsx', uvu, dir, `^${escapeRegExp(name)}$`], {
      cwd: root,
      env: { ...process.env, TEST_RUN_DIR: runDir },
    })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    child.on('close', (code, signal) => {
      const { passed, failed, skipped, unrun, empty } = uvuSummary(output, code)
      if (unrun) output += `\n${unrunMessage(unrun)}\n`
      if (empty) output += `\n${emptyMessage}\n`
      const outcome = unrun ? 'tests non lancés' : empty ? 'aucun test' : (code ?? signal)
      resolve({ file, output, code: outcome, passed, failed, skipped, ms: Date.now() - started })
    })
  })
}

const { dir, pattern, ignore, jobs } = parseArgs(process.argv.slice(2))
const files = testFiles(dir, pattern, ignore)
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
console.log(`[tests] ${files.length} fichiers de ${dir}, ${Math.min(jobs, files.length)} à la fois`)
await Promise.all(
  Array.from({ length: Math.min(jobs, files.length) }, async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const result = await runFile(dir, file)
      results.push(result)
      const status = result.code === 0 ? 'ok' : `ÉCHEC (code ${result.code})`
      process.stdout.write(`\n──── ${file} : ${status}, ${(result.ms / 1000).toFixed(1)} s\n${result.output}`)
    }
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
