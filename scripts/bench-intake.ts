// npm run bench:intake — a benchmark, not a test: the mail room's throughput. The real server (`node scripts/start.mjs`,
// built) on PostgreSQL is sent, through the back office's API as the Numérisation page sends it (one request per file,
// four at once), a batch of one-page scans, half with a text layer and half image-only (read by OCR); each is read,
// confirmed with its suggested order and published (« Publier tous les confirmés »). Measured: scans per minute from
// the first upload to the last letter searchable, against a ceiling measured in the same run before the server starts:
// tesseract.js alone (the server's own OCR module, one worker) on the same image pages, on the same cores; and the
// customers' p99 with the server idle and during the batch. Beside it, what the server cannot do without: the same
// pages drawn as it draws them (pdf.js, the viewer's WebP, the scans' grey picture), in one process, and the bound that
// OCR and drawing alone set on these cores. Writes the « Numérisation » section of docs/BENCHMARKS.md.
//   DATABASE_URL set: that PostgreSQL; otherwise one is made by scripts/with-postgres.sh.
//   BENCH_SCANS (200), BENCH_IDLE_SECONDS (20), BENCH_RATE (requests a second, 100): a smaller run only prints.
import type { ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect } from '../server/db/connect.ts'
import { totpCode } from '../server/lib/totp.ts'
import { demoOperators } from '../server/demo/seed.ts'
import { renderPages } from '../server/services/letter-render.ts'
import { tesseractOcr } from '../server/services/ocr.ts'
import { backgroundSettled } from '../test/util/background-settled.ts'
import { scannedPage, textLayerPdf } from '../test/util/letters.ts'
import { PDFDocument } from 'pdf-lib'
import { onPostgres, startServer, stopServer } from './bench-process.ts'
import { machineDescription, saveSection } from './bench-report.ts'

interface AutocannonResult {
  requests: { total: number }
  latency: { p50: number; p90: number; p99: number; max: number }
  errors: number
  timeouts: number
  non2xx: number
}
type Autocannon = (
  options: {
    url: string
    connections: number
    duration: number
    overallRate: number
    requests: { method: string; path: string; headers: Record<string, string> }[]
  },
  done: (error: Error | null, result: AutocannonResult) => void,
) => { stop(): void }
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

const FULL_SCANS = 200
const SCANS = Number(process.env.BENCH_SCANS || FULL_SCANS)
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS || 20)
const RATE = Number(process.env.BENCH_RATE || 100)
const CONNECTIONS = 4
/** Uploads at once, as the Numérisation page sends a batch. */
const UPLOADS_AT_ONCE = 4
const GOAL = 0.8
const P99_RATIO = 1.2

onPostgres('scripts/bench-intake.ts', 'intake')

/** The lines of scan `n`: a letter to the Boulangerie, named by its SIREN (the order it will be suggested). */
const linesOf = (n: number) => [
  `URSSAF Ile-de-France - appel numero ${n}`,
  'BOULANGERIE DES LILAS SAS',
  '27 rue des Lilas 75019 Paris',
  'SIREN 823 456 785',
  `Objet : cotisations du trimestre ${1 + (n % 4)}`,
  `Montant a regler : ${100 + n},00 EUR avant le 15/12/2026`,
]

/** Half with a text layer, half image-only (their picture kept for the ceiling). */
async function scans(count: number) {
  const made: { name: string; pdf: Buffer; picture: Buffer | null }[] = []
  for (let n = 1; n <= count; n++) {
    if (n % 2 === 0) {
      const picture = await scannedPage(linesOf(n))
      const doc = await PDFDocument.create()
      doc.addPage([595, 842]).drawImage(await doc.embedPng(picture), { x: 0, y: 0, width: 595, height: 842 })
      made.push({ name: `scan-${n}.pdf`, pdf: Buffer.from(await doc.save()), picture })
    } else made.push({ name: `scan-${n}.pdf`, pdf: await textLayerPdf([linesOf(n)]), picture: null })
  }
  return made
}

