// npm run bench:api — a benchmark, not a test: requests/s and latency of three hot calls at 50 connections,
// cold start and peak memory, on PGlite and on PostgreSQL; writes the "API" section of docs/BENCHMARKS.md.
//   DATABASE_URL set: that PostgreSQL; otherwise one is started through scripts/with-postgres.sh when Debian's binaries exist.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'

// autocannon ships no types: the little of its API used here.
interface AutocannonOptions { url: string; method?: string; headers?: Record<string, string>; body?: string; connections?: number; duration?: number }
interface AutocannonResult { requests: { average: number; total: number }; latency: { p50: number; p99: number }; errors: number; non2xx: number }
const autocannon = createRequire(import.meta.url)('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>

const DURATION = Number(process.env.BENCH_SECONDS || 10)
const CONNECTIONS = 50
const root = join(import.meta.dirname, '..')
const resultsFile = process.env.BENCH_RESULTS_FILE

interface Run { call: string; requestsPerSecond: number; p50: number; p99: number; errors: number; total: number }
interface DatabaseResult { database: string; coldStartMs: number; warmStartMs: number; peakRssMb: number; runs: Run[] }

function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; port: number; startMs: number }> {
  const started = performance.now()
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/server.ts')], {
    cwd: root, env: { ...process.env, ...env, PORT: '0', LOG_LEVEL: 'warn', AUTH_RATE_LIMIT: '1000000' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`le serveur s’est arrêté (code ${code})`)))
    child.on('message', (message: { ready?: boolean; port?: number }) => {
      if (message.ready && message.port) resolve({ child, port: message.port, startMs: performance.now() - started })
    })
  })
}

async function stopServer(child: ChildProcess): Promise<number> {
  // VmHWM: the peak resident set size of the process over its life.
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '')
  const peakKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
  return Math.round(peakKb / 1024)
}

async function bench(call: string, options: AutocannonOptions): Promise<Run> {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options })
  return {
    call, requestsPerSecond: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99,
    errors: result.errors + result.non2xx, total: result.requests.total,
  }
}

async function benchDatabase(database: string, env: NodeJS.ProcessEnv): Promise<DatabaseResult> {
  const cold = await startServer(env)
  await stopServer(cold.child)
  const { child, port, startMs } = await startServer(env)
  const base = `http://127.0.0.1:${port}`
  try {
    const login = await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'demo@example.com', password: 'Demo1234!' }) })
    const { apiToken } = await login.json() as { apiToken: string }
    const orders = await (await fetch(`${base}/api-protected/my-domiciliation-orders`, { headers: { apiToken } })).json() as { id: number; raisonSociale: string }[]
    const boulangerie = orders.find((o) => o.raisonSociale === 'Boulangerie des Lilas SAS')!
    const runs = [
      await bench('POST /api/login', { url: `${base}/api/login`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'demo@example.com', password: 'Demo1234!' }) }),
      await bench('GET /api-protected/my-domiciliation-orders', { url: `${base}/api-protected/my-domiciliation-orders`, headers: { apiToken } }),
      await bench('GET /api-protected/documents?orderId=…', { url: `${base}/api-protected/documents?orderId=${boulangerie.id}`, headers: { apiToken } }),
    ]
    return { database, coldStartMs: Math.round(cold.startMs), warmStartMs: Math.round(startMs), peakRssMb: await stopServer(child), runs }
  } catch (error) {
    child.kill('SIGTERM')
    throw error
  }
}

function machine(): string {
  const cpuModel = cpus()[0]?.model ?? 'inconnu'
  return `${cpus().length} cœurs (\`nproc\`), ${(totalmem() / 2 ** 30).toFixed(1)} Gio de mémoire, ${cpuModel}, Node ${process.version}`
}

/** PostgreSQL's throughput relative to PGlite's, call by call: steadier than absolute figures on a shared machine. */
function ratios(results: DatabaseResult[]): string[] {
  const [pglite, postgres] = results
  if (!pglite || !postgres) return []
  const parts = pglite.runs.map((run, i) => `${run.call} ×${(postgres.runs[i]!.requestsPerSecond / run.requestsPerSecond).toFixed(1)}`)
  return [`Débit PostgreSQL / PGlite : ${parts.join(' ; ')}.`, '']
}

