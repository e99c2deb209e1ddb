// npm start: builds the SPA when dist/ is missing or stale, then starts the API server that also serves it.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const port = Number(process.env.PORT || 8080)

try {
  const { build, isStale } = await import('../esbuild.config.mjs')
  if (!existsSync(join(root, 'src', 'main.tsx'))) {
    console.warn('[start] src/main.tsx est absent : l’interface ne peut pas être construite, seule l’API démarre.')
  } else if (await isStale()) {
    console.log('[start] construction de l’interface (dist/)…')
    await build()
  }
} catch (error) {
  console.error('[start] la construction de l’interface a échoué, l’API démarre quand même :', error instanceof Error ? error.message : error)
}

const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'server.ts')], {
  cwd: root,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: process.env,
})
child.on('message', (message) => {
  if (!message?.ready) return
  const url = `http://localhost:${message.port ?? port}`
  console.log(`
  Espace client prêt : ${url}
  Documentation de l’API : ${url}/api/docs

  Comptes de démonstration (mot de passe Demo1234!) :
    demo@example.com     Camille, quatre domiciliations (dont une partagée)
    associe@example.com  Julien, titulaire de Studio Nuage SAS
    solo@example.com     Sophie, une seule domiciliation
`)
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
