// uvu's own command (`node --import tsx node_modules/uvu/bin.js …`, the same arguments), its output shown as it comes,
// failing when tests never ran although uvu exited 0 (a suite whose before() threw: scripts/uvu-summary.mjs).
//   node scripts/uvu.mjs test/views '\.test\.tsx?$' [-i REGEX]
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { emptyMessage, TEST_NODE_ARGS, unrunMessage, uvuSummary } from './uvu-summary.mjs'

const uvu = join(import.meta.dirname, '..', 'node_modules', 'uvu', 'bin.js')
const child = spawn(process.execPath, [...TEST_NODE_ARGS, uvu, ...process.argv.slice(2)], {
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
