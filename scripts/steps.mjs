// Runs npm scripts in lanes: the scripts of a lane one after another, the lanes side by side. Each script's output is
// printed whole once it ends, then every script's time; the first failure stops its lane, the others finish, and
// the run fails. `npm test` runs its short single-process steps (type check, linter, import rules, diagrams, machines,
// domain, API client) in one lane beside the view tests, instead of all of them in a row on one core of two.
//   node scripts/steps.mjs typecheck,lint,deps test:views   (two lanes)
import { spawn } from 'node:child_process'

const lanes = process.argv.slice(2).map((lane) => lane.split(',').filter(Boolean))
if (lanes.length === 0 || lanes.some((lane) => lane.length === 0)) {
  console.error('usage : node scripts/steps.mjs script,script… [script,script…]…')
  process.exit(2)
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const times = []

/** One npm script, its output kept until it ends. */
function run(script) {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' } })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    child.on('close', (code, signal) => {
      const ms = Date.now() - started
      times.push({ script, ms, ok: code === 0 })
      process.stdout.write(
        `\n──── npm run ${script} : ${code === 0 ? 'ok' : `ÉCHEC (code ${code ?? signal})`}, ${(ms / 1000).toFixed(1)} s\n${output}`,
      )
      resolve(code === 0)
    })
  })
}

const started = Date.now()
const results = await Promise.all(
  lanes.map(async (lane) => {
    for (const script of lane) if (!(await run(script))) return false
    return true
  }),
)
console.log(`\n[étapes] ${((Date.now() - started) / 1000).toFixed(1)} s en tout, ${lanes.length} à la fois :`)
for (const { script, ms, ok } of times) console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  npm run ${script}${ok ? '' : '  ÉCHEC'}`)
process.exitCode = results.every(Boolean) ? 0 : 1
