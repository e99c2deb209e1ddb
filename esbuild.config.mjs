// Builds the SPA into dist/: hashed, code-split ES modules under dist/assets and dist/index.html; a
// production build also writes the page of each kind of route and dist/pages.json (writePages). The back office
// (src/backoffice/main.tsx) is a second build of its own into dist/assets/backoffice/ and dist/operateur.html: it shares
// no chunk with the customer portal, so a customer never downloads a byte of it (scripts/size.mjs checks both).
//   node esbuild.config.mjs            build once (production)
//   node esbuild.config.mjs --watch    rebuild on change (npm run dev)
// Build-time configuration: BRAND_NAME (the provider's name), API_BASE_URL (default: same origin).
import * as esbuild from 'esbuild'
import { createHash } from 'node:crypto'
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { brotliCompress, constants as zlib, gzip } from 'node:zlib'

const root = dirname(fileURLToPath(import.meta.url))
const execFileAsync = promisify(execFile)
export const outdir = join(root, 'dist')
export const DEFAULT_BRAND_NAME = 'Domicilium'

export function buildConfig(env = process.env) {
  return {
    brandName: env.BRAND_NAME || DEFAULT_BRAND_NAME,
    apiBaseUrl: env.API_BASE_URL || '',
  }
}

/** Asks V8 to compile the whole file eagerly, off the main thread (https://v8.dev/blog/explicit-compile-hints). */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad'

/** esbuild's options; production builds carry no source map (they would publish the sources). */
export function buildOptions(config, { dev = false } = {}) {
  return {
    absWorkingDir: root,
    entryPoints: ['src/main.tsx'],
    outdir: join(outdir, 'assets'),
    publicPath: '/assets',
    bundle: true,
    splitting: true,
    format: 'esm',
    target: ['es2022', 'chrome111', 'safari16.4', 'firefox115'],
    jsx: 'automatic',
    minify: !dev,
    sourcemap: dev ? 'linked' : false,
    metafile: true,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    assetNames: 'media/[name]-[hash]',
    loader: { '.svg': 'file', '.png': 'file', '.webp': 'file' },
    legalComments: 'none',
    // V8's explicit compile hint (Chrome 136+, a comment elsewhere): every function of the file is compiled while
    // the file streams in, on a background thread, instead of on the main thread at its first call. Nearly all the
    // code a page loads runs as it starts (React's renderer, the shell, its flows), and the dashboard's main-thread
    // compile time halves with it (docs/BENCHMARKS.md, Historique). Must be the file's first line.
    ...(dev ? {} : { banner: { js: COMPILE_HINT } }),
    logLevel: 'warning',
    define: {
      'process.env.NODE_ENV': JSON.stringify(dev ? 'development' : 'production'),
      __BRAND_NAME__: JSON.stringify(config.brandName),
      __API_BASE_URL__: JSON.stringify(config.apiBaseUrl),
    },
  }
}

/** The back office: its entry, its page (served for /operateur and every path below it: server/http/spa.ts) and metafile. */
export const BACK_OFFICE = {
  entry: 'src/backoffice/main.tsx',
  template: 'operateur.html',
  page: 'operateur.html',
  metafile: 'backoffice-meta.json',
  /** Its files, apart from the portal's: dist/assets/backoffice/. */
  dir: 'backoffice',
}

/** The back office's esbuild options: the portal's, with its own entry, and its files in a folder of their own. */
export function backOfficeOptions(config, options = {}) {
  const base = buildOptions(config, options)
  return {
    ...base,
    entryPoints: [BACK_OFFICE.entry],
    outdir: join(outdir, 'assets', BACK_OFFICE.dir),
    publicPath: `/assets/${BACK_OFFICE.dir}`,
  }
}

