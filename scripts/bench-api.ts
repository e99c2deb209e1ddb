// npm run bench:api — a benchmark, not a test. Each figure next to its ceiling measured in the same run, and the ratio:
//   - the three hot calls at 50 connections (autocannon) on the real server started as `npm start` does
//     (scripts/start.mjs), against a bare Fastify (scripts/bench-ceiling.mjs) answering the same JSON from memory, and
//     `SELECT 1` per request through a pg Pool (PostgreSQL) or on PGlite;
//   - start-up on an existing embedded database against opening PGlite alone, and a first start (migrations + demo
//     data) against creating PGlite and running SELECT 1, each a fresh node process.
// Writes the "API" section of docs/BENCHMARKS.md.
//   BENCH_SECONDS (10): seconds per call.   BENCH_BASELINE=<dir>: another checkout (e.g. before a change) measured
//   in the same run, for a before/after table; BENCH_BASELINE_WHAT: what that checkout is, in the section's words.
//   DATABASE_URL unset: the whole run re-executes itself inside
//   scripts/with-postgres.sh when Debian's PostgreSQL is there. Run it under `flock /tmp/portal-bench.lock`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import pg from 'pg'
import { machineDescription, saveSection } from './bench-report.ts'

// autocannon ships no types: the little of its API used here.
interface AutocannonOptions {
  url: string
  method?: string
  headers?: Record<string, string>
  body?: string
  connections?: number
  duration?: number
}
interface AutocannonResult {
  requests: { average: number; total: number }
  latency: { p50: number; p99: number }
  errors: number
  non2xx: number
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>

const DURATION = Number(process.env.BENCH_SECONDS || 10)
const CONNECTIONS = 50
const root = join(import.meta.dirname, '..')
const baseline = process.env.BENCH_BASELINE || undefined
/** What the baseline is, in the section's words. */
const baselineWhat = process.env.BENCH_BASELINE_WHAT || 'le code d’avant le ticket 13'

interface Run {
  requestsPerSecond: number
  p50: number
  p99: number
  errors: number
  total: number
}
/** Each call's run, and the `SELECT 1` ceiling measured right after it (the machine's load drifts over minutes). */
interface Version {
  label: string
  coldStartMs: number
  warmStartMs: number
  peakRssMb: number
  runs: Record<string, Run>
  ceilings: Record<string, Run>
}
interface Section {
  database: 'PGlite' | 'PostgreSQL'
  ceilings: { json: Run; openMs?: number; createMs?: number }
  versions: Version[]
}

/** The bare Fastify of scripts/bench-ceiling.mjs, answering `payload` from memory and `SELECT 1`. */
interface CeilingServer {
  base: string
  child: ChildProcess
}
async function startCeilingServer(dir: string, payload: string): Promise<CeilingServer> {
  const file = join(dir, 'payload.json')
  await writeFile(file, payload)
  const server = await spawnReady([join(root, 'scripts/bench-ceiling.mjs'), 'http', file], {})
  return { base: `http://127.0.0.1:${server.port}`, child: server.child }
}
const select1Url = (ceiling: CeilingServer, database: Section['database']) =>
  `${ceiling.base}/${database === 'PostgreSQL' ? 'pg' : 'pglite'}`

const calls = [
  'GET /api-protected/documents?orderId=…',
  'GET /api-protected/my-domiciliation-orders',
  'GET /api-protected/user/me',
] as const

/** A child that says `{ready, port?}` over IPC; the time from spawn to that message. */
function spawnReady(args: string[], env: NodeJS.ProcessEnv, cwd = root): Promise<{ child: ChildProcess; port: number; ms: number }> {
  const started = performance.now()
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} s’est arrêté (code ${code})`)))
    child.on('message', (message: { ready?: boolean; port?: number }) => {
      if (message.ready) resolve({ child, port: message.port ?? 0, ms: Math.round(performance.now() - started) })
    })
  })
}

async function stop(child: ChildProcess): Promise<number> {
  // VmHWM: the peak resident set size of the process over its life.
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '')
  const peakKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)
  child.removeAllListeners('exit')
  const exited = new Promise((resolve) => child.once('exit', resolve))
  if (child.exitCode === null) child.kill('SIGTERM')
  await exited
  return Math.round(peakKb / 1024)
}

async function bench(url: string, headers: Record<string, string> = {}): Promise<Run> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION })
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    total: result.requests.total,
  }
}

/** The server as `npm start` runs it (scripts/start.mjs); DIST_DIR elsewhere, so no SPA is built. */
const startServer = (codeRoot: string, env: NodeJS.ProcessEnv) =>
  spawnReady([join(codeRoot, 'scripts/start.mjs')], { ...env, PORT: '0', LOG_LEVEL: 'warn', AUTH_RATE_LIMIT: '1000000' }, codeRoot)

async function signIn(base: string) {
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo@example.com', password: 'Demo1234!' }),
  })
  const { apiToken } = (await login.json()) as { apiToken: string }
  const orders = (await (await fetch(`${base}/api-protected/my-domiciliation-orders`, { headers: { apiToken } })).json()) as {
    id: number
    raisonSociale: string
  }[]
  const boulangerie = orders.find((o) => o.raisonSociale === 'Boulangerie des Lilas SAS')!
  const urls = {
    [calls[0]]: `${base}/api-protected/documents?orderId=${boulangerie.id}`,
    [calls[1]]: `${base}/api-protected/my-domiciliation-orders`,
    [calls[2]]: `${base}/api-protected/user/me`,
  }
  return { apiToken, urls }
}

/**
 * Until the job worker has rendered every demo letter (it starts once the server is up, seconds of pdf.js on both cores,
 * and each rendering changes the letter lists): the calls are measured in the steady state, not against that work.
 */
async function lettersRendered(base: string, apiToken: string): Promise<void> {
  const deadline = Date.now() + 180_000
  for (;;) {
    const letters = (await (await fetch(`${base}/api-protected/documents`, { headers: { apiToken } })).json()) as { pageImages: number }[]
    if (letters.every((l) => l.pageImages > 0)) return
    if (Date.now() > deadline)
      throw new Error(
        `courriers de démonstration toujours pas rendus après 3 min (${letters.filter((l) => l.pageImages > 0).length} / ${letters.length})`,
      )
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

let databaseCount = 0
/** A new empty PostgreSQL database of the cluster for each server measured (a cold start needs an empty one). */
async function freshPostgres(): Promise<string> {
  const url = new URL(process.env.DATABASE_URL!)
  const name = `portail_bench_${process.pid}_${++databaseCount}`
  const admin = new pg.Client({ connectionString: url.href })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  url.pathname = `/${name}`
  return url.href
}

async function measureVersion(
  label: string,
  codeRoot: string,
  database: Section['database'],
  dir: string,
  ceilings: Partial<Section['ceilings']>,
  ceilingServer: { current?: CeilingServer },
): Promise<Version> {
  const env = {
    DATA_DIR: join(dir, label, 'data'),
    STORAGE_DIR: join(dir, label, 'storage'),
    DIST_DIR: join(dir, 'no-dist'),
    DATABASE_URL: database === 'PostgreSQL' ? await freshPostgres() : '',
  }
  const cold = await startServer(codeRoot, env)
  await stop(cold.child)
  if (database === 'PGlite' && ceilings.openMs === undefined) {
    // Opening PGlite alone, on the very directory the server just left.
    const open = await spawnReady([join(root, 'scripts/bench-ceiling.mjs'), 'open', join(env.DATA_DIR, 'pglite')], {})
    await stop(open.child)
    ceilings.openMs = open.ms
  }
  const warm = await startServer(codeRoot, env)
  const base = `http://127.0.0.1:${warm.port}`
  try {
    const { apiToken, urls } = await signIn(base)
    await lettersRendered(base, apiToken)
    const payload = await (await fetch(urls[calls[0]], { headers: { apiToken } })).text()
    ceilingServer.current ??= await startCeilingServer(dir, payload)
    const ceilingNow = ceilingServer.current
    ceilings.json ??= await bench(`${ceilingNow.base}/json`)
    const runs: Record<string, Run> = {}
    const select1: Record<string, Run> = {}
    for (const call of calls) {
      console.log(`[bench] ${database} ${label} ${call}`)
      runs[call] = await bench(urls[call], { apiToken })
      select1[call] = await bench(select1Url(ceilingNow, database))
    }
    return { label, coldStartMs: cold.ms, warmStartMs: warm.ms, peakRssMb: await stop(warm.child), runs, ceilings: select1 }
  } catch (error) {
    await stop(warm.child)
    throw error
  }
}

