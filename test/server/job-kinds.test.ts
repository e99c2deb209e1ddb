// JOB_KINDS: a process's worker runs only the kinds of background job named (the browser journeys run the security
// notices without the demo letters' pipeline, which would take a core for ≈ 15 s in every file); an unknown kind stops
// the start with a French message; unset, every kind runs. JOB_CONCURRENCY: the jobs a worker runs at once (2 by default:
// a letter is drawn while the previous one is read by OCR).
// tests: the embedded database only (its servers open their own; scripts/run-tests.mjs leaves it out of the PostgreSQL run)
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadConfig } from '../../server/config.ts'
import { enqueueJob } from '../../server/db/repositories/jobs.ts'
import { createServer, JOB_KINDS } from '../../server/main.ts'
import { LETTER_JOB } from '../../server/services/mail-pipeline.ts'
import { SECURITY_NOTICE_JOB, type SecurityNotice } from '../../server/services/security-notice.ts'
import { startJobWorker } from '../../server/services/jobs.ts'
import { DATA_EXPORT_JOB } from '../../server/services/data-export.ts'

const test = suite<{ dir: string }>('JOB_KINDS: the kinds of background job a process runs')
test.before.each(async (ctx) => {
  ctx.dir = await mkdtemp(join(tmpdir(), 'portail-job-kinds-'))
})
test.after.each(async (ctx) => {
  await rm(ctx.dir, { recursive: true, force: true })
})

const configIn = (dir: string, env: NodeJS.ProcessEnv = {}) => ({
  ...loadConfig(env),
  dataDir: join(dir, 'data'),
  storageDir: join(dir, 'storage'),
  distDir: join(dir, 'no-dist'),
  logLevel: 'silent',
})

test('read from the environment, comma-separated; unset or blank: every kind', () => {
  assert.equal(loadConfig({ JOB_KINDS: ' security-notice , letter-pipeline ' }).jobKinds, ['security-notice', 'letter-pipeline'])
  assert.is(loadConfig({}).jobKinds, undefined)
  assert.is(loadConfig({ JOB_KINDS: '  ' }).jobKinds, undefined)
  assert.equal([...JOB_KINDS].sort(), [LETTER_JOB, SECURITY_NOTICE_JOB, DATA_EXPORT_JOB].sort())
})

test('an unknown kind stops the start, named, with the known ones', async ({ dir }) => {
  try {
    await createServer(configIn(dir, { JOB_KINDS: 'security-notice,ocr' }))
    assert.unreachable('started')
  } catch (error) {
    assert.is(
      (error as Error).message,
      'JOB_KINDS invalide : ocr ; les sortes de tâches sont letter-pipeline, security-notice, data-export.',
    )
  }
})

test('security-notice only: a queued notice is sent, the demo letters wait untouched for a worker that runs them', async ({ dir }) => {
  const server = await createServer(configIn(dir, { JOB_KINDS: 'security-notice' }))
  try {
    const { db } = server.deps
    const letters = await db.selectFrom('jobs').select('id').where('kind', '=', LETTER_JOB).execute()
    assert.ok(letters.length > 0, 'the demo queued its letters')
    const notice: SecurityNotice = { kind: 'passkey-added', to: 'titulaire@example.com', firstname: 'Camille', name: 'Téléphone' }
    await enqueueJob(db, SECURITY_NOTICE_JOB, notice)
    server.startBackground()
    const until = Date.now() + 15_000
    while (!(await db.selectFrom('outbox').select('id').where('to_address', '=', 'titulaire@example.com').executeTakeFirst())) {
      assert.ok(Date.now() < until, 'the notice was sent within 15 s')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const states = await db.selectFrom('jobs').select(['state', 'attempts']).where('kind', '=', LETTER_JOB).execute()
    assert.ok(
      states.every((job) => job.state === 'queued' && job.attempts === 0),
      'no letter job taken',
    )
  } finally {
    await server.close()
  }
})

test('JOB_CONCURRENCY: 2 unless set, 1 to 4; anything else stops the start in French', () => {
  assert.is(loadConfig({}).jobConcurrency, 2)
  assert.is(loadConfig({ JOB_CONCURRENCY: ' 1 ' }).jobConcurrency, 1)
  assert.is(loadConfig({ JOB_CONCURRENCY: '4' }).jobConcurrency, 4)
  for (const wrong of ['0', '5', 'deux', '1.5'])
    assert.throws(
      () => loadConfig({ JOB_CONCURRENCY: wrong }),
      (error: Error) => error.message === `JOB_CONCURRENCY invalide : « ${wrong} » ; un nombre entier de 1 à 4 est attendu.`,
    )
})

test('a worker of concurrency 2 runs two jobs at once, each once; of concurrency 1, one after the other', async ({ dir }) => {
  const server = await createServer(configIn(dir, { JOB_WORKER: 'false' }))
  try {
    const { db } = server.deps
    for (const concurrency of [2, 1]) {
      const kind = `essai-${concurrency}`
      for (const n of [1, 2, 3]) await enqueueJob(db, kind, { n })
      let running = 0
      let most = 0
      const ran: number[] = []
      const worker = startJobWorker({
        db,
        pollMs: 20,
        concurrency,
        handlers: {
          [kind]: async ({ job, finish }) => {
            most = Math.max(most, ++running)
            await new Promise((resolve) => setTimeout(resolve, 300))
            running--
            await finish(async () => void ran.push((job.payload as { n: number }).n))
          },
        },
      })
      const until = Date.now() + 15_000
      while (ran.length < 3 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20))
      await worker.stop()
      assert.equal([...ran].sort(), [1, 2, 3], 'each job once')
      assert.is(most, concurrency, `at most ${concurrency} at once`)
      const left = await db.selectFrom('jobs').select('state').where('kind', '=', kind).execute()
      assert.ok(left.every((job) => job.state === 'done'))
    }
  } finally {
    await server.close()
  }
})

test.run()