/** Every chunk a chunk imports statically, directly or not (not itself). */
export function staticImports(metafile, file, seen = new Set()) {
  for (const imported of metafile.outputs[file].imports) {
    if (imported.kind !== 'import-statement' || seen.has(imported.path)) continue
    seen.add(imported.path)
    staticImports(metafile, imported.path, seen)
  }
  return [...seen]
}

/**
 * What a stored user's first signed-in screen runs besides the entry (src/views/signedIn.ts, preloadSignedIn), one module
 * imported lazily: the session, the HTTP client and the portal's startup, the flows that screen starts
 * (src/wiring/first-screen.ts), the dashboard layout and the dashboard page. The rest of the signed-in code (the areas'
 * other flows, the layout's parts the screen does not draw at once, every other page) comes once it has painted, or
 * with the first screen that needs it.
 */
export const FIRST_SCREEN = 'src/signed-in-first-screen.ts'
export const FIRST_SCREEN_SOURCES = [FIRST_SCREEN]

const STATIC_IMPORT = new Set(['import-statement', 'require-call'])
const LAYER_NAMESPACE = 'chunk-layer'

/**
 * esbuild puts each module in the chunk of the set of entry points (the entry and every module imported lazily) that
 * reach it by static imports: the first screen's modules, each shared with a different set of pages, came in about
 * forty small chunks (docs/SPEED.md), each a request before the greeting, and compressed apart. This plugin, for a
 * production build, makes those sets the same by adding static imports of what is already loaded when a lazily
 * loaded module runs, found by a first build (the metafile, without writing):
 * - every lazily loaded module imports the entry's imports (a module of its own, `chunk-layer:main`, which the entry
 *   imports first too): the entry has run before anything is loaded lazily, so nothing more is fetched or run, and
 *   the entry's static imports become one chunk;
 * - every lazily loaded module that only code loaded with or after the first screen's reaches (a page, a part of the
 *   layout) imports FIRST_SCREEN itself, which is always there before it runs (main.tsx waits for it before a
 *   signed-in page's first render, the login form loads it as soon as it is used);
 * - the others that share modules with the first screen (a public page, the toasts, an area's flows a public page
 *   uses: loaded without the first screen) import those shared modules, as one module (`chunk-layer:shared`),
 *   which FIRST_SCREEN imports too.
 * The first screen's code then comes in a few chunks: the entry's imports, what it shares with the public lazy modules,
 * the rest (scripts/size.mjs lists them, and fails past its budget of files). A package's module loaded
 * lazily gets the first import only; no module that the entry or FIRST_SCREEN imports statically is changed (that
 * would be a cycle). A development build (npm run dev) keeps esbuild's own chunks. Returns the plugin and what it found.
 */
