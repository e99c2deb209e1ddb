// Mail pipeline figures for `npm run bench:api`: ingestion → searchable for a one-page scan
// (median, p95; image-only, so read by OCR) on PGlite and PostgreSQL, and the search's latency at 20
// concurrent users over 10 000 letters on PostgreSQL. Writes the "Courrier" section of docs/BENCHMARKS.md.
//   node --import tsx scripts/bench-mail.ts      (PostgreSQL through scripts/with-postgres.sh unless DATABASE_URL is set)
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { buildApp } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { connect, dropSchema } from '../server/db/connect.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { DEMO_PASSWORD, seedDemo } from '../server/demo/seed.ts'
import { startJobWorker } from '../server/services/jobs.ts'
import { LETTER_JOB, letterPipelineJob } from '../server/services/mail-pipeline.ts'
import { tesseractOcr } from '../server/services/ocr.ts'
import { testPaymentProvider } from '../server/services/payment.ts'
import { fsStorage } from '../server/services/storage.ts'
import { imageOnlyPdf } from '../test/util/letters.ts'
import { saveSection } from './bench-report.ts'

interface AutocannonResult {
  requests: { average: number; total: number }
  latency: { p50: number; p99: number }
  errors: number
  non2xx: number
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: object) => Promise<AutocannonResult>

const root = join(import.meta.dirname, '..')
const RUNS = Number(process.env.BENCH_MAIL_RUNS || 10)
const LETTERS = 10_000
const USERS = 20
const SECONDS = Number(process.env.BENCH_SECONDS || 10)
const TOKEN = 'jeton-operateur-du-banc-0123456789abcdef'

export interface MailFigures {
  database: string
  ingestion: { median: number; p95: number; runs: number }
  search?: { p50: number; p99: number; requestsPerSecond: number; errors: number; total: number; query: string }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

async function measure(database: string, databaseUrl: string | undefined): Promise<MailFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'portail-bench-mail-'))
  const schema = databaseUrl ? `bench_${randomBytes(4).toString('hex')}` : undefined
  const handle = await connect({ databaseUrl, schema, poolSize: 10 })
  const ocr = tesseractOcr()
  try {
    await migrateToLatest(handle.db)
    const storage = fsStorage(join(dir, 'storage'))
    const clock = { now: () => new Date() }
    const config = {
      ...loadConfig({}),
      storageDir: join(dir, 'storage'),
      distDir: join(dir, 'no-dist'),
      operatorToken: TOKEN,
      authRateLimit: 1_000_000,
    }
    await seedDemo(handle.db, storage, { now: clock.now(), brandName: config.brandName })
    // The demo letters' own jobs are not what is measured.
    await handle.db.updateTable('jobs').set({ state: 'done' }).where('state', '=', 'queued').execute()
    const deps = {
      db: handle.db,
      listen: handle.listen,
      oneAtATime: handle.oneAtATime,
      storage,
      payments: testPaymentProvider(handle.db, clock.now),
      mailer: { send: async () => {} },
      config,
      clock,
    }
    const worker = startJobWorker({ db: handle.db, handlers: { [LETTER_JOB]: letterPipelineJob({ db: handle.db, storage, ocr }) } })
    const app = await buildApp({ ...deps, jobs: worker }, { databaseKind: handle.kind })
    await app.ready()
    try {
      const apiToken = (
        await app.inject({ method: 'POST', url: '/api/login', payload: { username: 'demo@example.com', password: DEMO_PASSWORD } })
      ).json().apiToken as string
      const order = (
        await handle.db
          .selectFrom('orders')
          .select('id')
          .where('raison_sociale', '=', 'Boulangerie des Lilas SAS')
          .executeTakeFirstOrThrow()
      ).id
      // The OCR worker starts once per process, not per letter.
      await ocr.read(new Uint8Array(await (await import('@napi-rs/canvas')).createCanvas(10, 10).encode('png')))
      const times: number[] = []
      const words = [
        'quittance',
        'attestation',
        'convocation',
        'relance',
        'cotisation',
        'dossier',
        'contrat',
        'reglement',
        'bordereau',
        'avenant',
      ]
      for (let i = 0; i < RUNS; i++) {
        const word = `${words[i % words.length]}`
        const pdf = await imageOnlyPdf([
          `Lettre numero ${i + 1}`,
          `Objet : ${word} de la boulangerie`,
          'Veuillez agreer nos salutations distinguees.',
        ])
        const started = performance.now()
        const res = await app.inject({
          method: 'POST',
          url: `/api/operator/domiciliation-orders/${order}/documents`,
          headers: { authorization: `Bearer ${TOKEN}` },
          payload: { sender: `Expediteur ${i + 1}`, file: `data:application/pdf;base64,${pdf.toString('base64')}` },
        })
        const id = res.json().document.id as number
        for (;;) {
          const found = (
            await app.inject({ method: 'GET', url: `/api-protected/documents/search?q=${word}&orderId=${order}`, headers: { apiToken } })
          ).json()
          if (found.results.some((r: { document: { id: number } }) => r.document.id === id)) break
          if (performance.now() - started > 120_000) throw new Error(`courrier ${id} toujours introuvable après 2 minutes`)
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        times.push(performance.now() - started)
      }
      const figures: MailFigures = {
        database,
        ingestion: { median: Math.round(percentile(times, 50)), p95: Math.round(percentile(times, 95)), runs: RUNS },
      }
      if (databaseUrl) {
        // 10 000 letters with text, written directly (the pipeline is measured above), then 20 users searching at once.
        const phrases = [
          'Vous trouverez ci-joint l échéancier de vos cotisations sociales pour le trimestre à venir',
          'Votre avis de cotisation foncière des entreprises est disponible dans votre espace professionnel',
          'Les comptes annuels du dernier exercice clos n ont pas encore été déposés au greffe',
          'Veuillez trouver ci-joint le relevé mensuel de votre compte professionnel',
          'Dans le cadre du renouvellement de vos équipements nous vous proposons un crédit-bail',
          'Veuillez trouver ci-joint notre facture pour les livraisons de farines du mois écoulé',
          'Votre facture d électricité pour la période écoulée est jointe à ce courrier',
          'Votre contrat multirisque professionnelle arrive à échéance',
        ]
        await sql`insert into documents (order_id, sender, kind, received_at, pages, file_key, text, searchable)
          select ${order}, 'Expéditeur ' || (g % 300), 'courrier', now() - (g || ' minutes')::interval, 1, 'documents/bench/' || g || '.pdf',
            (array[${sql.join(phrases)}])[1 + g % ${phrases.length}] || ' référence ' || md5(g::text) || ' '
              || (array[${sql.join(phrases)}])[1 + (g * 7) % ${phrases.length}], true
          from generate_series(1, ${LETTERS}) g`.execute(handle.db)
        await sql`analyze documents`.execute(handle.db)
        const address = await app.listen({ port: 0, host: '127.0.0.1' })
        const query = 'cotisation foncière'
        const result = await autocannon({
          url: `${address}/api-protected/documents/search?q=${encodeURIComponent(query)}&orderId=${order}`,
          headers: { apiToken },
          connections: USERS,
          duration: SECONDS,
        })
        figures.search = {
          p50: result.latency.p50,
          p99: result.latency.p99,
          requestsPerSecond: Math.round(result.requests.average),
          errors: result.errors + result.non2xx,
          total: result.requests.total,
          query,
        }
      }
      return figures
    } finally {
      await app.close()
      await worker.stop()
    }
  } finally {
    await ocr.close()
    await handle.close()
    if (databaseUrl && schema) await dropSchema(databaseUrl, schema)
    await rm(dir, { recursive: true, force: true })
  }
}