function markdown(results: DatabaseResult[]): string {
  const lines = [
    '## API',
    '',
    `Mesuré par \`npm run bench:api\` le ${new Date().toISOString().slice(0, 10)} : ${CONNECTIONS} connexions simultanées (autocannon), ${DURATION} s par appel, sur le serveur réel (\`server/server.ts\`) et les données de démonstration.`,
    '',
    `Machine : ${machine()}. Machine partagée : les chiffres absolus varient d’une exécution à l’autre ; comparer surtout les rapports entre appels et entre bases.`,
    '',
    '| base | appel | req/s | p50 (ms) | p99 (ms) | erreurs / total |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...results.flatMap((r) => r.runs.map((run) => `| ${r.database} | ${run.call} | ${run.requestsPerSecond} | ${run.p50} | ${run.p99} | ${run.errors} / ${run.total} |`)),
    '',
    ...ratios(results),
    '| base | démarrage à froid (migrations + données de démo) | démarrage sur données existantes | pic de mémoire (VmHWM) |',
    '| --- | ---: | ---: | ---: |',
    ...results.map((r) => `| ${r.database} | ${r.coldStartMs} ms | ${r.warmStartMs} ms | ${r.peakRssMb} Mo |`),
    '',
    'Lecture : la connexion est volontairement lente (scrypt, N = 2^14, environ 50 ms de calcul par tentative), ce qui borne son débit au nombre de cœurs ; '
      + 'PGlite est un seul processus PostgreSQL en WebAssembly dans le processus Node : les requêtes y sont sérialisées, PostgreSQL les répartit sur un pool de connexions.',
    '',
  ]
  return lines.join('\n')
}

async function writeSection(section: string) {
  const file = join(root, 'docs/BENCHMARKS.md')
  const current = existsSync(file) ? await readFile(file, 'utf8') : '# Mesures de performance\n\n'
  // Replace only our section: other sections (Web) belong to other work.
  const pattern = /## API\n[\s\S]*?(?=\n## |$)/
  const next = pattern.test(current) ? current.replace(pattern, section.trimEnd() + '\n') : `${current.trimEnd()}\n\n${section}`
  await writeFile(file, next)
}

async function withTempDirs<T>(run: (env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'portail-bench-'))
  try {
    return await run({ DATA_DIR: join(dir, 'data'), STORAGE_DIR: join(dir, 'storage'), DIST_DIR: join(dir, 'dist') })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

if (process.argv.includes('--postgres-only')) {
  // Child mode, inside with-postgres.sh: measure PostgreSQL and hand the figures back through a file.
  const result = await withTempDirs((env) => benchDatabase('PostgreSQL', { ...env, DATABASE_URL: process.env.DATABASE_URL }))
  await writeFile(resultsFile!, JSON.stringify(result))
} else {
  const results: DatabaseResult[] = []
  console.log('[bench] PGlite…')
  results.push(await withTempDirs((env) => benchDatabase('PGlite (embarqué)', { ...env, DATABASE_URL: '' })))
  if (process.env.DATABASE_URL) {
    console.log('[bench] PostgreSQL (DATABASE_URL)…')
    results.push(await withTempDirs((env) => benchDatabase('PostgreSQL', env)))
  } else if (existsSync('/usr/lib/postgresql')) {
    console.log('[bench] PostgreSQL (scripts/with-postgres.sh)…')
    const file = join(tmpdir(), `portail-bench-pg-${process.pid}.json`)
    const child = spawnSync('bash', [join(root, 'scripts/with-postgres.sh'), process.execPath, '--import', 'tsx', join(root, 'scripts/bench-api.ts'), '--postgres-only'], {
      cwd: root, stdio: 'inherit', env: { ...process.env, BENCH_RESULTS_FILE: file },
    })
    if (child.status === 0) results.push(JSON.parse(await readFile(file, 'utf8')))
    else console.warn('[bench] mesure PostgreSQL impossible')
    await rm(file, { force: true })
  } else {
    console.warn('[bench] ni DATABASE_URL ni PostgreSQL local : mesure PGlite seule')
  }
  const section = markdown(results)
  console.log(section)
  await writeSection(section)
  console.log('[bench] docs/BENCHMARKS.md mis à jour')
}