export async function chunkLayers(config) {
  const { metafile } = await esbuild.build({ ...buildOptions(config), minify: false, write: false })
  const { inputs } = metafile
  const next = (source, dynamic) =>
    (inputs[source]?.imports ?? [])
      .filter((i) => !i.external && (STATIC_IMPORT.has(i.kind) || (dynamic && i.kind === 'dynamic-import')))
      .map((i) => i.path)
  /** The modules `start` reaches (itself first, then in the order they run: each after its imports), not entering `avoid`. */
  const reach = (start, { dynamic = false, avoid } = {}) => {
    const seen = new Set()
    const order = []
    const visit = (source) => {
      if (seen.has(source) || source === avoid) return
      seen.add(source)
      for (const imported of next(source, dynamic)) visit(imported)
      order.push(source)
    }
    visit(start)
    return order
  }
  const entry = 'src/main.tsx'
  const lazy = [
    ...new Set(
      Object.values(inputs).flatMap((i) => i.imports.filter((x) => x.kind === 'dynamic-import' && !x.external).map((x) => x.path)),
    ),
  ]
  const entryStatic = new Set(reach(entry))
  if (!lazy.includes(FIRST_SCREEN) || entryStatic.has(FIRST_SCREEN)) throw new Error(`${FIRST_SCREEN} is not only imported lazily`)
  const firstStatic = new Set(reach(FIRST_SCREEN))
  // What runs without the first screen: the entry and what it loads lazily, FIRST_SCREEN apart.
  const withoutFirstScreen = new Set(reach(entry, { dynamic: true, avoid: FIRST_SCREEN }))
  const isPackage = (source) => /(^|\/)node_modules\//.test(source)
  const outside = lazy.filter((source) => !entryStatic.has(source) && (source === FIRST_SCREEN || !firstStatic.has(source)))
  const changeable = outside.filter((source) => !isPackage(source))
  const afterFirstScreen = changeable.filter((source) => source !== FIRST_SCREEN && !withoutFirstScreen.has(source))
  const publicLazy = changeable.filter((source) => withoutFirstScreen.has(source))
  const publicReach = new Set(publicLazy.flatMap((source) => reach(source)))
  const shared = reach(FIRST_SCREEN).filter((source) => !entryStatic.has(source) && publicReach.has(source))
  const sharing = publicLazy.filter((source) => reach(source).some((module) => shared.includes(module)))
  // (A package's module loaded lazily imports the entry's imports too: esbuild's helpers then come with them.)
  const imports = new Map(outside.map((source) => [source, ['main']]))
  imports.set(entry, ['main'])
  imports.get(FIRST_SCREEN).push('shared')
  for (const source of afterFirstScreen) imports.get(source).push(FIRST_SCREEN)
  for (const source of sharing) imports.get(source).push('shared')
  const absolute = (source) => join(root, source)
  // (The packages' modules come with the sources that import them: a bare import of a package without side effects is
  // dropped by esbuild.)
  const layers = { main: next(entry, false), shared: shared.filter((source) => !isPackage(source)) }
  const byPath = new Map([...imports].map(([source, added]) => [absolute(source), added]))
  const loaders = { '.ts': 'ts', '.tsx': 'tsx', '.js': 'js', '.mjs': 'js' }
  const plugin = {
    name: 'chunk-layers',
    setup(build) {
      build.onResolve({ filter: /^chunk-layer:/ }, (args) => ({
        path: args.path.slice(LAYER_NAMESPACE.length + 1),
        namespace: LAYER_NAMESPACE,
      }))
      build.onLoad({ filter: /.*/, namespace: LAYER_NAMESPACE }, (args) => ({
        contents: layers[args.path].map((source) => `import ${JSON.stringify(absolute(source))}`).join('\n'),
        resolveDir: root,
        loader: 'js',
      }))
      build.onLoad({ filter: /\.(tsx?|m?js)$/ }, async (args) => {
        const added = byPath.get(args.path)
        if (!added) return undefined
        const loader = loaders[/\.\w+$/.exec(args.path)[0]]
        // On the module's first line, so that its own lines keep their numbers.
        const lines = added.map(
          (layer) => `import ${JSON.stringify(layer === FIRST_SCREEN ? absolute(layer) : `${LAYER_NAMESPACE}:${layer}`)};`,
        )
        return { contents: `${lines.join(' ')}${await readFile(args.path, 'utf8')}`, loader }
      })
    },
  }
  return { plugin, afterFirstScreen, shared, sharing }
}

/** The chunks of FIRST_SCREEN_SOURCES: each one's own, with every chunk it imports statically. */
export function firstScreenChunks(metafile) {
  const chunks = new Set()
  for (const source of FIRST_SCREEN_SOURCES) {
    const own = Object.keys(metafile.outputs).find((file) => file.endsWith('.js') && metafile.outputs[file].entryPoint === source)
    if (!own) throw new Error(`${source} is no chunk of its own: it is not imported lazily`)
    chunks.add(own)
    for (const imported of staticImports(metafile, own)) chunks.add(imported)
  }
  return [...chunks]
}