async function measureSection(database: Section['database']): Promise<Section> {
  const dir = await mkdtemp(join(tmpdir(), 'portail-bench-'))
  try {
    // The JSON ceiling answers the first server's answer; each call is followed by its `SELECT 1` ceiling.
    const ceilings: Partial<Section['ceilings']> = {}
    const ceilingServer: { current?: CeilingServer } = {}
    const versions: Version[] = []
    try {
      for (const [label, codeRoot] of [...(baseline ? [['avant', baseline]] : []), ['après', root]] as [string, string][]) {
        versions.push(await measureVersion(label, codeRoot, database, dir, ceilings, ceilingServer))
      }
    } finally {
      if (ceilingServer.current) await stop(ceilingServer.current.child)
    }
    if (database === 'PGlite') {
      const create = await spawnReady([join(root, 'scripts/bench-ceiling.mjs'), 'create', join(dir, 'fresh-pglite')], {})
      await stop(create.child)
      ceilings.createMs = create.ms
    }
    return { database, ceilings: ceilings as Section['ceilings'], versions }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`
const times = (part: number, whole: number) => `${(part / whole).toFixed(2)}×`

function markdown(sections: Section[]): string {
  const throughputGoal = { PGlite: 25, PostgreSQL: 35 } as const
  const rows = sections.flatMap((s) => [
    `| ${s.database} | plafond : la même réponse JSON depuis la mémoire, Fastify nu | — | ${s.ceilings.json.requestsPerSecond} | ${s.ceilings.json.p50} | ${s.ceilings.json.p99} | — | — | — |`,
    ...calls.flatMap((call) =>
      s.versions.map((v) => {
        const run = v.runs[call]!
        const ceiling = v.ceilings[call]!
        const ratio = (100 * run.requestsPerSecond) / ceiling.requestsPerSecond
        const met = ratio >= throughputGoal[s.database] && (s.database !== 'PostgreSQL' || run.p99 <= 30)
        return `| ${s.database} | ${call} | ${v.label} | ${run.requestsPerSecond} | ${run.p50} | ${run.p99} | ${ceiling.requestsPerSecond} (p99 ${ceiling.p99} ms) | ${percent(run.requestsPerSecond, ceiling.requestsPerSecond)} | ${met ? 'oui' : 'non'} (≥ ${throughputGoal[s.database]} %${s.database === 'PostgreSQL' ? ', p99 ≤ 30 ms' : ''}) ; erreurs ${run.errors} / ${run.total} |`
      }),
    ),
  ])
  const pglite = sections.find((s) => s.database === 'PGlite')
  const startRows = pglite
    ? pglite.versions.flatMap((v) => [
        `| démarrage sur une base embarquée existante | ${v.label} | ${v.warmStartMs} ms | ouvrir PGlite seul : ${pglite.ceilings.openMs} ms | ${times(v.warmStartMs, pglite.ceilings.openMs!)} | ${v.warmStartMs <= 2 * pglite.ceilings.openMs! ? 'oui' : 'non'} (≤ 2×) |`,
        `| premier démarrage (PGlite neuf : migrations + données de démo) | ${v.label} | ${v.coldStartMs} ms | créer PGlite + \`SELECT 1\` : ${pglite.ceilings.createMs} ms | ${times(v.coldStartMs, pglite.ceilings.createMs!)} | ${v.coldStartMs <= 3000 ? 'oui' : 'non'} (≤ 3 s) |`,
      ])
    : []
  const memoryRows = sections.flatMap((s) =>
    s.versions.map((v) => `| ${s.database} | ${v.label} | ${v.coldStartMs} ms | ${v.warmStartMs} ms | ${v.peakRssMb} Mo |`),
  )
  return [
    '## API',
    '',
    `Mesuré par \`npm run bench:api\` le ${new Date().toISOString().slice(0, 10)} : ${CONNECTIONS} connexions simultanées (autocannon), ${DURATION} s par appel, sur le serveur démarré comme par \`npm start\` (\`scripts/start.mjs\`, le serveur construit \`dist-server/server.mjs\`) et les données de démonstration (les courriers de la Boulangerie des Lilas, Camille), une fois tous les courriers de démonstration rendus par le travail de fond (pages en images : quelques secondes après le démarrage, sur les deux cœurs).`,
    ...(baseline ? ['', `« avant » : ${baselineWhat} (mêmes données), mesuré dans la même exécution que « après ».`] : []),
    '',
    `Machine : ${machineDescription()}. Machine partagée (d’autres travaux tournent en même temps) : les chiffres absolus varient d’une exécution à l’autre ; les rapports à un plafond mesuré dans la même exécution sont plus stables.`,
    '',
    `Plafond de chaque appel : \`SELECT 1\` par requête dans un Fastify nu (pool pg de 10 connexions sur PostgreSQL, PGlite en mémoire sinon), mesuré juste après l’appel, ${DURATION} s aussi.`,
    '',
    '| base | appel | version | req/s | p50 (ms) | p99 (ms) | plafond `SELECT 1` (req/s) | part du plafond | objectif atteint |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    '',
    '| démarrage | version | durée | plafond | rapport | objectif atteint |',
    '| --- | --- | ---: | ---: | ---: | --- |',
    ...startRows,
    '',
    '| base | version | premier démarrage | démarrage sur données existantes | pic de mémoire (VmHWM) |',
    '| --- | --- | ---: | ---: | ---: |',
    ...memoryRows,
    '',
    'Durées de démarrage : du lancement du processus node au serveur prêt (il écoute), plafonds compris (chacun un processus node neuf). ' +
      'Sans le coût du client npm lui-même (`npm start` l’ajoute ; `node scripts/start.mjs` non).',
    '',
  ].join('\n')
}