function markdown(results: MailFigures[]): string {
  const pg = results.find((r) => r.search)
  return [
    '## Courrier : traitement et recherche',
    '',
    `Mesuré par \`npm run bench:api\` (\`scripts/bench-mail.ts\`) le ${new Date().toISOString().slice(0, 10)}, dans le processus, sur l'application réelle et un travailleur de tâches ; même machine partagée que la section API (les chiffres absolus varient d'une exécution à l'autre).`,
    '',
    `Ingestion → cherchable : un scan d'une page sans couche texte (donc lu par l'OCR), envoyé par l'API opérateur, jusqu'à ce que la recherche le trouve (${results[0]?.ingestion.runs ?? 0} envois successifs).`,
    '',
    '| base | médiane (ms) | p95 (ms) |',
    '| --- | ---: | ---: |',
    ...results.map((r) => `| ${r.database} | ${r.ingestion.median} | ${r.ingestion.p95} |`),
    '',
    ...(pg?.search
      ? [
          `Recherche : ${USERS} utilisateurs simultanés (autocannon, ${USERS} connexions, ${SECONDS} s) sur ${LETTERS.toLocaleString('fr-FR')} courriers d'une domiciliation, « ${pg.search.query} » (des milliers de courriers répondent : classement et extrait des 50 premiers), PostgreSQL.`,
          '',
          '| base | p50 (ms) | p99 (ms) | req/s | erreurs / total |',
          '| --- | ---: | ---: | ---: | ---: |',
          `| ${pg.database} | ${pg.search.p50} | ${pg.search.p99} | ${pg.search.requestsPerSecond} | ${pg.search.errors} / ${pg.search.total} |`,
          '',
        ]
      : []),
  ].join('\n')
}

export async function benchMail(): Promise<void> {
  const results: MailFigures[] = []
  console.log('[bench:courrier] PGlite…')
  results.push(await measure('PGlite (embarqué)', undefined))
  if (process.env.DATABASE_URL) {
    results.push(await measure('PostgreSQL', process.env.DATABASE_URL))
  } else if (existsSync('/usr/lib/postgresql')) {
    console.log('[bench:courrier] PostgreSQL (scripts/with-postgres.sh)…')
    const file = join(tmpdir(), `portail-bench-mail-${process.pid}.json`)
    const child = spawnSync(
      'bash',
      [join(root, 'scripts/with-postgres.sh'), process.execPath, '--import', 'tsx', join(root, 'scripts/bench-mail.ts'), '--postgres-only'],
      {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, BENCH_RESULTS_FILE: file },
      },
    )
    if (child.status === 0) results.push(JSON.parse(await readFile(file, 'utf8')))
    else console.warn('[bench:courrier] mesure PostgreSQL impossible')
    await rm(file, { force: true })
  }
  const section = markdown(results)
  console.log(section)
  await saveSection('Courrier : traitement et recherche', section)
}

if (process.argv[1] === import.meta.filename) {
  if (process.argv.includes('--postgres-only')) {
    await writeFile(process.env.BENCH_RESULTS_FILE!, JSON.stringify(await measure('PostgreSQL', process.env.DATABASE_URL!)))
  } else {
    await benchMail()
  }
}
