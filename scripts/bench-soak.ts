// npm run bench:soak — a benchmark, not a test: the real server (`node scripts/start.mjs`, as production runs it) on
// PostgreSQL under 50 connections of a mixed customer workload for SOAK_SECONDS (60 by default) after a warm-up
// (SOAK_WARMUP_SECONDS, 15), started once the demo's background jobs are done. Fails (exit 1) on any error, timeout
// or non-2xx answer, on a lost folder, or when the resident memory at the end is more than 10 % away from the one
// after the warm-up. A full-length run writes the "Soak" section of docs/BENCHMARKS.md; a shortened one
// (SOAK_SECONDS < 60) only prints.
//   DATABASE_URL set: that PostgreSQL; otherwise one is made by scripts/with-postgres.sh.
import type { ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { connect } from '../server/db/connect.ts'
import { backgroundSettled } from '../test/util/background-settled.ts'
import { onPostgres, rssMb, startServer, stopServer } from './bench-process.ts'
import { machineDescription, saveSection } from './bench-report.ts'

// autocannon ships no types: the little of its API used here.
interface SoakRequest {
  method: string
  path: string
  headers?: Record<string, string>
  body?: string
  setupRequest?: (request: SoakRequest) => SoakRequest
  onResponse?: (status: number) => void
}
interface AutocannonResult {
  requests: { average: number; total: number }
  latency: { p50: number; p90: number; p99: number; max: number }
  errors: number
  timeouts: number
  non2xx: number
}
type Autocannon = (options: { url: string; connections: number; duration: number; requests: SoakRequest[] }) => Promise<AutocannonResult>
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

const CONNECTIONS = 50
const FULL_SECONDS = 60
const SECONDS = Number(process.env.SOAK_SECONDS || FULL_SECONDS)
const WARMUP_SECONDS = Number(process.env.SOAK_WARMUP_SECONDS || Math.min(15, SECONDS))
const RSS_TOLERANCE = 0.1
const SAMPLE_EVERY_MS = 1_000
// The garbage collector makes RSS a saw: each of the two figures compared is the median of the last 5 s of its phase.
const WINDOW_SAMPLES = 5
/** Folders written beforehand for the workload to rename, more than a run renames. */
const PREPARED_FOLDERS = 40_000
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

onPostgres('scripts/bench-soak.ts', 'soak')

async function api<T>(base: string, path: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(init.token ? { apiToken: init.token } : {}) }
  const res = await fetch(`${base}${path}`, { ...init, headers })
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} : ${res.status} ${await res.text()}`)
  return res.json() as Promise<T>
}

interface Tally {
  [call: string]: Record<number, number>
}

/** One customer's round, cycled by every connection: her orders, letters, packages, invoices, a letter read, a folder. */
function workload(token: string, orderId: number, letterIds: number[], folderIds: number[], tally: Tally, run: string): SoakRequest[] {
  let letter = 0
  const headers = { apiToken: token, 'content-type': 'application/json' }
  const count = (call: string) => (status: number) => {
    const codes = (tally[call] ??= {})
    codes[status] = (codes[status] ?? 0) + 1
  }
  const get = (call: string, path: string): SoakRequest => ({ method: 'GET', path, headers: { apiToken: token }, onResponse: count(call) })
  return [
    get('GET my-domiciliation-orders', '/api-protected/my-domiciliation-orders'),
    get('GET documents?orderId', `/api-protected/documents?orderId=${orderId}`),
    get('GET user-packages?orderId', `/api-protected/user-packages?orderId=${orderId}`),
    get('GET invoices', '/api-protected/invoices'),
    {
      // Reading a letter: the next one of the order's letters each time.
      method: 'PUT',
      path: '/api-protected/documents/0',
      headers,
      onResponse: count('PUT documents/{id} readFlag'),
      setupRequest: (request) => ({
        ...request,
        path: `/api-protected/documents/${letterIds[letter++ % letterIds.length]}`,
        body: JSON.stringify({ readFlag: true }),
      }),
    },
    {
      // A folder renamed, each one once and to a name of its own (names are unique per order): creating one is limited
      // to 60 an hour per customer (perUserHourly), renaming is not.
      method: 'PUT',
      path: '/api-protected/folders/0',
      headers,
      onResponse: count('PUT folders/{id}'),
      setupRequest: (request) => {
        const id = folderIds.shift()
        if (id === undefined) throw new Error('plus de dossiers préparés pour la mesure')
        return { ...request, path: `/api-protected/folders/${id}`, body: JSON.stringify({ name: `Endurance ${run} n° ${id}` }) }
      },
    },
  ]
}

const okCount = (codes: Record<number, number> = {}) =>
  Object.entries(codes).reduce((sum, [code, n]) => sum + (Number(code) >= 200 && Number(code) < 300 ? n : 0), 0)

const dir = await mkdtemp(join(tmpdir(), 'portail-soak-'))
let server: ChildProcess | undefined
let failed = false
try {
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')
  const started = await startServer(dir)
  server = started.child
  const { base } = started
  const { apiToken: token } = await api<{ apiToken: string }>(base, '/api/login', {
    method: 'POST',
    body: JSON.stringify({ username: 'demo@example.com', password: 'Demo1234!' }),
  })
  const orders = await api<{ id: number; raisonSociale: string }[]>(base, '/api-protected/my-domiciliation-orders', { token })
  const orderId = orders.find((o) => o.raisonSociale === 'Boulangerie des Lilas SAS')!.id
  const letterIds = (await api<{ id: number }[]>(base, `/api-protected/documents?orderId=${orderId}`, { token })).map((d) => d.id)
  const pid = server.pid!
  const db = await connect({ databaseUrl: process.env.DATABASE_URL, poolSize: 1 })
  // The folders the workload renames, written beforehand (about 10,000 renames a run): each renamed once.
  const folderIds = (
    await sql<{ id: number }>`insert into folders (order_id, name)
      select ${orderId}, 'Préparé ' || n from generate_series(1, ${PREPARED_FOLDERS}) as n returning id`.execute(db.db)
  ).rows.map((r) => r.id)
  const renamed = async () =>
    Number(
      (await sql<{ n: string }>`select count(*) as n from folders where order_id = ${orderId} and name like 'Endurance %'`.execute(db.db))
        .rows[0]!.n,
    )
  // The demo's letters are processed after the start: the warm-up's memory must not count that work.
  const jobsWait = await backgroundSettled(db.db, { timeoutMs: 300_000 })
  console.log(`[soak] tâches de fond de la démonstration terminées (${jobsWait} s d’attente)`)

  let samples: number[] = []
  const sampler = setInterval(() => {
    rssMb(pid).then(
      (mb) => samples.push(mb),
      () => {},
    )
  }, SAMPLE_EVERY_MS)
  console.log(`[soak] échauffement : ${WARMUP_SECONDS} s, ${CONNECTIONS} connexions`)
  const warmTally: Tally = {}
  const warmup = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: WARMUP_SECONDS,
    requests: workload(token, orderId, letterIds, folderIds, warmTally, 'échauffement'),
  })
  const rssAfterWarmup = median(samples.slice(-WINDOW_SAMPLES))
  samples = []

  console.log(`[soak] mesure : ${SECONDS} s, ${CONNECTIONS} connexions (mémoire après l’échauffement : ${rssAfterWarmup} Mo)`)
  const tally: Tally = {}
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: workload(token, orderId, letterIds, folderIds, tally, 'mesure'),
  })
  clearInterval(sampler)
  const rssAtEnd = median(samples.slice(-WINDOW_SAMPLES))
  const everyFive = samples.filter((_, i) => i % 5 === 4)

  // Every rename answered 2xx is there: no write lost under load. autocannon stops at the set time without waiting
  // for the answers in flight, so up to one request per connection and per run may have renamed a folder unseen.
  const foldersAfter = await renamed().finally(() => db.close())
  const foldersBefore = 0
  const foldersCreated = okCount(warmTally['PUT folders/{id}']) + okCount(tally['PUT folders/{id}'])
  const drift = (rssAtEnd - rssAfterWarmup) / rssAfterWarmup
  const problems = [
    ...(warmup.errors + warmup.timeouts + warmup.non2xx
      ? [`échauffement : ${warmup.errors} erreurs, ${warmup.timeouts} délais dépassés, ${warmup.non2xx} réponses non 2xx`]
      : []),
    ...(result.errors + result.timeouts + result.non2xx
      ? [`mesure : ${result.errors} erreurs, ${result.timeouts} délais dépassés, ${result.non2xx} réponses non 2xx`]
      : []),
    ...(foldersAfter - foldersBefore < foldersCreated || foldersAfter - foldersBefore > foldersCreated + 2 * CONNECTIONS
      ? [`dossiers : ${foldersCreated} renommés (réponses 2xx), mais ${foldersAfter - foldersBefore} en base`]
      : []),
    ...(Math.abs(drift) > RSS_TOLERANCE
      ? [
          `mémoire : ${rssAfterWarmup} Mo après l’échauffement, ${rssAtEnd} Mo à la fin (${(drift * 100).toFixed(1)} %, tolérance ±${RSS_TOLERANCE * 100} %)`,
        ]
      : []),
  ]
  failed = problems.length > 0

  const rows = Object.entries(tally).map(
    ([call, codes]) =>
      `| ${call} | ${Object.values(codes).reduce((a, b) => a + b, 0)} | ${Object.entries(codes)
        .map(([c, n]) => `${c} × ${n}`)
        .join(', ')} |`,
  )
  const section = [
    '## Soak',
    '',
    `Mesuré par \`npm run bench:soak\` le ${new Date().toISOString().slice(0, 10)} : le serveur réel (\`node scripts/start.mjs\`) sur PostgreSQL (scripts/with-postgres.sh), ` +
      `${CONNECTIONS} connexions simultanées (autocannon) pendant ${SECONDS} s après ${WARMUP_SECONDS} s d’échauffement (lui-même lancé une fois finies les tâches de fond des courriers de la démonstration, images et texte : ${jobsWait} s d’attente), chacune répétant le parcours d’une cliente (Camille, Boulangerie des Lilas SAS) : ` +
      'ses domiciliations, ses courriers, ses colis, ses factures, un courrier marqué lu (`PUT /api-protected/documents/{id}` `{readFlag: true}`), un dossier renommé (`PUT /api-protected/folders/{id}`, chacun une fois, nom unique ; créer un dossier est limité à 60 par heure et par cliente).',
    '',
    `Machine : ${machineDescription()} ; charge moyenne au départ (1 / 5 / 15 min) : ${load}. Machine partagée : les chiffres absolus varient d’une exécution à l’autre.`,
    '',
    '| requêtes | req/s | p50 (ms) | p90 (ms) | p99 (ms) | max (ms) | erreurs | délais dépassés | non 2xx |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${result.requests.total} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p90} | ${result.latency.p99} | ${result.latency.max} | ${result.errors} | ${result.timeouts} | ${result.non2xx} |`,
    '',
    '| appel | réponses | codes |',
    '| --- | ---: | --- |',
    ...rows,
    '',
    `Mémoire résidente (VmRSS) du serveur, relevée chaque seconde, médiane des ${WINDOW_SAMPLES} dernières secondes de chaque phase : ${rssAfterWarmup} Mo après l’échauffement, ` +
      `${rssAtEnd} Mo à la fin (${drift >= 0 ? '+' : ''}${(drift * 100).toFixed(1)} % ; tolérance ±${RSS_TOLERANCE * 100} %) ; pendant la mesure, toutes les 5 s : ${everyFive.join(', ')} Mo ` +
      `(min ${Math.min(...samples)}, max ${Math.max(...samples)}).`,
    '',
    'Lecture : la mémoire monte et redescend au rythme du ramasse-miettes (les relevés), d’où des médianes plutôt que deux instants ; ' +
      'une fuite s’y verrait comme une hausse qui ne redescend pas d’un relevé à l’autre.',
    '',
    `Dossiers renommés : ${foldersCreated} réponses 2xx (échauffement compris), ${foldersAfter - foldersBefore} trouvés ensuite en base ` +
      '(l’écart : les requêtes encore en vol quand autocannon s’arrête, dont il ne compte pas la réponse ; au plus une par connexion et par phase).',
    '',
    failed ? `**Échec** : ${problems.join(' ; ')}.` : 'Verdict : aucune erreur, aucune réponse hors 2xx, mémoire stable.',
    '',
  ].join('\n')
  console.log(section)
  if (SECONDS >= FULL_SECONDS) {
    await saveSection('Soak', section)
    console.log('[soak] docs/BENCHMARKS.md mis à jour')
  } else {
    console.log(`[soak] durée réduite (${SECONDS} s < ${FULL_SECONDS} s) : docs/BENCHMARKS.md n’est pas modifié`)
  }
  if (failed) console.error(`[soak] ÉCHEC : ${problems.join(' ; ')}`)
} catch (error) {
  failed = true
  console.error('[soak] ÉCHEC :', error instanceof Error ? error.message : error)
} finally {
  await stopServer(server)
  await rm(dir, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)
