// Builds the API server into dist-server/server.mjs, so that production (`npm start`) compiles no TypeScript at
// run time: our code and the pure-JavaScript packages bundled into one ES module (one file to read and compile
// instead of hundreds: Kysely alone is ~300 modules); the packages below stay imports from node_modules.
//   node esbuild.server.mjs     (part of `npm run build`)
import * as esbuild from 'esbuild'
import { copyFile, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = dirname(fileURLToPath(import.meta.url))

/**
 * Native or WebAssembly (PGlite, argon2, canvas, tesseract, pg's optional native binding), or reading files beside their own code (Swagger
 * UI's page, pino's worker transports, unpdf's worker). The AWS SDK (services/storage-s3.ts): bundled, its CommonJS entry's exports
 * come out empty through a dynamic import (`S3Client is not a constructor`, test/cluster); Node's own import of it gives them, and a
 * server on the directory store never reads it.
 */
export const externalPackages = [
  '@electric-sql/pglite',
  '@node-rs/argon2',
  '@napi-rs/canvas',
  'tesseract.js',
  '@tesseract.js-data/*',
  'pg',
  'pg-native',
  'pino',
  '@fastify/swagger-ui',
  'unpdf',
  'esbuild',
  '@aws-sdk/*',
]
export const serverOutdir = join(root, 'dist-server')
export const serverEntry = join(serverOutdir, 'server.mjs')
const templateDir = 'pglite-template'

/** Every source file the bundle is made of (server/, and the SPA's shared rules it imports), with its modification time. */
async function sourceTimes() {
  const times = []
  async function walk(dir) {
    for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      else times.push((await stat(join(root, path))).mtimeMs)
    }
  }
  await walk('server')
  for (const file of ['esbuild.server.mjs', 'package-lock.json']) times.push((await stat(join(root, file))).mtimeMs)
  return times
}

/** True when dist-server/ is missing or older than a source: stat() only, no file is read (a few ms at start). */
export async function isServerStale() {
  try {
    const stamp = JSON.parse(await readFile(join(serverOutdir, 'build-stamp.json'), 'utf8'))
    await stat(serverEntry)
    return (await sourceTimes()).some((time) => time > stamp.builtAt)
  } catch {
    return true
  }
}

/** outdir: elsewhere than dist-server/ (the test that runs the built server builds into a temp dir). */
export async function buildServer({ outdir = serverOutdir } = {}) {
  const builtAt = Date.now()
  await rm(outdir, { recursive: true, force: true })
  await mkdir(outdir, { recursive: true })
  const result = await esbuild.build({
    absWorkingDir: root,
    // The upload check's PDF reading runs on a worker thread (server/services/pdf-check-thread.ts), the letters' rendering
    // in a child process (letter-render-process.ts): an entry of its own each.
    entryPoints: {
      server: 'server/server.ts',
      template: 'server/db/template.ts',
      'pdf-check-worker': 'server/services/pdf-check-worker.ts',
      'letter-render-child': 'server/services/letter-render-child.ts',
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // What main.ts imports only when configured (Stripe's SDK, nodemailer) goes to chunks of its own, never
    // compiled by a start without it.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: externalPackages,
    // The bundled CommonJS packages call require() for Node's modules: an ES module has none of its own.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
    define: {
      __COMMON_PASSWORDS_FILE__: JSON.stringify('common-passwords.txt'),
      __PGLITE_TEMPLATE_DIR__: JSON.stringify(templateDir),
      __PDF_CHECK_WORKER__: JSON.stringify('./pdf-check-worker.mjs'),
      __LETTER_RENDER_CHILD__: JSON.stringify('./letter-render-child.mjs'),
    },
  })
  // The migrated empty database a first start loads instead of running initdb (server/db/template.ts).
  const { writeTemplate } = await import(pathToFileURL(join(outdir, 'template.mjs')).href)
  await writeTemplate(join(outdir, templateDir))
  await copyFile(join(root, 'server/data/common-passwords.txt'), join(outdir, 'common-passwords.txt'))
  await writeFile(join(outdir, 'build-stamp.json'), JSON.stringify({ builtAt, inputs: Object.keys(result.metafile.inputs).length }))
  return result
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildServer()
  console.log('[build] dist-server/ construit')
}