/** Writes dist/index.html pointing at the hashed entry, and a stamp that tells what was built from what, and how. */
async function writeIndex(metafile, config, mode) {
  const outputs = Object.entries(metafile.outputs)
  const entry = outputs.find(([, o]) => o.entryPoint === 'src/main.tsx')
  if (!entry) throw new Error('esbuild produced no entry for src/main.tsx')
  const url = (file) => '/' + relative(outdir, join(root, file)).split('\\').join('/')
  const template = await readFile(join(root, 'index.html'), 'utf8')
  // The chunks announced up front: the browser fetches them beside the entry instead of one level later.
  const announcing = (files) =>
    template
      .replace('/src/main.tsx', url(entry[0]))
      .replace(
        '<script type="module"',
        [...files.map((file) => `<link rel="modulepreload" href="${url(file)}" />`), '<script type="module"'].join('\n    '),
      )
  // The entry's static imports: the first paint of /login waits for them all.
  const entryImports = staticImports(metafile, entry[0])
  const html = announcing(entryImports)
  await writeFile(join(outdir, 'index.html'), html)
  if (mode === 'production') {
    // A signed-in route also runs its first screen's code at once (main.tsx, stored user): all of it, not level after
    // level, and nothing more (the rest waits for that screen's paint). At the entry's own priority: main.tsx holds the
    // first render for it (SIGNED_IN_CODE_WAIT_MS), so it is as render-critical as the entry. And the startup's first
    // calls leave from the page itself, before any script is fetched (earlyStartScript).
    const signedIn = announcing(
      [...new Set([...entryImports, ...firstScreenChunks(metafile)])].filter((file) => file !== entry[0]),
    ).replace('<link rel="modulepreload"', `${await earlyStartScript(config)}\n    <link rel="modulepreload"`)
    await writePages(config, html, signedIn)
  }
  await writeFile(join(outdir, 'build-stamp.json'), JSON.stringify({ ...config, mode, sources: await sourcesDigest() }, null, 2))
  await writeFile(join(outdir, 'meta.json'), JSON.stringify(metafile))
}

/**
 * Writes dist/operateur.html pointing at the back office's hashed entry and announcing the entry's static imports, and
 * its metafile (scripts/size.mjs reads it).
 */
async function writeBackOffice(metafile) {
  const entry = Object.entries(metafile.outputs).find(([, o]) => o.entryPoint === BACK_OFFICE.entry)
  if (!entry) throw new Error(`esbuild produced no entry for ${BACK_OFFICE.entry}`)
  const url = (file) => '/' + relative(outdir, join(root, file)).split('\\').join('/')
  const template = await readFile(join(root, BACK_OFFICE.template), 'utf8')
  const html = template
    .replace('/src/backoffice/main.tsx', url(entry[0]))
    .replace(
      '<script type="module"',
      [
        ...staticImports(metafile, entry[0]).map((file) => `<link rel="modulepreload" href="${url(file)}" />`),
        '<script type="module"',
      ].join('\n    '),
    )
  if (html === template) throw new Error(`${BACK_OFFICE.template} does not load /src/backoffice/main.tsx`)
  await writeFile(join(outdir, BACK_OFFICE.page), html)
  await writeFile(join(outdir, BACK_OFFICE.metafile), JSON.stringify(metafile))
}

/**
 * src/wiring/early-start.ts as an inline script for the signed-in page's head (under the response's CSP nonce): with a
 * stored user, the user and contracts leave while the HTML is parsed, not once the entry has been fetched and evaluated
 * (src/api/early.ts; the entry's own start is then a no-op).
 */
export async function earlyStartScript(config) {
  const result = await esbuild.build({
    ...buildOptions(config),
    entryPoints: ['src/wiring/early-start.ts'],
    outdir: undefined,
    publicPath: undefined,
    entryNames: undefined,
    chunkNames: undefined,
    assetNames: undefined,
    splitting: false,
    metafile: false,
    write: false,
    format: 'iife',
    outfile: 'early-start.js',
    loader: undefined,
    banner: undefined,
  })
  const code = result.outputFiles[0].text.trim()
  if (/<\/script|<!--/i.test(code)) throw new Error('early-start: the inline script would end the element early')
  return `<script nonce="__CSP_NONCE__">${code}</script>`
}

