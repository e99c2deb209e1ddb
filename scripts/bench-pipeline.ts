// npm run bench:pipeline — a benchmark, not a test: the real server (`node scripts/start.mjs`, as production runs it) on
// PostgreSQL is sent, through the operator API, two hostile letters (a 1.2 MB PDF of eight 7000 × 7000 pictures on one
// page; a 1 KB JBIG2 picture declaring a 60000 × 60000 region) then 200 ordinary ones (180 with a text layer, 20 scans
// read by OCR), while customers read their letters at a steady rate. Measured: the API's resident memory throughout
// (every 50 ms) and that of its render process, the customers' p99 against the same workload with the server idle, and
// the memory once the work is done. Fails (exit 1) when the API passes 600 MB, the p99 passes 1.5 × the idle one, a
// customer call fails or a letter is not published. Writes the « Courrier hostile » section of docs/BENCHMARKS.md.
//   DATABASE_URL set: that PostgreSQL; otherwise one is made by scripts/with-postgres.sh.
//   BENCH_LETTERS (200), BENCH_IDLE_SECONDS (20), BENCH_RATE (requests a second, 100): a smaller run only prints.
import type { ChildProcess } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect } from '../server/db/connect.ts'
import { letterPdf } from '../server/services/pdf.ts'
import { backgroundSettled } from '../test/util/background-settled.ts'
import { jbig2RegionPdf, manyBigImagesPdf } from '../test/util/hostile-pdfs.ts'
import { imageOnlyPdf } from '../test/util/letters.ts'
import { onPostgres, rssMb, startServer, stopServer } from './bench-process.ts'
import { machineDescription, median, saveSection } from './bench-report.ts'

