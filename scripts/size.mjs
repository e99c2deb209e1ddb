// Prints every output chunk's size (raw, gzip, brotli) and the first-load JavaScript of /login and
// of a stored user's dashboard, from the build's metafile; fails when a budget is passed (deterministic:
// bytes, not time). The same for the back office (its own build: dist/backoffice-meta.json), with its own budgets, and
// proof that no back-office module reaches a customer's page. Run after a build: `npm run size` builds first.
import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib'
import { BACK_OFFICE, COMPILE_HINT, FIRST_SCREEN, FIRST_SCREEN_SOURCES, PRECOMPRESS_MIN_BYTES } from '../esbuild.config.mjs'

export const BUDGETS = {
  /** First-load JavaScript of /login, gzip (issue: React + react-dom alone are about 69 KB). */
  loginFirstLoadGzip: 93 * 1000,
  /** Each lazily loaded route chunk, gzip. */
  routeChunkGzip: 20 * 1000,
  /**
   * What a stored user's signed-in page fetches before its first screen (the greeting, on the dashboard): the entry,
   * its imports and that screen's code (FIRST_SCREEN_SOURCES), everything dist/signed-in.html announces, gzip. Just
   * above what it is (126.8 kB, React and react-dom about 69 kB of it, xstate 13 kB), so that the first screen’s code
   * does not grow unseen; the goal of 110 kB is not reached (docs/BENCHMARKS.md, docs/SPEED.md).
   */
  signedInFirstScreenGzip: 127 * 1000,
  /**
   * How many files that is: each a request before the greeting, compressed apart. The first screen's code is one module
   * loaded lazily, and the build makes it a few chunks with the entry's imports (esbuild.config.mjs, chunkLayers): 6
   * files, where it was 45 (and about 10 kB of gzip more for the same code, compressed in pieces).
   */
  signedInFirstScreenFiles: 6,
  /**
   * The password strength estimator (server/contract/rules/password-strength.ts: zxcvbn-ts and its dictionaries), a
   * chunk of its own that only the password forms load, when they are shown: not a route, no page waits for it.
   */
  passwordStrengthGzip: 780 * 1000,
  /** The back office's first load (/operateur/connexion, and any page's shell): its entry and its static imports, gzip. */
  backOfficeFirstLoadGzip: 120 * 1000,
  /** Each lazily loaded chunk of the back office (a page, a section's piece), gzip. */
  backOfficeRouteChunkGzip: 25 * 1000,
}

/** Where the back office's sources live: none of them may reach a customer's chunk. */
export const BACK_OFFICE_SOURCES = /^src\/backoffice\//

/** The strength estimator's module: only ever imported lazily, alone in its chunk with zxcvbn-ts. */
export const PASSWORD_STRENGTH = 'server/contract/rules/password-strength.ts'

/** The startup's first calls inlined in the signed-in page (src/wiring/early-start.ts): part of every signed-in page's HTML. */
const EARLY_START_MAX_GZIP = 1500

/**
 * The areas whose flows src/wiring/flows.ts imports lazily, each src/wiring/<area>.ts: each must stay a chunk of its
 * own (none in another's chunk, in the entry or in a shared chunk), within the route-chunk budget, so that a page
 * waits only for its own area's code and an area's growth never passes another's budget.
 */
export const FLOW_AREAS = ['firstScreen', 'session', 'mail', 'billing', 'people', 'company', 'notifications']

/** The flows the first signed-in screen starts (src/wiring/first-screen.ts): the only ones dist/signed-in.html may announce. */
export const FIRST_SCREEN_FLOWS = ['firstScreen']
/** Each flow group's module: src/wiring/<area>.ts, the first screen's src/wiring/first-screen.ts. */
export const flowSource = (area) => `src/wiring/${area === 'firstScreen' ? 'first-screen' : area}.ts`

const FLOWS = 'src/wiring/flows.ts'
const ENTRY = 'src/main.tsx'

/** The login form's module: it must be in the entry's static imports, never a chunk of its own. */
export const LOGIN_PAGE = 'src/views/pages/session/LoginPage.tsx'

