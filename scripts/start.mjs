// npm start: builds the SPA when dist/ is missing or stale, then runs the API server that also serves it, in this
// very process. The npm script execs node (no shell in between): a SIGTERM to `npm start`, or to PID 1 in a
// container, reaches the server, which lets in-flight requests finish, closes the database and frees its lock.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { dirname, join, resolve } from 'node:path'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

try {
  const { build, isStale, outdir } = await import('../esbuild.config.mjs')
  if (resolve(process.env.DIST_DIR || outdir) !== outdir) {
    // DIST_DIR points at a build made elsewhere: building here would not change what is served.
  } else if (!existsSync(join(root, 'src', 'main.tsx'))) {
    console.warn('[start] src/main.tsx est absent : l’interface ne peut pas être construite, seule l’API démarre.')
  } else if (await isStale()) {
    console.log('[start] construction de l’interface (dist/)…')
    await build()
    await (await import('esbuild')).stop() // its service process would otherwise live as long as the server
  }
} catch (error) {
  console.error('[start] la construction de l’interface a échoué, l’API démarre quand même :', error instanceof Error ? error.message : error)
}

// As `node --import tsx`: TypeScript from here on. server.ts listens and handles SIGINT/SIGTERM itself.
await import('tsx')
const { port } = await import('../server/server.ts')
const url = `http://localhost:${port}`
console.log(`
  Espace client prêt : ${url}
  Documentation de l’API : ${url}/api/docs

  Comptes de démonstration (mot de passe Demo1234!) :
    demo@example.com     Camille, quatre domiciliations (dont une partagée)
    associe@example.com  Julien, titulaire de Studio Nuage SAS
    solo@example.com     Sophie, une seule domiciliation
`)