/** The pages drawn ahead for a signed-out visitor (src/prerender.tsx), each served by the server at its path. */
export const PRERENDERED = { '/login': 'login.html' }
/** The page of every route that is not public: index.html announcing the first signed-in screen's code too. */
export const SIGNED_IN_PAGE = 'signed-in.html'
/** Which page the server (server/http/spa.ts) sends for which path; a development build writes none (index.html everywhere). */
export const PAGES_MANIFEST = 'pages.json'

/**
 * Writes the pages of a production build and dist/pages.json, the server's list of which page is sent for which path:
 * the public routes (src/wiring/bare-pages.ts, learnt from src/prerender.tsx) get index.html, or the page drawn ahead for
 * them; every other route gets the signed-in page.
 * /login drawn ahead (dist/login.html): index.html with /login's markup in #root and goober's CSS in a style element
 * (the server puts the response's CSP nonce on it, as on the meta tag), so that /login paints with its HTML.
 * src/prerender.tsx is bundled for Node and run in a child process of its own (React and goober keep state, and
 * React's scheduler would keep this process alive).
 */
async function writePages(config, html, signedInHtml) {
  const dir = await mkdtemp(join(tmpdir(), 'portail-prerender-'))
  try {
    const bundle = join(dir, 'prerender.mjs')
    await esbuild.build({
      ...buildOptions(config),
      entryPoints: ['src/prerender.tsx'],
      outdir: undefined,
      publicPath: undefined,
      entryNames: undefined,
      chunkNames: undefined,
      assetNames: undefined,
      outfile: bundle,
      splitting: false,
      metafile: false,
      minify: false,
    })
    const script = `const { prerender, publicRoutes } = await import(${JSON.stringify(pathToFileURL(bundle).href)})
const pages = Object.fromEntries(${JSON.stringify(Object.keys(PRERENDERED))}.map((path) => [path, prerender(path)]))
process.stdout.write(JSON.stringify({ pages, publicRoutes }), () => process.exit(0))`
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], { maxBuffer: 16 * 1024 * 1024 })
    const { pages, publicRoutes } = JSON.parse(stdout)
    for (const [path, file] of Object.entries(PRERENDERED)) {
      // Drawn for a signed-out visitor, so served without the signed-in code: a public route.
      if (!publicRoutes.includes(path)) throw new Error(`prerender ${path}: not one of the public routes of src/wiring/bare-pages.ts`)
      const { html: markup, css } = pages[path]
      if (!markup.includes('<main') || !css || /<\//.test(css)) throw new Error(`prerender ${path}: rendu inattendu`)
      const page = html
        .replace('<div id="root"></div>', `<div id="root" data-prerendered="">${markup}</div>`)
        .replace('</head>', `  <style id="_goober" nonce="__CSP_NONCE__">${css}</style>\n  </head>`)
      if (!page.includes('data-prerendered')) throw new Error('index.html has no <div id="root"></div>')
      await writeFile(join(outdir, file), page)
    }
    await writeFile(join(outdir, SIGNED_IN_PAGE), signedInHtml)
    const manifest = {
      public: Object.fromEntries(publicRoutes.map((path) => [path, PRERENDERED[path] ?? 'index.html'])),
      signedIn: SIGNED_IN_PAGE,
    }
    await writeFile(join(outdir, PAGES_MANIFEST), JSON.stringify(manifest, null, 2))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** A digest of every input of the build: sources, index.html, this file and the lock file. */
export async function sourcesDigest() {
  const hash = createHash('sha256')
  const files = ['index.html', BACK_OFFICE.template, 'esbuild.config.mjs', 'package-lock.json', 'tsconfig.json']
  async function walk(dir) {
    for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      else files.push(path)
    }
  }
  await walk('src')
  await walk('server/contract')
  for (const file of files.sort()) {
    hash.update(file)
    hash.update(await readFile(join(root, file)).catch(() => ''))
  }
  return hash.digest('hex')
}