const root = join(import.meta.dirname, '..')
const dist = join(root, 'dist')

export function analyse() {
  const meta = JSON.parse(readFileSync(join(dist, 'meta.json'), 'utf8'))
  const outputs = Object.entries(meta.outputs).filter(([file]) => file.endsWith('.js'))
  const sizes = new Map()
  for (const [file] of outputs) {
    const bytes = readFileSync(join(root, file))
    sizes.set(file, {
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    })
  }
  const byEntry = (source) => outputs.find(([, o]) => o.entryPoint === source)?.[0]
  /** A chunk and every chunk it imports statically: what loads before it can run. */
  function closure(file, seen = new Set()) {
    if (!file || seen.has(file)) return seen
    seen.add(file)
    for (const imp of meta.outputs[file].imports) if (imp.kind === 'import-statement') closure(imp.path, seen)
    return seen
  }
  const total = (files) =>
    [...files].reduce(
      (sum, f) => ({ raw: sum.raw + sizes.get(f).raw, gzip: sum.gzip + sizes.get(f).gzip, brotli: sum.brotli + sizes.get(f).brotli }),
      { raw: 0, gzip: 0, brotli: 0 },
    )
  const main = byEntry('src/main.tsx')
  const lazyChunks = outputs.filter(([, o]) => o.entryPoint && o.entryPoint !== 'src/main.tsx').map(([f]) => f)
  // The login form is part of the entry (src/views/pages/session/bare.ts): /login paints from it alone.
  const login = closure(main)
  // The first signed-in screen's code (src/views/signedIn.ts): the session and the HTTP client, the portal's startup,
  // the dashboard's flows, the dashboard layout and page; /login fetches it once its form is used, a stored user's
  // page at once (announced by dist/signed-in.html).
  const signedIn = new Set(FIRST_SCREEN_SOURCES.flatMap((source) => [...closure(byEntry(source))]))
  const firstScreen = new Set([...login, ...signedIn])
  const firstLoad = {
    // What /login needs before it paints and answers: the budget.
    '/login': total(login),
    // A stored user's dashboard: everything fetched before the greeting.
    '/tableau-de-bord': total(firstScreen),
  }
  const html = readFileSync(join(dist, 'index.html'), 'utf8')
  const entryImports = [...login].filter((file) => file !== main)
  return {
    prerendered: prerenderedLogin(),
    sizes,
    main,
    lazyChunks,
    firstLoad,
    meta,
    firstScreenSources: FIRST_SCREEN_SOURCES,
    firstScreenFiles: [...firstScreen].sort((a, b) => sizes.get(b).gzip - sizes.get(a).gzip),
    firstScreenExtras: firstScreenExtras(meta, [...firstScreen]),
    flowAreas: flowAreas(
      meta,
      sizes,
      [...signedIn].filter((file) => !login.has(file)),
    ),
    passwordStrength: passwordStrengthChunk(meta, outputs, sizes),
    loginInEntry: [...login].some((file) => LOGIN_PAGE in meta.outputs[file].inputs),
    // The entry's static imports that dist/index.html does not announce with <link rel="modulepreload">.
    unannounced: entryImports.filter((file) => !html.includes(`href="/${relative('dist', file)}"`)),
    pages: pagesProblems(
      entryImports,
      [...firstScreen].filter((file) => file !== main),
    ),
    // The first-load files without V8's compile hint as their first line (esbuild.config.mjs, COMPILE_HINT).
    unhinted: [...firstScreen].filter((file) => !readFileSync(join(root, file), 'utf8').startsWith(`${COMPILE_HINT}\n`)),
    // The JavaScript files of PRECOMPRESS_MIN_BYTES or more without their .br and .gz (esbuild.config.mjs, precompress), or with stale
    // ones.
    unprecompressed: outputs
      .map(([file]) => file)
      .filter((file) => sizes.get(file).raw >= PRECOMPRESS_MIN_BYTES && !precompressed(join(root, file))),
  }
}

/**
 * What the first signed-in screen's files hold that it does not draw: a lazily loaded module (a page, a flows area,
 * a part of the layout, the toasts) other than FIRST_SCREEN_SOURCES, or another area's flows than FIRST_SCREEN_FLOWS.
 * Either would be fetched before the greeting, and announced by dist/signed-in.html.
 */
