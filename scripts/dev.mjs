// npm run dev: rebuilds the SPA on every change (unminified, React's development build) and
// restarts the API server when server/ changes. Open http://localhost:8080/?inspect to follow the
// statecharts live in the Stately inspector.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { watch } from '../esbuild.config.mjs'

const root = join(import.meta.dirname, '..')
await watch()
const server = spawn(process.execPath, ['--watch', '--import', 'tsx', join(root, 'server', 'server.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { LOG_LEVEL: 'info', ...process.env },
})
console.log(`[dev] portail : http://localhost:${process.env.PORT || 8080}  (inspecteur : ajoutez ?inspect à l’adresse)`)
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code) => process.exit(code ?? 0))
