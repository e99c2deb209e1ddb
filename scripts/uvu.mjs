// uvu's own command (`node --import tsx node_modules/uvu/bin.js …`, the same arguments), its output shown as it comes,
// failing when tests never ran although uvu exited 0 (a suite whose before() threw: scripts/uvu-summary.mjs).
//   node scripts/uvu.mjs test/views '\.test\.tsx?$' [-i REGEX]
import { spawn } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'
import { emptyMessage, unrunMessage, uvuSummary } from './uvu-summary.mjs'

const uvu = join(import.meta.dirname, '..', 'node_modules', 'uvu', 'bin.js')
/** Prints the error of a suite's before(), which uvu drops. */
const beforeErrors = pathToFileURL(join(import.meta.dirname, 'uvu-before-errors.mjs')).href
const child = spawn(process.execPath, ['--import', beforeErrors, '--import', 'tsx', uvu, ...process.argv.slice(2)], {
  stdio: ['inherit', 'pipe', 'pipe'],
})
let output = ''
child.stdout.on('data', (chunk) => {
  output += chunk
  process.stdout.write(chunk)
})
child.stderr.on('data', (chunk) => {
  output += chunk
  process.stderr.write(chunk)
})
child.on('close', (code, signal) => {
  const { unrun, empty } = uvuSummary(output, code)
  if (unrun) console.error(unrunMessage(unrun))
  if (empty) console.error(emptyMessage)
  process.exitCode = unrun || empty ? 1 : (code ?? (signal ? 1 : 0))
})