export function firstScreenExtras(meta, files) {
  const lazy = new Set(
    Object.values(meta.outputs)
      .map((o) => o.entryPoint)
      .filter((source) => source && source !== 'src/main.tsx'),
  )
  const allowed = new Set(FIRST_SCREEN_SOURCES)
  const flows = FLOW_AREAS.filter((area) => !FIRST_SCREEN_FLOWS.includes(area)).map(flowSource)
  const extras = new Set()
  for (const file of files) {
    for (const source of Object.keys(meta.outputs[file].inputs))
      if ((lazy.has(source) && !allowed.has(source)) || flows.includes(source)) extras.add(source)
  }
  return [...extras]
}

/**
 * The strength estimator's chunk, its size and the problems found: it is not a chunk of its own, another module is in
 * it, or zxcvbn-ts is bundled anywhere else (a page's chunk, a shared one, a first load).
 */
export function passwordStrengthChunk(meta, outputs, sizes) {
  const problems = []
  const chunk = outputs.find(([, o]) => o.entryPoint === PASSWORD_STRENGTH)?.[0]
  if (!chunk) return { chunk, gzip: 0, problems: [`${PASSWORD_STRENGTH} has no chunk of its own (it must be imported lazily)`] }
  for (const source of Object.keys(meta.outputs[chunk].inputs)) {
    if (source !== PASSWORD_STRENGTH && !/(^|\/)node_modules\/(@zxcvbn-ts|fastest-levenshtein)\//.test(source))
      problems.push(`the password strength chunk also holds ${source}`)
  }
  for (const [file, o] of outputs) {
    if (
      file !== chunk &&
      Object.keys(o.inputs).some((source) => source === PASSWORD_STRENGTH || /(^|\/)node_modules\/@zxcvbn-ts\//.test(source))
    )
      problems.push(`zxcvbn-ts is bundled into ${relative('dist/assets', file)}, not only into the password strength chunk`)
  }
  const { gzip } = sizes.get(chunk)
  if (gzip > BUDGETS.passwordStrengthGzip)
    problems.push(`the password strength chunk is ${kb(gzip).trim()} gzip, over the budget of ${kb(BUDGETS.passwordStrengthGzip).trim()}`)
  return { chunk, gzip, problems }
}

/** The modules a source imports lazily (its dynamic imports), from the metafile. */
const lazyImports = (meta, source) => (meta.inputs[source]?.imports ?? []).filter((i) => i.kind === 'dynamic-import').map((i) => i.path)

/**
 * Each area of FLOW_AREAS: its chunk (the output whose entry is src/wiring/<area>.ts), its size, and the problems
 * found: not imported lazily by flows.ts, no chunk of its own, its module in another output (the entry, a shared
 * chunk, another area's), another area's module in its chunk, over the route-chunk budget.
 */
export function flowAreas(meta, sizes, firstScreenOnly = []) {
  const outputs = Object.entries(meta.outputs).filter(([file]) => file.endsWith('.js'))
  const lazy = lazyImports(meta, FLOWS)
  const sourceOf = flowSource
  const problems = []
  const areas = FLOW_AREAS.map((area) => {
    const source = sourceOf(area)
    if (FIRST_SCREEN_FLOWS.includes(area)) return firstScreenFlows(meta, outputs, sizes, firstScreenOnly, area, problems)
    const chunk = outputs.find(([, o]) => o.entryPoint === source)?.[0]
    if (!lazy.includes(source))
      problems.push(`${FLOWS} does not import ${source} lazily: the ${area} area's flows would not load with their own screens`)
    if (!chunk) {
      problems.push(`the ${area} area's flows (${source}) have no chunk of their own`)
      return { area, chunk, gzip: 0 }
    }
    for (const [file, o] of outputs)
      if (file !== chunk && source in o.inputs)
        problems.push(`${source} is bundled into ${relative('dist/assets', file)}, not only into the ${area} area's own chunk`)
    for (const other of FLOW_AREAS)
      if (other !== area && sourceOf(other) in meta.outputs[chunk].inputs)
        problems.push(`the ${area} area's chunk also holds the ${other} area's flows`)
    const { gzip } = sizes.get(chunk)
    if (gzip > BUDGETS.routeChunkGzip)
      problems.push(
        `the ${area} area's flows chunk ${relative('dist/assets', chunk)} is ${kb(gzip).trim()} gzip, over the budget of ${kb(BUDGETS.routeChunkGzip).trim()}`,
      )
    return { area, chunk, gzip }
  })
  for (const source of lazy)
    if (!FLOW_AREAS.some((area) => sourceOf(area) === source))
      problems.push(`${FLOWS} imports ${source} lazily, an area scripts/size.mjs (FLOW_AREAS) does not check`)
  return { areas, problems }
}

/**
 * The first screen's flows (src/wiring/first-screen.ts) come with the rest of its code: FIRST_SCREEN, which the entry
 * imports lazily (services.ts takes them from it), imports them; they are in one chunk, one of the first screen's that
 * /login's first load does not fetch, with no other area's flows. (Their size counts in the first screen's budget.)
 */
function firstScreenFlows(meta, outputs, sizes, firstScreenOnly, area, problems) {
  const source = flowSource(area)
  if (!lazyImports(meta, ENTRY).includes(FIRST_SCREEN))
    problems.push(`${ENTRY} does not import ${FIRST_SCREEN} lazily: the ${area} flows would not load with their screen`)
  if (!(meta.inputs[FIRST_SCREEN]?.imports ?? []).some((i) => i.path === source && i.kind === 'import-statement'))
    problems.push(`${FIRST_SCREEN} does not import ${source}: the ${area} flows would not come with the first screen's code`)
  const holders = outputs.filter(([, o]) => source in o.inputs).map(([file]) => file)
  const chunk = holders[0]
  if (holders.length !== 1 || !firstScreenOnly.includes(chunk))
    problems.push(
      `${source} is not in one chunk of the first screen's own (out of /login's first load): ${holders.map((f) => relative('dist/assets', f)).join(', ') || 'none'}`,
    )
  else
    for (const other of FLOW_AREAS)
      if (other !== area && flowSource(other) in meta.outputs[chunk].inputs)
        problems.push(`the ${area} flows' chunk also holds the ${other} area's flows`)
  return { area, chunk, gzip: chunk ? sizes.get(chunk).gzip : 0 }
}

/** Whether the server has this file's .br and .gz to send as they are, each the file's own bytes once decompressed. */
function precompressed(file) {
  try {
    const bytes = readFileSync(file)
    return brotliDecompressSync(readFileSync(`${file}.br`)).equals(bytes) && gunzipSync(readFileSync(`${file}.gz`)).equals(bytes)
  } catch {
    return false
  }
}

/** The chunks a page of dist/ announces with <link rel="modulepreload">, as metafile paths (dist/assets/…). */
const announced = (page) => [...page.matchAll(/<link rel="modulepreload" href="\/([^"]+)"/g)].map((m) => join('dist', m[1]))

const sameSet = (a, b) => a.length === b.length && new Set([...a, ...b]).size === a.length

/**
 * dist/pages.json and its pages: a signed-in route's page announces the entry's static imports and its first screen's
 * code, no more, no less (fetched beside the entry rather than level after level); the public routes'
 * pages (/login drawn ahead, plain index.html) announce the entry's static imports only, so that a signed-out
 * visitor never downloads the signed-in code. The problems found.
 */
export function pagesProblems(entryImports, signedInAnnounced) {
  const problems = []
  let manifest
  try {
    manifest = JSON.parse(readFileSync(join(dist, 'pages.json'), 'utf8'))
  } catch {
    return ['dist/pages.json is missing: the server would send index.html everywhere']
  }
  const signedInPage = readFileSync(join(dist, manifest.signedIn), 'utf8')
  if (!sameSet(announced(signedInPage), signedInAnnounced)) {
    const extra = announced(signedInPage).filter((file) => !signedInAnnounced.includes(file))
    const missing = signedInAnnounced.filter((file) => !announced(signedInPage).includes(file))
    problems.push(
      `dist/${manifest.signedIn} does not modulepreload exactly the entry's static imports and the first signed-in screen's code (missing: ${missing.map((f) => relative('dist/assets', f)).join(', ') || 'none'}; extra: ${extra.map((f) => relative('dist/assets', f)).join(', ') || 'none'})`,
    )
  }
  // The startup's first calls leave from the signed-in page itself (src/wiring/early-start.ts, inline under the nonce).
  const inline = [...signedInPage.matchAll(/<script\b([^>]*)>([^<]*)<\/script>/g)].filter((m) => !/\bsrc=/.test(m[1]))
  if (inline.length !== 1 || !/nonce="__CSP_NONCE__"/.test(inline[0][1]) || !inline[0][2].includes('/api-protected/user/me')) {
    problems.push(`dist/${manifest.signedIn} does not carry the startup's first calls as one inline script under the CSP nonce`)
  } else if (gzipSync(inline[0][2]).length > EARLY_START_MAX_GZIP)
    problems.push(`dist/${manifest.signedIn}: the inline start weighs more than ${EARLY_START_MAX_GZIP} bytes gzip`)
  for (const [route, file] of Object.entries(manifest.public)) {
    if (file === manifest.signedIn) problems.push(`dist/pages.json: the public route ${route} gets the signed-in page`)
    else if (!sameSet(announced(readFileSync(join(dist, file), 'utf8')), entryImports))
      problems.push(`dist/${file} (${route}) modulepreloads more or less than the entry's static imports`)
  }
  if (manifest.public['/login'] !== 'login.html')
    problems.push('dist/pages.json: /login does not get the page drawn ahead (dist/login.html)')
  return problems
}

/**
 * dist/login.html, /login drawn ahead (src/prerender.tsx): the form in #root, goober's CSS under the
 * response's nonce, every class of the markup styled, the buttons disabled until the app takes over.
 * The problems found, and the page's size.
 */
export function prerenderedLogin() {
  const problems = []
  let page = ''
  try {
    page = readFileSync(join(dist, 'login.html'), 'utf8')
  } catch {
    return { problems: ['dist/login.html is missing: /login would paint only after its JavaScript'], gzip: 0 }
  }
  const root = /<div id="root" data-prerendered="">([\s\S]*?)<\/div>\s*<noscript>/.exec(page)?.[1] ?? ''
  const css = /<style id="_goober" nonce="__CSP_NONCE__">([\s\S]*?)<\/style>/.exec(page)?.[1] ?? ''
  // (The title carries its id and tabindex: where an arrival puts the focus, BareLayout.tsx.)
  if (!/<h1\b[^>]*>Connexion à votre espace client<\/h1>/.test(root)) problems.push('dist/login.html: no login form in #root')
  if (!css) problems.push('dist/login.html: no goober style element under the CSP nonce')
  for (const name of new Set([...root.matchAll(/class="([^"]+)"/g)].flatMap((m) => m[1].split(' ')))) {
    if (!css.includes(`.${name}`)) problems.push(`dist/login.html: class ${name} has no rule`)
  }
  if ([...root.matchAll(/<button\b[^>]*>/g)].some((m) => !/\bdisabled/.test(m[0])))
    problems.push('dist/login.html: a button is enabled before the app takes over')
  for (const label of ['Adresse e-mail', 'Mot de passe', 'Se connecter'])
    if (!root.includes(label)) problems.push(`dist/login.html: « ${label} » missing`)
  return { problems, gzip: gzipSync(page, { level: 9 }).length }
}

/**
 * The back office's build (dist/backoffice-meta.json): its chunks and their sizes, its first load, and the problems
 * found: a budget passed; a back-office module in a customer's chunk, or a customer's page announcing a back-office file;
 * a back-office file outside dist/assets/backoffice/; dist/operateur.html not loading its entry or not announcing exactly
 * the entry's static imports; a first-load file without the compile hint; a file without its .br and .gz.
 */
export function analyseBackOffice(customerMeta) {
  const problems = []
  let meta
  try {
    meta = JSON.parse(readFileSync(join(dist, BACK_OFFICE.metafile), 'utf8'))
  } catch {
    return { problems: [`dist/${BACK_OFFICE.metafile} is missing: the back office was not built`], chunks: [], firstLoad: null }
  }
  const outputs = Object.entries(meta.outputs).filter(([file]) => file.endsWith('.js'))
  const sizes = new Map(
    outputs.map(([file]) => {
      const bytes = readFileSync(join(root, file))
      return [file, { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli: brotliCompressSync(bytes).length }]
    }),
  )
  const entry = outputs.find(([, o]) => o.entryPoint === BACK_OFFICE.entry)?.[0]
  if (!entry) return { problems: [`the back office's build has no entry for ${BACK_OFFICE.entry}`], chunks: [], firstLoad: null }
  const closure = (file, seen = new Set()) => {
    if (seen.has(file)) return seen
    seen.add(file)
    for (const imp of meta.outputs[file].imports) if (imp.kind === 'import-statement') closure(imp.path, seen)
    return seen
  }
  const first = closure(entry)
  const firstLoad = [...first].reduce(
    (sum, f) => ({ raw: sum.raw + sizes.get(f).raw, gzip: sum.gzip + sizes.get(f).gzip, brotli: sum.brotli + sizes.get(f).brotli }),
    { raw: 0, gzip: 0, brotli: 0 },
  )
  if (firstLoad.gzip > BUDGETS.backOfficeFirstLoadGzip)
    problems.push(
      `the back office's first load is ${kb(firstLoad.gzip).trim()} gzip, over the budget of ${kb(BUDGETS.backOfficeFirstLoadGzip).trim()}`,
    )
  // Its lazily loaded chunks, but the password strength estimator's (its own budget, checked for the portal).
  const lazy = outputs.filter(([, o]) => o.entryPoint && o.entryPoint !== BACK_OFFICE.entry && o.entryPoint !== PASSWORD_STRENGTH)
  for (const [file] of lazy)
    if (sizes.get(file).gzip > BUDGETS.backOfficeRouteChunkGzip)
      problems.push(
        `back-office chunk ${relative('dist/assets', file)} is ${kb(sizes.get(file).gzip).trim()} gzip, over the budget of ${kb(BUDGETS.backOfficeRouteChunkGzip).trim()}`,
      )
  const strength = outputs.find(([, o]) => o.entryPoint === PASSWORD_STRENGTH)?.[0]
  if (strength && sizes.get(strength).gzip > BUDGETS.passwordStrengthGzip)
    problems.push(`the back office's password strength chunk is over the budget of ${kb(BUDGETS.passwordStrengthGzip).trim()}`)
  // A customer never downloads a byte of it: no back-office module in the portal's chunks, no portal page naming its files.
  for (const [file, o] of Object.entries(customerMeta.outputs))
    for (const source of Object.keys(o.inputs))
      if (BACK_OFFICE_SOURCES.test(source)) problems.push(`the customer's chunk ${relative('dist/assets', file)} holds ${source}`)
  const own = `dist/assets/${BACK_OFFICE.dir}/`
  for (const [file] of outputs) if (!file.startsWith(own)) problems.push(`the back office's ${file} is not under ${own}`)
  for (const file of Object.keys(customerMeta.outputs))
    if (file.startsWith(own)) problems.push(`the customer's build wrote ${file} under ${own}`)
  let manifest = { public: {}, signedIn: 'signed-in.html' }
  try {
    manifest = JSON.parse(readFileSync(join(dist, 'pages.json'), 'utf8'))
  } catch {
    // reported by pagesProblems
  }
  for (const page of new Set(['index.html', manifest.signedIn, ...Object.values(manifest.public)])) {
    let html = ''
    try {
      html = readFileSync(join(dist, page), 'utf8')
    } catch {
      continue
    }
    if (html.includes(`/assets/${BACK_OFFICE.dir}/`)) problems.push(`the customer's page dist/${page} names a back-office file`)
  }
  let html = ''
  try {
    html = readFileSync(join(dist, BACK_OFFICE.page), 'utf8')
  } catch {
    problems.push(`dist/${BACK_OFFICE.page} is missing: /operateur would have no page`)
  }
  if (html) {
    if (!html.includes(`<script type="module" src="/${relative('dist', entry)}"`))
      problems.push(`dist/${BACK_OFFICE.page} does not load the back office's entry`)
    if (
      !sameSet(
        announced(html),
        [...first].filter((file) => file !== entry),
      )
    )
      problems.push(`dist/${BACK_OFFICE.page} does not modulepreload exactly its entry's static imports`)
  }
  for (const file of first)
    if (!readFileSync(join(root, file), 'utf8').startsWith(`${COMPILE_HINT}\n`))
      problems.push(`${relative('dist/assets', file)} does not start with ${COMPILE_HINT}`)
  for (const [file] of outputs)
    if (sizes.get(file).raw >= PRECOMPRESS_MIN_BYTES && !precompressed(join(root, file)))
      problems.push(`${relative('dist/assets', file)} has no matching .br and .gz beside it`)
  const chunks = [...sizes].sort((a, b) => b[1].gzip - a[1].gzip)
  return { problems, chunks, firstLoad, firstFiles: [...first], lazy: lazy.map(([file]) => file) }
}

const kb = (n) => (n / 1000).toFixed(1).padStart(7) + ' kB'

if (process.argv[1] === import.meta.filename) {
  const {
    sizes,
    lazyChunks,
    firstLoad,
    loginInEntry,
    unannounced,
    prerendered,
    pages,
    unhinted,
    unprecompressed,
    flowAreas: flows,
    passwordStrength,
    firstScreenFiles,
    firstScreenExtras: extras,
  } = analyse()
  console.log('chunk'.padEnd(58) + '      raw' + '     gzip' + '   brotli')
  for (const [file, s] of [...sizes].sort((a, b) => b[1].gzip - a[1].gzip)) {
    console.log(relative('dist/assets', file).padEnd(56) + kb(s.raw) + kb(s.gzip) + kb(s.brotli))
  }
  console.log('\nflows, one chunk per area (src/wiring/flows.ts)')
  for (const { area, chunk, gzip } of flows.areas)
    console.log(area.padEnd(16) + (chunk ? relative('dist/assets', chunk) : 'no chunk of its own').padEnd(40) + kb(gzip) + ' gzip')
  console.log('\nfirst-load JavaScript')
  for (const [route, s] of Object.entries(firstLoad)) console.log(route.padEnd(56) + kb(s.raw) + kb(s.gzip) + kb(s.brotli))
  console.log(
    `\nbefore the first signed-in screen (dist/signed-in.html: the entry and what it announces), ${firstScreenFiles.length} files`,
  )
  for (const file of firstScreenFiles) {
    const s = sizes.get(file)
    console.log(relative('dist/assets', file).padEnd(56) + kb(s.raw) + kb(s.gzip) + kb(s.brotli))
  }

  const backOffice = analyseBackOffice(JSON.parse(readFileSync(join(dist, 'meta.json'), 'utf8')))
  console.log('\nthe back office (its own build: dist/backoffice-meta.json, dist/operateur.html)')
  for (const [file, s] of backOffice.chunks) {
    const tag = backOffice.firstFiles?.includes(file) ? ' (first load)' : ''
    console.log((relative('dist/assets', file) + tag).padEnd(56) + kb(s.raw) + kb(s.gzip) + kb(s.brotli))
  }
  if (backOffice.firstLoad)
    console.log(
      '/operateur first load'.padEnd(56) + kb(backOffice.firstLoad.raw) + kb(backOffice.firstLoad.gzip) + kb(backOffice.firstLoad.brotli),
    )

  const failures = [...backOffice.problems]
  if (firstLoad['/login'].gzip > BUDGETS.loginFirstLoadGzip)
    failures.push(
      `first-load JavaScript of /login is ${kb(firstLoad['/login'].gzip).trim()} gzip, over the budget of ${kb(BUDGETS.loginFirstLoadGzip).trim()}`,
    )
  if (firstScreenFiles.length > BUDGETS.signedInFirstScreenFiles)
    failures.push(
      `JavaScript before the first signed-in screen is ${firstScreenFiles.length} files, over the budget of ${BUDGETS.signedInFirstScreenFiles} (esbuild.config.mjs, chunkLayers)`,
    )
  if (firstLoad['/tableau-de-bord'].gzip > BUDGETS.signedInFirstScreenGzip)
    failures.push(
      `JavaScript before the first signed-in screen is ${kb(firstLoad['/tableau-de-bord'].gzip).trim()} gzip, over the budget of ${kb(BUDGETS.signedInFirstScreenGzip).trim()}`,
    )
  for (const source of extras)
    failures.push(
      `the first signed-in screen's files hold ${source}, which that screen does not draw: it would be fetched before the greeting (dist/signed-in.html announces them)`,
    )
  failures.push(...flows.problems, ...passwordStrength.problems)
  // (the areas' flows chunks and the strength estimator's are among them, their failures said above)
  for (const file of lazyChunks.filter((f) => f !== passwordStrength.chunk && !flows.areas.some((a) => a.chunk === f))) {
    const s = sizes.get(file)
    if (s.gzip > BUDGETS.routeChunkGzip)
      failures.push(
        `route chunk ${relative('dist/assets', file)} is ${kb(s.gzip).trim()} gzip, over the budget of ${kb(BUDGETS.routeChunkGzip).trim()}`,
      )
  }
  // A lazy login form adds a request level before /login's largest paint.
  if (!loginInEntry) failures.push(`${LOGIN_PAGE} is not in the entry's static imports: /login's first paint would wait for one more chunk`)
  failures.push(...prerendered.problems)
  for (const file of unannounced)
    failures.push(`dist/index.html does not modulepreload ${relative('dist/assets', file)}, a static import of the entry`)
  failures.push(...pages)
  // Without it, V8 compiles each function on the main thread at its first call (the dashboard's blocking time).
  for (const file of unhinted)
    failures.push(`${relative('dist/assets', file)} does not start with ${COMPILE_HINT}: its functions would compile on the main thread`)
  // Without them, the server compresses each asset again on every request, at a lower ratio.
  for (const file of unprecompressed)
    failures.push(`${relative('dist/assets', file)} has no matching .br and .gz beside it: the server would compress it on every request`)
  if (failures.length) {
    console.error('\nBudget passed:\n- ' + failures.join('\n- '))
    process.exit(1)
  }
  console.log(`\n${LOGIN_PAGE} is in the entry's static imports, and dist/index.html modulepreloads the entry's static imports.`)
  console.log(`dist/login.html draws /login ahead, styled (${kb(prerendered.gzip).trim()} gzip).`)
  console.log(
    "dist/signed-in.html modulepreloads its first screen's code with the entry's imports, and nothing that screen does not draw; the public routes' pages only the entry's imports (dist/pages.json).",
  )
  console.log(`Every first-load file of /login and of the dashboard starts with ${COMPILE_HINT}.`)
  console.log('Every JavaScript file over 1 kB has its .br and .gz beside it, sent as they are.')
  console.log(`Each area's flows (${FLOW_AREAS.join(', ')}) are a chunk of their own.`)
  console.log(
    `The password strength estimator is a chunk of its own, loaded by the password forms only (${kb(passwordStrength.gzip).trim()} gzip ≤ ${kb(BUDGETS.passwordStrengthGzip).trim()}).`,
  )
  console.log(
    `No back-office module is in a customer's chunk, and no customer page names a back-office file; the back office's first load ≤ ${kb(BUDGETS.backOfficeFirstLoadGzip).trim()} gzip, each of its chunks ≤ ${kb(BUDGETS.backOfficeRouteChunkGzip).trim()} gzip.`,
  )
  console.log(
    `Budgets met: /login first load ≤ ${kb(BUDGETS.loginFirstLoadGzip).trim()} gzip, a stored user's first signed-in screen ≤ ${kb(BUDGETS.signedInFirstScreenGzip).trim()} gzip in ≤ ${BUDGETS.signedInFirstScreenFiles} files, each route chunk ≤ ${kb(BUDGETS.routeChunkGzip).trim()} gzip.`,
  )
}
