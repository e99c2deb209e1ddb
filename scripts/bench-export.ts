// npm run bench:export — a benchmark, not a test: « Mes données » on years of mail. The real server (`node
// scripts/start.mjs`, built) on PostgreSQL, its job worker taking only the exports (JOB_KINDS=data-export: the demo
// letters' pipeline stays queued, so nothing else moves the memory); Sophie's order is given 2,000 letters of 250 kB each
// (random bytes behind a PDF header: the ZIP stores PDFs as they are), written straight into the database and the
// storage. Measured: the server's resident memory (VmRSS, every 50 ms) at rest, then while it prepares her ZIP and
// while she downloads it; the goal is a peak within 100 MB of the idle value. Checks that the ZIP holds every letter
// (`unzip -Z1`). Writes the « Mes données » section of docs/BENCHMARKS.md; fails (exit 1) past the goal.
//   DATABASE_URL set: that PostgreSQL; otherwise one is made by scripts/with-postgres.sh.
//   BENCH_LETTERS (2000), BENCH_LETTER_KB (250): a smaller run only prints.
import type { ChildProcess } from 'node:child_process'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { promisify } from 'node:util'
import { connect } from '../server/db/connect.ts'
import { fsStorage, newFileKey } from '../server/services/storage.ts'
import { onPostgres, rssMb, startServer, stopServer } from './bench-process.ts'
import { machineDescription, median, saveSection } from './bench-report.ts'

const FULL_LETTERS = 2000
const LETTERS = Number(process.env.BENCH_LETTERS || FULL_LETTERS)
const LETTER_KB = Number(process.env.BENCH_LETTER_KB || 250)
const GOAL_MB = 100
const SAMPLE_EVERY_MS = 50
const IDLE_SECONDS = 10

onPostgres('scripts/bench-export.ts', 'export')

async function api<T>(base: string, path: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    ...init,
    // A JSON type only with a body: the server refuses an announced JSON body that is empty (as the SPA's ofetch sends none).
    headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.token ? { apitoken: init.token } : {}) },
  })
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} : ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

/** A letter's file: a PDF header, then incompressible bytes. */
const letterBytes = () => Buffer.concat([Buffer.from('%PDF-1.4\n%'), randomBytes(LETTER_KB * 1024), Buffer.from('\n%%EOF\n')])