if (!process.env.DATABASE_URL && existsSync('/usr/lib/postgresql') && !process.argv.includes('--inside-postgres')) {
  // The whole run inside one throwaway PostgreSQL cluster: its ceiling and the server's measured side by side.
  const child = spawnSync(
    'bash',
    [join(root, 'scripts/with-postgres.sh'), process.execPath, '--import', 'tsx', join(root, 'scripts/bench-api.ts'), '--inside-postgres'],
    { cwd: root, stdio: 'inherit' },
  )
  process.exit(child.status ?? 1)
}

// The server measured is the built one, as npm start runs it: build it now, not during the first start.
const { buildServer, isServerStale } = (await import('../esbuild.server.mjs' as string)) as {
  buildServer(): Promise<unknown>
  isServerStale(): Promise<boolean>
}
if (await isServerStale()) await buildServer()
await (await import('esbuild')).stop()

const sections: Section[] = [await measureSection('PGlite')]
if (process.env.DATABASE_URL) sections.push(await measureSection('PostgreSQL'))
else console.warn('[bench] ni DATABASE_URL ni PostgreSQL local : mesure PGlite seule')
const section = markdown(sections)
console.log(section)
await saveSection('API', section)
console.log('[bench] docs/BENCHMARKS.md mis à jour')
// mail pipeline: ingestion → searchable, and the search at 20 users over 10 000 letters (its own section)
if (process.env.BENCH_MAIL !== 'false') await (await import('./bench-mail.ts')).benchMail()