async function json<T>(base: string, path: string, init: RequestInit & { bearer?: string; token?: string } = {}): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    ...init,
    headers: {
      'content-type': 'application/json',
      ...(init.bearer ? { authorization: `Bearer ${init.bearer}` } : {}),
      ...(init.token ? { apiToken: init.token } : {}),
    },
  })
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} : ${res.status} ${await res.text()}`)
  return res.json() as Promise<T>
}

function customers(base: string, token: string, orderId: number, seconds: number, until?: Promise<unknown>) {
  const headers = { apiToken: token }
  return new Promise<AutocannonResult>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: seconds,
        overallRate: RATE,
        requests: [
          { method: 'GET', path: '/api-protected/my-domiciliation-orders', headers },
          { method: 'GET', path: `/api-protected/documents?orderId=${orderId}`, headers },
          { method: 'GET', path: '/api-protected/user/me', headers },
          { method: 'GET', path: '/api-protected/invoices', headers },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    )
    void until?.finally(() => instance.stop())
  })
}

/** Runs `work` on every item, `atOnce` at a time. */
async function pool<T>(items: T[], atOnce: number, work: (item: T) => Promise<void>) {
  let next = 0
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      while (next < items.length) await work(items[next++]!)
    }),
  )
}

const dir = await mkdtemp(join(tmpdir(), 'portail-intake-'))
let server: ChildProcess | undefined
let failed = false
try {
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')
  const batch = await scans(SCANS)
  const pictures = batch.flatMap((s) => (s.picture ? [s.picture] : []))

  // The ceiling: tesseract.js alone on the same pages, one worker as the server has, before the server runs.
  const ocr = tesseractOcr()
  await ocr.read(pictures[0]!) // its start (the worker, the French data) is not the pages' time
  const ceilingStarted = performance.now()
  for (const picture of pictures) await ocr.read(picture)
  const ocrSeconds = (performance.now() - ceilingStarted) / 1000
  await ocr.close()
  const ceilingPerMinute = (SCANS / ocrSeconds) * 60
  console.log(`[intake] plafond : ${pictures.length} pages lues par tesseract.js seul en ${ocrSeconds.toFixed(1)} s`)

  // What the server must do besides OCR: every page drawn as it draws them, here in this one process. OCR and drawing
  // spread perfectly over the cores, with nothing else to do, bound the batch's pace.
  await renderPages(new Uint8Array(batch[0]!.pdf)) // pdf.js and the canvas loaded
  const drawStarted = performance.now()
  for (const scan of batch) await renderPages(new Uint8Array(scan.pdf))
  const drawSeconds = (performance.now() - drawStarted) / 1000
  const cores = availableParallelism()
  const boundSeconds = (ocrSeconds + drawSeconds) / cores
  console.log(`[intake] dessin : ${SCANS} pages dessinées comme le serveur en ${drawSeconds.toFixed(1)} s`)

  const started = await startServer(dir)
  server = started.child
  const { base } = started
  const { apiToken: token } = await json<{ apiToken: string }>(base, '/api/login', {
    method: 'POST',
    body: JSON.stringify({ username: 'demo@example.com', password: 'Demo1234!' }),
  })
  const orders = await json<{ id: number; raisonSociale: string }[]>(base, '/api-protected/my-domiciliation-orders', { token })
  const orderId = orders.find((o) => o.raisonSociale === 'Boulangerie des Lilas SAS')!.id
  const courrier = demoOperators.find((o) => o.email === 'courrier@example.com')!
  const { ticket } = await json<{ ticket: string }>(base, '/api/operator-auth/password', {
    method: 'POST',
    body: JSON.stringify({ email: courrier.email, password: 'Demo1234!' }),
  })
  const { token: operator } = await json<{ token: string }>(base, '/api/operator-auth/code', {
    method: 'POST',
    body: JSON.stringify({ ticket, code: totpCode(courrier.totpSecret, new Date()) }),
  })
  const jobsDb = await connect({ databaseUrl: process.env.DATABASE_URL, poolSize: 1 })
  try {
    const demoWait = await backgroundSettled(jobsDb.db, { timeoutMs: 300_000 })
    console.log(`[intake] tâches de fond de la démonstration terminées (${demoWait} s d’attente)`)
    console.log(`[intake] au repos : ${IDLE_SECONDS} s, ${RATE} requêtes/s`)
    const idle = await customers(base, token, orderId, IDLE_SECONDS)

    console.log(`[intake] lot : ${SCANS} numérisations (${pictures.length} sans texte), ${UPLOADS_AT_ONCE} envois à la fois`)
    const batchStarted = performance.now()
    let uploadedAfter = 0
    let readAfter = 0
    let toCheck = 0
    const published: number[] = []
    const work = (async () => {
      const ids: number[] = []
      await pool(batch, UPLOADS_AT_ONCE, async ({ name, pdf }) => {
        const scan = await json<{ id: number }>(base, '/api/backoffice/scans', {
          method: 'POST',
          bearer: operator,
          body: JSON.stringify({ fileName: name, file: `data:application/pdf;base64,${pdf.toString('base64')}` }),
        })
        ids.push(scan.id)
      })
      uploadedAfter = (performance.now() - batchStarted) / 1000
      // Every scan read: the operator confirms the suggestion (or the Boulangerie when none), then publishes all.
      for (;;) {
        const queue = await json<{ id: number; reading: string; orderId: number | null; sender: string | null; toCheck: string | null }[]>(
          base,
          '/api/backoffice/scans',
          { bearer: operator },
        )
        const mine = queue.filter((s) => ids.includes(s.id))
        if (mine.every((s) => s.reading !== 'en cours')) {
          readAfter = (performance.now() - batchStarted) / 1000
          toCheck = mine.filter((s) => s.toCheck).length
          await pool(mine, UPLOADS_AT_ONCE, async (s) => {
            await json(base, `/api/backoffice/scans/${s.id}`, {
              method: 'PUT',
              bearer: operator,
              body: JSON.stringify({
                orderId: s.orderId ?? orderId,
                sender: s.sender ?? 'Expéditeur inconnu',
                kind: 'courrier',
                confirmed: true,
              }),
            })
          })
          break
        }
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
      const reply = await json<{ published: { document: { id: number; searchable: boolean } }[] }>(base, '/api/backoffice/scans/publish', {
        method: 'POST',
        bearer: operator,
        body: JSON.stringify({ scanIds: ids }),
      })
      published.push(...reply.published.map((p) => p.document.id))
    })()
    const [loaded] = await Promise.all([customers(base, token, orderId, 7200, work), work])
    // The letters as the customer reads them: searchable once published (their text came with the scan).
    const letters = await json<{ id: number; searchable: boolean }[]>(base, `/api-protected/documents?orderId=${orderId}`, { token })
    const searchable = letters.filter((l) => published.includes(l.id) && l.searchable).length
    const lastSearchableAfter = (performance.now() - batchStarted) / 1000
    const perMinute = (SCANS / lastSearchableAfter) * 60
    const share = perMinute / ceilingPerMinute
    const ratio = loaded.latency.p99 / Math.max(1, idle.latency.p99)
    const problems = [
      ...(published.length < SCANS ? [`${SCANS - published.length} numérisations non publiées`] : []),
      ...(searchable < SCANS ? [`${SCANS - searchable} courriers publiés sans texte cherchable`] : []),
      ...([idle, loaded].some((r) => r.errors + r.timeouts + r.non2xx) ? ['des appels des clientes ont échoué'] : []),
    ]
    failed = problems.length > 0
    const row = (label: string, r: AutocannonResult) =>
      `| ${label} | ${r.requests.total} | ${r.latency.p50} | ${r.latency.p90} | ${r.latency.p99} | ${r.latency.max} | ${r.errors + r.timeouts} / ${r.non2xx} |`
    const section = [
      '## Numérisation',
      '',
      `Mesuré par \`npm run bench:intake\` le ${new Date().toISOString().slice(0, 10)} : le serveur réel (\`node scripts/start.mjs\`, construit) sur PostgreSQL, ` +
        `les données de démonstration une fois leurs courriers traités. Un opérateur Courrier envoie ${SCANS} numérisations d’une page (${SCANS - pictures.length} avec une couche de texte, ` +
        `${pictures.length} sans texte, lues par OCR), ${UPLOADS_AT_ONCE} à la fois comme la page Numérisation, attend leur lecture, confirme chaque domiciliation suggérée puis « Publier tous les confirmés », ` +
        `pendant que des clientes lisent leur courrier à ${RATE} requêtes/s.`,
      '',
      `Machine : ${machineDescription()} ; charge moyenne au départ (1 / 5 / 15 min) : ${load}. Une seule exécution, machine partagée.`,
      '',
      '| | secondes | numérisations / min |',
      '| --- | ---: | ---: |',
      `| plafond : tesseract.js seul sur les ${pictures.length} pages sans texte (un worker, comme le serveur) | ${ocrSeconds.toFixed(1)} | ${ceilingPerMinute.toFixed(1)} |`,
      `| les ${SCANS} pages dessinées comme le serveur les dessine (pdf.js, WebP de la visionneuse, image grise des scans pour l’OCR ; un processus) | ${drawSeconds.toFixed(1)} | |`,
      `| borne : l’OCR et le dessin seuls, répartis sans perte sur ${cores} cœurs | ${boundSeconds.toFixed(1)} | ${((SCANS / boundSeconds) * 60).toFixed(1)} (${((ocrSeconds / boundSeconds) * 100).toFixed(0)} % du plafond) |`,
      `| envois terminés | ${uploadedAfter.toFixed(1)} | |`,
      `| toutes lues (pages, texte, domiciliation suggérée ; ${toCheck} « À vérifier ») | ${readAfter.toFixed(1)} | |`,
      `| la dernière publiée et cherchable | ${lastSearchableAfter.toFixed(1)} | ${perMinute.toFixed(1)} |`,
      '',
      `Débit : ${(share * 100).toFixed(0)} % du plafond (objectif ${GOAL * 100} %). ${searchable} courriers cherchables sur ${SCANS}.`,
      '',
      '| clientes | requêtes | p50 (ms) | p90 (ms) | p99 (ms) | max (ms) | erreurs / non 2xx |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      row(`serveur au repos (${IDLE_SECONDS} s)`, idle),
      row(`pendant le lot (${lastSearchableAfter.toFixed(0)} s)`, loaded),
      '',
      `p99 pendant le lot / au repos : × ${ratio.toFixed(2)} (objectif × ${P99_RATIO}).`,
      '',
      failed ? `**Échec** : ${problems.join(' ; ')}.` : 'Toutes les numérisations publiées et cherchables.',
      '',
    ].join('\n')
    console.log(section)
    if (SCANS >= FULL_SCANS && IDLE_SECONDS >= 20) {
      await saveSection('Numérisation', section, { before: 'Mémoire sur une longue session' })
      console.log('[intake] docs/BENCHMARKS.md mis à jour')
    } else console.log('[intake] exécution réduite : docs/BENCHMARKS.md n’est pas modifié')
    if (failed) console.error(`[intake] ÉCHEC : ${problems.join(' ; ')}`)
  } finally {
    await jobsDb.close()
  }
} catch (error) {
  failed = true
  console.error('[intake] ÉCHEC :', error instanceof Error ? error.stack : error)
} finally {
  await stopServer(server)
  await rm(dir, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)