const dir = await mkdtemp(join(tmpdir(), 'bench-export-'))
let server: ChildProcess | undefined
try {
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')
  const started = await startServer(dir, { JOB_KINDS: 'data-export' })
  server = started.child
  const { base } = started
  const pid = server.pid!
  const handle = await connect({ databaseUrl: process.env.DATABASE_URL, poolSize: 2 })
  const storage = fsStorage(join(dir, 'storage'))
  const order = await handle.db
    .selectFrom('orders')
    .innerJoin('users', 'users.id', 'orders.owner_id')
    .select('orders.id')
    .where('users.email', '=', 'solo@example.com')
    .executeTakeFirstOrThrow()
  console.log(`[export] ${LETTERS} courriers de ${LETTER_KB} ko pour Sophie…`)
  const t0 = Date.now()
  for (let i = 0; i < LETTERS; i += 100) {
    const batch = []
    for (let n = i; n < Math.min(LETTERS, i + 100); n++) {
      const key = newFileKey('documents', 'pdf')
      await storage.put(key, letterBytes())
      batch.push({
        order_id: order.id,
        sender: `Expéditeur ${n % 40}`,
        kind: 'courrier' as const,
        received_at: new Date(Date.UTC(2020, 0, 1) + n * 86_400_000),
        pages: 1,
        file_key: key,
        text: `Courrier numéro ${n} : objet, montant, échéance. `.repeat(20),
      })
    }
    await handle.db.insertInto('documents').values(batch).execute()
  }
  console.log(`[export] écrits en ${((Date.now() - t0) / 1000).toFixed(0)} s`)
  await handle.close()

  const { apiToken: token } = await api<{ apiToken: string }>(base, '/api/login', {
    method: 'POST',
    body: JSON.stringify({ username: 'solo@example.com', password: 'Demo1234!' }),
  })
  const samples: { phase: 'idle' | 'prepare' | 'download'; mb: number }[] = []
  let phase: 'idle' | 'prepare' | 'download' = 'idle'
  const sampler = setInterval(() => void rssMb(pid).then((mb) => mb && samples.push({ phase, mb })), SAMPLE_EVERY_MS)
  console.log(`[export] au repos : ${IDLE_SECONDS} s`)
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000))
  const idle = median(samples.filter((s) => s.phase === 'idle').map((s) => s.mb))

  phase = 'prepare'
  const prepareStarted = Date.now()
  let current = await api<{ id: number; state: string; progress: number; file: string | null; bytes: number | null }>(
    base,
    '/api-protected/users/me/data-exports',
    { method: 'POST', token },
  )
  while (current.state === 'preparing') {
    await new Promise((r) => setTimeout(r, 500))
    current = await api(base, `/api-protected/users/me/data-exports/${current.id}`, { token })
  }
  if (current.state !== 'ready') throw new Error(`export ${current.state}`)
  const prepareSeconds = (Date.now() - prepareStarted) / 1000

  phase = 'download'
  const downloadStarted = Date.now()
  const zip = join(dir, 'mes-donnees.zip')
  const res = await fetch(`${base}${current.file}`, { headers: { apitoken: token } })
  if (!res.ok || !res.body) throw new Error(`téléchargement : ${res.status}`)
  await pipeline(Readable.fromWeb(res.body as never), createWriteStream(zip))
  const downloadSeconds = (Date.now() - downloadStarted) / 1000
  clearInterval(sampler)

  const { stdout } = await promisify(execFile)('unzip', ['-Z1', zip], { maxBuffer: 64 * 1024 * 1024 })
  const letterEntries = stdout.split('\n').filter((line) => line.startsWith('Courrier/')).length
  const zipMb = (await stat(zip)).size / 1e6
  const peak = (which: string) => Math.max(0, ...samples.filter((s) => s.phase === which).map((s) => s.mb))
  const [preparePeak, downloadPeak] = [peak('prepare'), peak('download')]
  const rise = Math.max(preparePeak, downloadPeak) - idle
  const passed = rise <= GOAL_MB && letterEntries >= LETTERS
  const rows = [
    '| phase | durée (s) | mémoire du serveur, pic (Mo) | au-dessus du repos (Mo) |',
    '| --- | ---: | ---: | ---: |',
    `| au repos (médiane sur ${IDLE_SECONDS} s) | ${IDLE_SECONDS} | ${idle} | 0 |`,
    `| préparation de l’archive | ${prepareSeconds.toFixed(1)} | ${preparePeak} | ${preparePeak - idle} |`,
    `| téléchargement | ${downloadSeconds.toFixed(1)} | ${downloadPeak} | ${downloadPeak - idle} |`,
  ]
  console.log(rows.join('\n'))
  console.log(
    `[export] archive : ${zipMb.toFixed(0)} Mo, ${letterEntries} courriers ; écart maximal ${rise} Mo (objectif ≤ ${GOAL_MB} Mo) : ${passed ? 'tenu' : 'ÉCHEC'}`,
  )
  if (LETTERS === FULL_LETTERS && LETTER_KB === 250) {
    await saveSection(
      '« Mes données »',
      [
        '## « Mes données »',
        '',
        `Mesuré par \`npm run bench:export\` le ${new Date().toISOString().slice(0, 10)} : le serveur réel construit (\`dist-server/\`, production, données de démonstration) sur PostgreSQL, son travailleur ne prenant que les exports ; ${LETTERS} courriers de ${LETTER_KB} ko ajoutés à la domiciliation de Sophie. Mémoire résidente du processus (VmRSS) relevée toutes les ${SAMPLE_EVERY_MS} ms. Objectif : un pic à moins de ${GOAL_MB} Mo au-dessus du repos pendant la préparation et le téléchargement.`,
        '',
        ...rows,
        '',
        `Archive de ${zipMb.toFixed(0)} Mo, ${letterEntries} courriers (vérifié par \`unzip -Z1\`) : écart maximal ${rise} Mo, objectif ${passed ? 'tenu' : 'NON tenu'}.`,
        '',
        `Machine : ${machineDescription()} ; charge moyenne au départ (1 / 5 / 15 min) : ${load}. Machine partagée : une seule exécution.`,
      ].join('\n'),
      { before: 'Historique' },
    )
    console.log('[export] docs/BENCHMARKS.md mis à jour (section « « Mes données » »)')
  } else console.log('[export] exécution réduite : docs/BENCHMARKS.md n’est pas modifié')
  if (!passed) process.exitCode = 1
} catch (error) {
  console.error('[export] ÉCHEC :', error instanceof Error ? error.message : error)
  process.exitCode = 1
} finally {
  await stopServer(server)
  await rm(dir, { recursive: true, force: true })
}