/** True when dist/ is missing or was built from other sources, another configuration, or for development (npm run dev). */
export async function isStale(config = buildConfig()) {
  try {
    const stamp = JSON.parse(await readFile(join(outdir, 'build-stamp.json'), 'utf8'))
    await stat(join(outdir, 'index.html'))
    for (const file of [...Object.values(PRERENDERED), SIGNED_IN_PAGE, PAGES_MANIFEST, BACK_OFFICE.page, BACK_OFFICE.metafile])
      await stat(join(outdir, file))
    return (
      stamp.mode !== 'production' ||
      stamp.brandName !== config.brandName ||
      stamp.apiBaseUrl !== config.apiBaseUrl ||
      stamp.sources !== (await sourcesDigest())
    )
  } catch {
    return true
  }
}

/** Smaller files gain nothing from compression (the server's own threshold, server/app.ts). */
export const PRECOMPRESS_MIN_BYTES = 1024

/**
 * Each asset of a production build also as `.br` (brotli at its best quality) and `.gz`, which the server sends as
 * they are (@fastify/static's preCompressed, server/http/spa.ts): the best ratio, paid once here rather than at
 * the lowest quality by the server's CPU on every request, in the middle of the page load that asked for them.
 */
export async function precompress(dir) {
  const brotli = promisify(brotliCompress)
  const gzipped = promisify(gzip)
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && /\.(js|css|svg)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
  await Promise.all(
    files.map(async (file) => {
      const bytes = await readFile(file)
      if (bytes.length < PRECOMPRESS_MIN_BYTES) return
      const params = {
        [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      }
      await writeFile(`${file}.br`, await brotli(bytes, { params }))
      await writeFile(`${file}.gz`, await gzipped(bytes, { level: zlib.Z_BEST_COMPRESSION }))
    }),
  )
}

export async function build(config = buildConfig()) {
  await rm(outdir, { recursive: true, force: true })
  await mkdir(outdir, { recursive: true })
  const { plugin } = await chunkLayers(config)
  const [result, backOffice] = await Promise.all([
    esbuild.build({ ...buildOptions(config), plugins: [plugin] }),
    esbuild.build(backOfficeOptions(config)),
  ])
  await writeBackOffice(backOffice.metafile)
  await writeIndex(result.metafile, config, 'production')
  await precompress(join(outdir, 'assets'))
  return result
}

export async function watch(config = buildConfig()) {
  await rm(outdir, { recursive: true, force: true })
  await mkdir(outdir, { recursive: true })
  const ctx = await esbuild.context({
    ...buildOptions(config, { dev: true }),
    plugins: [
      {
        name: 'index-html',
        setup(b) {
          b.onEnd(async (result) => {
            if (result.errors.length === 0 && result.metafile) {
              await writeIndex(result.metafile, config, 'development')
              console.log(`[build] ${new Date().toLocaleTimeString('fr-FR')} dist/ à jour`)
            }
          })
        },
      },
    ],
  })
  const backOffice = await esbuild.context({
    ...backOfficeOptions(config, { dev: true }),
    plugins: [
      {
        name: 'operateur-html',
        setup(b) {
          b.onEnd(async (result) => {
            if (result.errors.length === 0 && result.metafile) await writeBackOffice(result.metafile)
          })
        },
      },
    ],
  })
  await Promise.all([ctx.watch(), backOffice.watch()])
  return { dispose: () => Promise.all([ctx.dispose(), backOffice.dispose()]) }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--watch')) {
    await watch()
    console.log('[build] surveillance de src/ : reconstruction à chaque modification')
  } else {
    await build()
    console.log('[build] dist/ construit')
  }
}
