// npm start: runs the pre-built API server (dist-server/server.mjs, no TypeScript compiled at run time), which also
// serves the SPA (dist/). Either is built first only when missing or older than its sources; that check reads file
// times, not files, so a start on an up-to-date build costs a few milliseconds of it. The server runs in this very
// process and the npm script execs node (no shell in between): a SIGTERM to `npm start`, or to PID 1 in a container,
// reaches the server, which lets in-flight requests finish, closes the database and frees its lock.
//   PORTAL_NO_BUILD=1: never build (an image built beforehand); a missing dist-server/ is then an error.
import { existsSync } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { dirname, join, resolve } from 'node:path'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const noBuild = process.env.PORTAL_NO_BUILD === '1'

/** The newest modification time under these paths (files or folders). */
async function newest(paths) {
  let latest = 0
  async function visit(path) {
    const info = await stat(path).catch(() => null)
    if (!info) return
    if (info.isDirectory()) for (const entry of await readdir(path)) await visit(join(path, entry))
    else latest = Math.max(latest, info.mtimeMs)
  }
  for (const path of paths) await visit(join(root, path))
  return latest
}

/** The SPA's own check (a digest of every source) runs only when a source is newer than the build or the configuration changed. */
async function spaMayBeStale(buildConfig) {
  try {
    const stampPath = join(root, 'dist', 'build-stamp.json')
    const stamp = JSON.parse(await readFile(stampPath, 'utf8'))
    const config = buildConfig()
    if (stamp.mode !== 'production' || stamp.brandName !== config.brandName || stamp.apiBaseUrl !== config.apiBaseUrl) return true
    const builtAt = (await stat(stampPath)).mtimeMs
    return (
      (await newest([
        'src',
        'server/contract',
        'index.html',
        'operateur.html',
        'esbuild.config.mjs',
        'package-lock.json',
        'tsconfig.json',
      ])) > builtAt
    )
  } catch {
    return true
  }
}

if (!noBuild) {
  let esbuildUsed = false
  try {
    const { build, buildConfig, isStale, outdir } = await import('../esbuild.config.mjs')
    if (resolve(process.env.DIST_DIR || outdir) !== outdir) {
      // DIST_DIR points at a build made elsewhere: building here would not change what is served.
    } else if (!existsSync(join(root, 'src', 'main.tsx'))) {
      console.warn('[start] src/main.tsx est absent : l’interface ne peut pas être construite, seule l’API démarre.')
    } else if ((await spaMayBeStale(buildConfig)) && (await isStale())) {
      console.log('[start] construction de l’interface (dist/)…')
      esbuildUsed = true
      await build()
    }
  } catch (error) {
    console.error(
      '[start] la construction de l’interface a échoué, l’API démarre quand même :',
      error instanceof Error ? error.message : error,
    )
  }
  const { buildServer, isServerStale } = await import('../esbuild.server.mjs')
  if (existsSync(join(root, 'server', 'server.ts')) && (await isServerStale())) {
    console.log('[start] construction du serveur (dist-server/)…')
    esbuildUsed = true
    await buildServer()
  }
  if (esbuildUsed) await (await import('esbuild')).stop() // its service process would otherwise live as long as the server
}

// server.mjs listens and handles SIGINT/SIGTERM itself.
const { port, demo } = await import(pathToFileURL(join(root, 'dist-server', 'server.mjs')).href)
const url = `http://localhost:${port}`
console.log(`
  Espace client prêt : ${url}
  Documentation de l’API : ${url}/api/docs
${
  demo
    ? `
  Comptes de démonstration (mot de passe Demo1234!) :
    demo@example.com     Camille, quatre domiciliations (dont une partagée)
    associe@example.com  Julien, titulaire de Studio Nuage SAS
    solo@example.com     Sophie, une seule domiciliation
`
    : ''
}`)