// autocannon ships no types: the little of its API used here.
interface CustomerRequest {
  method: string
  path: string
  headers?: Record<string, string>
}
interface AutocannonResult {
  requests: { average: number; total: number }
  latency: { p50: number; p90: number; p99: number; max: number }
  errors: number
  timeouts: number
  non2xx: number
}
interface AutocannonInstance {
  stop(): void
}
type Autocannon = (
  options: { url: string; connections: number; duration: number; overallRate: number; requests: CustomerRequest[] },
  done: (error: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

const FULL_LETTERS = 200
const LETTERS = Number(process.env.BENCH_LETTERS || FULL_LETTERS)
const SCANS = Math.round(LETTERS / 10)
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS || 20)
const RATE = Number(process.env.BENCH_RATE || 100)
const CONNECTIONS = 4
const TOKEN = 'jeton-operateur-du-banc-pipeline-0123456789'
const API_CEILING_MB = 600
const P99_RATIO = 1.5
/** The render process ends after a minute idle (letter-render-process.ts): waited for, then the API's memory at rest. */
const REST_SECONDS = 65 + IDLE_SECONDS
const SAMPLE_EVERY_MS = 50

onPostgres('scripts/bench-pipeline.ts', 'pipeline')

/** The processes `pid` started (its render process), from each of its threads' children. */
async function childrenOf(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[])
  const lists = await Promise.all(tasks.map((task) => readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')))
  return lists.join(' ').split(/\s+/).filter(Boolean).map(Number)
}

async function api<T>(base: string, path: string, init: RequestInit & { token?: string; operator?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(init.token ? { apiToken: init.token } : {}),
    ...(init.operator ? { authorization: `Bearer ${TOKEN}` } : {}),
  }
  const res = await fetch(`${base}${path}`, { ...init, headers })
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} : ${res.status} ${await res.text()}`)
  return res.json() as Promise<T>
}

/** A customer reading her mail: her orders, her letters, her account, her invoices. */
const customer = (token: string, orderId: number): CustomerRequest[] => [
  { method: 'GET', path: '/api-protected/my-domiciliation-orders', headers: { apiToken: token } },
  { method: 'GET', path: `/api-protected/documents?orderId=${orderId}`, headers: { apiToken: token } },
  { method: 'GET', path: '/api-protected/user/me', headers: { apiToken: token } },
  { method: 'GET', path: '/api-protected/invoices', headers: { apiToken: token } },
]

/** The customers' workload at RATE requests a second until `until` settles (or `seconds` pass). */
function customers(base: string, token: string, orderId: number, seconds: number, until?: Promise<unknown>): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: base, connections: CONNECTIONS, duration: seconds, overallRate: RATE, requests: customer(token, orderId) },
      (error, result) => (error ? reject(error) : resolve(result)),
    )
    void until?.finally(() => instance.stop())
  })
}

/** The ordinary letters: text letters of one to three pages, and one scan in ten (OCR), each of its own. */
async function ordinaryLetters(count: number): Promise<{ sender: string; pdf: Buffer }[]> {
  const letters: { sender: string; pdf: Buffer }[] = []
  for (let n = 1; n <= count; n++) {
    if (n % Math.round(count / SCANS) === 0) {
      letters.push({
        sender: `Cabinet numérisé ${n}`,
        pdf: await imageOnlyPdf([
          `Relevé trimestriel numéro ${n}`,
          'Cotisation des artisans boulangers',
          `À régler avant le ${1 + (n % 27)} mars 2027`,
        ]),
      })
      continue
    }
    const pdf = await letterPdf({
      sender: `Fournisseur ${n}`,
      senderAddress: ['12 rue des Tests', '75011 Paris'],
      recipient: ['Boulangerie des Lilas SAS', '3 rue des Lilas', '75020 Paris'],
      place: 'Paris',
      date: new Date(Date.UTC(2026, 10, 1 + (n % 28))),
      subject: `Facture de farine n° ${n}`,
      pages: 1 + (n % 3),
      paragraphs: [
        `Veuillez trouver ci-joint notre facture numéro ${n} pour la livraison de farine du mois.`,
        `Montant à payer : ${100 + n},00 EUR, à régler au plus tard le 15/12/2026.`,
      ],
    })
    letters.push({ sender: `Fournisseur ${n}`, pdf: Buffer.from(pdf) })
  }
  return letters
}

const dir = await mkdtemp(join(tmpdir(), 'portail-pipeline-'))
let server: ChildProcess | undefined
let failed = false
try {
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')
  const hostile = [
    { sender: 'Huit images immenses', pdf: manyBigImagesPdf() },
    { sender: 'Région JBIG2 immense', pdf: jbig2RegionPdf() },
  ]
  const ordinary = await ordinaryLetters(LETTERS)
  const started = await startServer(dir, { OPERATOR_TOKEN: TOKEN })
  server = started.child
  const { base, log } = started
  const pid = server.pid!
  const { apiToken: token } = await api<{ apiToken: string }>(base, '/api/login', {
    method: 'POST',
    body: JSON.stringify({ username: 'demo@example.com', password: 'Demo1234!' }),
  })
  const orders = await api<{ id: number; raisonSociale: string }[]>(base, '/api-protected/my-domiciliation-orders', { token })
  const orderId = orders.find((o) => o.raisonSociale === 'Boulangerie des Lilas SAS')!.id
  const jobsDb = await connect({ databaseUrl: process.env.DATABASE_URL, poolSize: 1 })
  try {
    const demoWait = await backgroundSettled(jobsDb.db, { timeoutMs: 300_000 })
    console.log(`[pipeline] tâches de fond de la démonstration terminées (${demoWait} s d’attente)`)

    // Memory, every 50 ms: the API's process and its render process (a new one after each kill).
    const apiMemory = { samples: [] as number[] }
    const render = { samples: [] as number[], pids: new Set<number>() }
    type Phase = 'idle' | 'load' | 'rest'
    let phase = 'idle' as Phase
    const byPhase: Record<Phase, { api: number; render: number }> = {
      idle: { api: 0, render: 0 },
      load: { api: 0, render: 0 },
      rest: { api: 0, render: 0 },
    }
    const sampler = setInterval(() => {
      void Promise.all([
        rssMb(pid),
        childrenOf(pid).then((pids) =>
          Promise.all(
            pids.map(async (child) => {
              render.pids.add(child)
              return rssMb(child)
            }),
          ),
        ),
      ]).then(([mine, children]) => {
        const drawing = Math.max(0, ...children)
        apiMemory.samples.push(mine)
        render.samples.push(drawing)
        byPhase[phase].api = Math.max(byPhase[phase].api, mine)
        byPhase[phase].render = Math.max(byPhase[phase].render, drawing)
      })
    }, SAMPLE_EVERY_MS)

    console.log(`[pipeline] au repos : ${IDLE_SECONDS} s, ${RATE} requêtes/s (${CONNECTIONS} connexions)`)
    const idle = await customers(base, token, orderId, IDLE_SECONDS)
    const apiIdleMb = median(apiMemory.samples)

    phase = 'load'
    console.log(`[pipeline] charge : 2 courriers hostiles puis ${ordinary.length} ordinaires (${SCANS} numérisés), mêmes clientes`)
    const loadStarted = Date.now()
    const ids: { hostile: number[]; ordinary: number[] } = { hostile: [], ordinary: [] }
    const work = (async () => {
      for (const [kind, letters] of [
        ['hostile', hostile],
        ['ordinary', ordinary],
      ] as const) {
        for (const { sender, pdf } of letters) {
          const { document } = await api<{ document: { id: number } }>(base, `/api/operator/domiciliation-orders/${orderId}/documents`, {
            method: 'POST',
            operator: true,
            body: JSON.stringify({ sender, kind: 'courrier', file: `data:application/pdf;base64,${pdf.toString('base64')}` }),
          })
          ids[kind].push(document.id)
        }
      }
      await backgroundSettled(jobsDb.db, { timeoutMs: 1_800_000 })
    })()
    const [loaded] = await Promise.all([customers(base, token, orderId, 3600, work), work])
    const loadSeconds = Math.round((Date.now() - loadStarted) / 1000)

    phase = 'rest'
    console.log(
      `[pipeline] fin du travail en ${loadSeconds} s ; repos : ${REST_SECONDS} s, les clientes encore mesurées pendant ses ${IDLE_SECONDS} dernières`,
    )
    await new Promise((resolve) => setTimeout(resolve, (REST_SECONDS - IDLE_SECONDS) * 1000))
    // The machine is shared: the idle figure is taken before and after the work, the render process gone by then.
    const idleAfter = await customers(base, token, orderId, IDLE_SECONDS)
    clearInterval(sampler)
    const restSamples = apiMemory.samples.slice(-Math.round(10_000 / SAMPLE_EVERY_MS))
    const apiRestMb = median(restSamples)
    const renderGoneAfter = (() => {
      const tail = render.samples.slice(-Math.round((REST_SECONDS * 1000) / SAMPLE_EVERY_MS))
      const last = tail.findLastIndex((mb) => mb > 0)
      return last < 0 ? 0 : Math.round(((last + 1) * SAMPLE_EVERY_MS) / 1000)
    })()

    // What became of each letter, as the customer sees it, and what the operators were told.
    const letters = await api<{ id: number; pageImages: number; searchable: boolean }[]>(
      base,
      `/api-protected/documents?orderId=${orderId}`,
      { token },
    )
    const seen = new Map(letters.map((l) => [l.id, l]))
    const jobs = await jobsDb.db.selectFrom('jobs').select(['state', 'attempts', 'payload']).where('kind', '=', 'letter-pipeline').execute()
    const jobOf = new Map(jobs.map((j) => [(j.payload as { documentId: number }).documentId, j]))
    const serverLog = (await readFile(log, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>
        } catch {
          return { msg: line }
        }
      })
    const lessened = serverLog.filter((entry) => String(entry.msg).startsWith('aperçu du courrier allégé'))
    const causeOf = (id: number) =>
      (lessened.find((entry) => entry.documentId === id)?.pages as { rendu: string; cause: string }[] | undefined)
        ?.map((p) => `${p.rendu} (${p.cause})`)
        .join(', ') ?? 'entière'
    const published = (id: number) => seen.get(id)?.pageImages && jobOf.get(id)?.state === 'done'
    const unpublished = [...ids.hostile, ...ids.ordinary].filter((id) => !published(id))
    const retried = jobs.filter((j) => j.attempts > 1).length
    const searchable = ids.ordinary.filter((id) => seen.get(id)?.searchable).length
    const idleP99 = (idle.latency.p99 + idleAfter.latency.p99) / 2
    const ratio = loaded.latency.p99 / Math.max(1, idleP99)
    const apiMax = byPhase.load.api
    const problems = [
      ...(apiMax >= API_CEILING_MB ? [`mémoire de l’API : ${apiMax} Mo (plafond ${API_CEILING_MB} Mo)`] : []),
      ...(byPhase.load.render >= API_CEILING_MB ? [`mémoire du processus de rendu : ${byPhase.load.render} Mo`] : []),
      ...(ratio > P99_RATIO
        ? [`p99 des clientes : ${loaded.latency.p99} ms en charge, ${idleP99} ms au repos (× ${ratio.toFixed(2)}, plafond × ${P99_RATIO})`]
        : []),
      ...([idle, loaded, idleAfter].some((r) => r.errors + r.timeouts + r.non2xx)
        ? [
            `appels des clientes : ${[idle, loaded, idleAfter].map((r) => `${r.errors} erreurs, ${r.timeouts} délais dépassés, ${r.non2xx} non 2xx`).join(' ; ')}`,
          ]
        : []),
      ...(unpublished.length ? [`${unpublished.length} courriers sans leurs pages (${unpublished.join(', ')})`] : []),
    ]
    failed = problems.length > 0
    const hostileRows = hostile.map(({ sender, pdf }, i) => {
      const id = ids.hostile[i]!
      return `| ${sender} | ${(pdf.length / 1024).toFixed(pdf.length < 10_240 ? 1 : 0)} Ko | ${seen.get(id)?.pageImages ?? 0} | ${jobOf.get(id)?.state} (${jobOf.get(id)?.attempts} essai) | ${causeOf(id)} |`
    })
    const section = [
      '## Courrier hostile',
      '',
      `Mesuré par \`npm run bench:pipeline\` le ${new Date().toISOString().slice(0, 10)} : le serveur réel (\`node scripts/start.mjs\`, construit) sur PostgreSQL (scripts/with-postgres.sh), ` +
        `les données de démonstration, une fois leurs courriers traités. Des clientes lisent leur courrier à ${RATE} requêtes/s (${CONNECTIONS} connexions, autocannon : ` +
        'domiciliations, courriers, compte, factures), d’abord serveur au repos, puis pendant que l’API d’opérateurs envoie, l’un après l’autre, deux courriers hostiles ' +
        `puis ${ordinary.length} ordinaires (${ordinary.length - SCANS} avec une couche de texte, d’une à trois pages, et ${SCANS} numérisés, lus par OCR), jusqu’à la fin de leurs tâches de fond.`,
      '',
      `Machine : ${machineDescription()} ; charge moyenne au départ (1 / 5 / 15 min) : ${load}. Machine partagée et bruyante : les chiffres absolus varient d’une exécution à l’autre ; une seule exécution.`,
      '',
      '| courrier hostile | taille | pages publiées | tâche | page 1 |',
      '| --- | ---: | ---: | --- | --- |',
      ...hostileRows,
      '',
      'Avant, quand le rendu se faisait sur un fil du processus de l’API (limite de 256 Mo de tas JavaScript, qui ne compte ni les images décodées ni le canevas), ' +
        'ces deux PDF menaient le processus de l’API à 3,8 Go et 5,1 Go, chacun repris 5 fois (22 s chaque), et le processus gardait 4,1 Go au repos ensuite.',
      '',
      `Les ${ordinary.length} ordinaires : ${ordinary.length - unpublished.filter((id) => ids.ordinary.includes(id)).length} publiés avec leurs pages, ${searchable} cherchables ; ` +
        `${retried} tâche(s) reprise(s) ; tout traité en ${loadSeconds} s.`,
      '',
      '| mémoire résidente (VmRSS, relevée toutes les 50 ms) | au repos avant | pendant le travail (max) | après (médiane des 10 dernières s) |',
      '| --- | ---: | ---: | ---: |',
      `| processus de l’API | ${apiIdleMb} Mo (médiane) | ${apiMax} Mo | ${apiRestMb} Mo |`,
      `| processus de rendu (${render.pids.size} lancés : le premier, puis un après chaque arrêt, mémoire dépassée ou plus de 200 Mo gardés après un courrier) | ${byPhase.idle.render || '—'} Mo | ${byPhase.load.render} Mo | ${byPhase.rest.render ? `arrêté ${renderGoneAfter} s après la fin` : '—'} |`,
      '',
      '| clientes | requêtes | p50 (ms) | p90 (ms) | p99 (ms) | max (ms) | erreurs / non 2xx |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      `| serveur au repos avant (${IDLE_SECONDS} s) | ${idle.requests.total} | ${idle.latency.p50} | ${idle.latency.p90} | ${idle.latency.p99} | ${idle.latency.max} | ${idle.errors + idle.timeouts} / ${idle.non2xx} |`,
      `| pendant le travail (${loadSeconds} s) | ${loaded.requests.total} | ${loaded.latency.p50} | ${loaded.latency.p90} | ${loaded.latency.p99} | ${loaded.latency.max} | ${loaded.errors + loaded.timeouts} / ${loaded.non2xx} |`,
      `| serveur au repos après (${IDLE_SECONDS} s) | ${idleAfter.requests.total} | ${idleAfter.latency.p50} | ${idleAfter.latency.p90} | ${idleAfter.latency.p99} | ${idleAfter.latency.max} | ${idleAfter.errors + idleAfter.timeouts} / ${idleAfter.non2xx} |`,
      '',
      `p99 en charge / au repos (moyenne des deux mesures au repos, ${idleP99} ms) : × ${ratio.toFixed(2)} (plafond × ${P99_RATIO}). Plafonds : ${API_CEILING_MB} Mo pour l’API ; le processus de rendu se tue lui-même au-delà de 450 Mo ` +
        '(le relevé toutes les 50 ms voit moins que son pic : son propre relevé, toutes les 10 ms, est dans le journal du serveur, « mémoire du processus de rendu dépassée (… Mo pour 450 Mo) »).',
      '',
      'Lecture : le p99 varie d’une fenêtre à l’autre avec le reste de la machine partagée ; le processus de rendu et le fil de l’OCR tournent à priorité basse ' +
        '(nice 10), si bien que le travail des courriers ne s’y voit pas plus que ce bruit.',
      '',
      failed
        ? `**Échec** : ${problems.join(' ; ')}.`
        : 'Verdict : mémoire de l’API sous son plafond, p99 des clientes dans les × 1,5, tous les courriers publiés.',
      '',
    ].join('\n')
    console.log(section)
    if (LETTERS >= FULL_LETTERS && IDLE_SECONDS >= 20) {
      await saveSection('Courrier hostile', section, { before: 'Mémoire sur une longue session' })
      console.log('[pipeline] docs/BENCHMARKS.md mis à jour')
    } else {
      console.log('[pipeline] exécution réduite : docs/BENCHMARKS.md n’est pas modifié')
    }
    if (failed) console.error(`[pipeline] ÉCHEC : ${problems.join(' ; ')}`)
  } finally {
    await jobsDb.close()
  }
} catch (error) {
  failed = true
  console.error('[pipeline] ÉCHEC :', error instanceof Error ? error.stack : error)
} finally {
  await stopServer(server)
  await rm(dir, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)
