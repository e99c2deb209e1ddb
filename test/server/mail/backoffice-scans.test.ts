// The back office's Numérisation: a scan uploaded is checked as every upload (a refused file stores nothing), read by
// the letter pipeline's job (text layer or OCR) and given a suggested order with its page and a sender; reviewed; then
// published once as ingestion publishes a letter (the letter searchable with its pages, the bell, the e-mail), every
// write journaled. Two API instances pressing « Publier » together publish it once (on PostgreSQL: really at once).
// tests: on S3 too (under scripts/with-s3.sh its apps store on the S3 server: scripts/uvu-summary.mjs)
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { LightMyRequestResponse } from 'fastify'
import type { MailScan } from '../../../server/contract/mail-backoffice.ts'
import { runOneJob, workerName } from '../../../server/services/jobs.ts'
import { call, operatorLogin, secondApp, type TestApp } from '../../util/server.ts'
import { demoContext, tinyPng, type DemoContext } from '../../util/server-samples.ts'
import { imageOnlyPdf, textLayerPdf } from '../../util/letters.ts'
import { contentBombPdf } from '../../util/hostile-pdfs.ts'

interface Ctx extends DemoContext {
  courrier: string
}

const BOULANGERIE_LETTER = [
  ['URSSAF Ile-de-France', '93518 Montreuil Cedex'],
  [
    'BOULANGERIE DES LILAS SAS',
    '27 rue des Lilas',
    '75019 Paris',
    'Objet : appel de cotisations',
    'SIREN 823 456 785',
    'Madame, Monsieur, votre echeance de cotisations sociales est fixee au 15 du mois prochain.',
  ],
].flat()

const dataUrl = (bytes: Buffer, type = 'application/pdf') => `data:${type};base64,${bytes.toString('base64')}`

function bo(t: TestApp, token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  })
}

const ok = (res: LightMyRequestResponse) => {
  assert.is(res.statusCode, 200, res.body)
  return res.json()
}

async function upload(ctx: Ctx, bytes: Buffer, fileName = 'scan-0001.pdf'): Promise<MailScan> {
  return ok(await bo(ctx.t, ctx.courrier, 'POST', '/api/backoffice/scans', { fileName, file: dataUrl(bytes) }))
}

/** Runs the scan's reading job here and now, as a worker would. */
async function read(ctx: Ctx, scanId: number): Promise<MailScan> {
  const { job_id } = await ctx.t.deps.db.selectFrom('mail_scans').select('job_id').where('id', '=', scanId).executeTakeFirstOrThrow()
  assert.ok(job_id, 'the reading is queued with the scan')
  assert.ok(await runOneJob({ db: ctx.t.deps.db, handlers: ctx.t.handlers, name: workerName(), only: job_id }), 'the job ran')
  return ok(await bo(ctx.t, ctx.courrier, 'GET', `/api/backoffice/scans/${scanId}`))
}

/** The stored files, on either store (test/util/storage.ts), writes under way aside. */
const filesUnder = async (t: TestApp) => (await t.storedKeys()).filter((key) => !key.startsWith('.tmp/'))

const journal = (ctx: Ctx, action: string) =>
  ctx.t.deps.db.selectFrom('journal').selectAll().where('action', '=', action).orderBy('id').execute()

const setup = async (ctx: Ctx) => {
  await demoContext(ctx)
  ctx.courrier = await operatorLogin(ctx.t, 'courrier@example.com')
}

// --- Upload and reading

const reading = suite<Ctx>('a scan uploaded, checked and read: the suggested order with its page, the sender')
reading.before(setup)
reading.after((ctx) => ctx.t?.close())

reading('a letter with a text layer: the SIREN found page 1 suggests the Boulangerie, the letterhead the sender', async (ctx) => {
  const scan = await upload(ctx, await textLayerPdf([BOULANGERIE_LETTER]), 'urssaf.pdf')
  assert.is(scan.reading, 'en cours')
  assert.is(scan.suggestion, null)
  assert.is(scan.toCheck, null, 'not « À vérifier » while it is read')
  assert.is(scan.uploadedBy.name, 'Hugo Lemaire')
  const done = await read(ctx, scan.id)
  assert.is(done.reading, 'terminée')
  assert.is(done.pageImages, 1)
  assert.equal(done.suggestion, {
    orderId: ctx.ids.order,
    raisonSociale: 'Boulangerie des Lilas SAS',
    confidence: 'sûr',
    reason: 'SIREN 823 456 785 trouvé page 1',
  })
  assert.is(done.suggestedSender, 'URSSAF Ile-de-France')
  assert.is(done.orderId, ctx.ids.order, 'the suggestion is the choice until an operator changes it')
  assert.is(done.sender, 'URSSAF Ile-de-France')
  assert.is(done.confirmed, false)
  assert.is(done.toCheck, null)
  const page = await bo(ctx.t, ctx.courrier, 'GET', `/api/backoffice/scans/${scan.id}/pages/1`)
  assert.is(page.statusCode, 200)
  assert.is(page.headers['content-type'], 'image/webp')
  const file = await bo(ctx.t, ctx.courrier, 'GET', `/api/backoffice/scans/${scan.id}/file`)
  assert.is(file.rawPayload.subarray(0, 5).toString(), '%PDF-')
  const [uploaded] = await journal(ctx, 'scan.uploaded')
  assert.match(uploaded!.summary, /« urssaf\.pdf » \(1 page\)/)
})

reading('an image-only scan is read by OCR and its reason names the page', async (ctx) => {
  const scan = await upload(ctx, await imageOnlyPdf(['BOULANGERIE DES LILAS SAS', '27 rue des Lilas 75019 Paris', 'SIREN 823 456 785']))
  const done = await read(ctx, scan.id)
  assert.is(done.reading, 'terminée')
  assert.is(done.suggestion?.orderId, ctx.ids.order, JSON.stringify(done.suggestion))
  assert.match(done.suggestion!.reason, /page 1/)
})

reading('a letter that names none of our companies is « À vérifier », with why', async (ctx) => {
  const scan = await upload(
    ctx,
    await textLayerPdf([['Imprimerie Dupont', 'DUPONT FRERES SARL', '12 rue Haute 69001 Lyon', 'Objet : devis']]),
  )
  const done = await read(ctx, scan.id)
  assert.is(done.orderId, null)
  assert.is(done.suggestion?.orderId, null)
  assert.match(done.toCheck!, /^Aucune domiciliation reconnue : /)
  const queue: MailScan[] = ok(await bo(ctx.t, ctx.admin, 'GET', '/api/backoffice/scans'))
  assert.ok(
    queue.some((s) => s.id === scan.id && s.toCheck),
    'the queue is shared: the administrator sees the Courrier operator’s scan',
  )
})

reading('a scan whose order is terminated is « À vérifier », and cannot be confirmed for it', async (ctx) => {
  const scan = await upload(ctx, await textLayerPdf([BOULANGERIE_LETTER]))
  await read(ctx, scan.id)
  await ctx.t.deps.db
    .insertInto('termination_requests')
    .values({ order_id: ctx.ids.order, user_id: ctx.ids.camille, reason: 'Cessation', date: '2020-01-31' })
    .execute()
  try {
    const seen: MailScan = ok(await bo(ctx.t, ctx.courrier, 'GET', `/api/backoffice/scans/${scan.id}`))
    assert.is(seen.toCheck, 'La domiciliation Boulangerie des Lilas SAS est résiliée depuis le 31 janvier 2020.')
    const refused = await bo(ctx.t, ctx.courrier, 'PUT', `/api/backoffice/scans/${scan.id}`, {
      orderId: ctx.ids.order,
      sender: 'URSSAF',
      kind: 'administratif',
      confirmed: true,
    })
    assert.is(refused.statusCode, 409)
    assert.match(
      refused.json().message,
      /^La domiciliation Boulangerie des Lilas SAS est résiliée depuis le 31 janvier 2020 : aucun courrier/,
    )
    const after: MailScan = ok(await bo(ctx.t, ctx.courrier, 'GET', `/api/backoffice/scans/${scan.id}`))
    assert.is(after.confirmed, false, 'unchanged')
  } finally {
    await ctx.t.deps.db.deleteFrom('termination_requests').where('order_id', '=', ctx.ids.order).execute()
  }
})

reading('a refused upload stores nothing: not a PDF, a PDF with code, a PDF too heavy to read, a data URL of another type', async (ctx) => {
  const { db } = ctx.t.deps
  const before = { scans: (await db.selectFrom('mail_scans').select('id').execute()).length, files: await filesUnder(ctx.t) }
  const journalBefore = (await journal(ctx, 'scan.uploaded')).length
  const cases: [string, string, number, RegExp][] = [
    ['a PNG', dataUrl(tinyPng, 'image/png'), 400, /data URL \(data:application\/pdf/],
    ['PNG bytes said to be a PDF', dataUrl(tinyPng, 'application/pdf'), 400, /n’est pas un PDF valide/],
    ['a PDF with a script', dataUrl(Buffer.from('%PDF-1.4\n<script>alert(1)</script>\n%%EOF\n')), 400, /contient du code/],
    ['a content bomb', dataUrl(contentBombPdf(400)), 422, /trop lourd|trop complexe|lourd/],
  ]
  for (const [what, file, status, message] of cases) {
    const res = await bo(ctx.t, ctx.courrier, 'POST', '/api/backoffice/scans', { fileName: 'scan.pdf', file })
    assert.is(res.statusCode, status, `${what}: ${res.body}`)
    assert.match(res.json().message, message, what)
  }
  assert.is((await db.selectFrom('mail_scans').select('id').execute()).length, before.scans, 'no row')
  assert.equal(await filesUnder(ctx.t), before.files, 'no file')
  assert.is((await journal(ctx, 'scan.uploaded')).length, journalBefore, 'no journal row')
})

reading.run()

// --- Review, publishing, deletion

const publishing = suite<Ctx>('a scan reviewed and published as ingestion publishes a letter, once')
publishing.before(setup)
publishing.after((ctx) => ctx.t?.close())

publishing('confirmed then published: the letter with its pages, searchable at once, the bell, the e-mail, the journal', async (ctx) => {
  const scan = await upload(ctx, await textLayerPdf([BOULANGERIE_LETTER]), 'urssaf.pdf')
  const notConfirmed = await bo(ctx.t, ctx.courrier, 'POST', `/api/backoffice/scans/${scan.id}:publish`)
  assert.is(notConfirmed.statusCode, 409)
  assert.is(notConfirmed.json().message, 'Ce courrier est encore en cours de lecture : publiez-le dans un instant.')
  await read(ctx, scan.id)
  const unconfirmed = await bo(ctx.t, ctx.courrier, 'POST', `/api/backoffice/scans/${scan.id}:publish`)
  assert.is(unconfirmed.statusCode, 409)
  assert.match(unconfirmed.json().message, /^Confirmez d’abord/)
  const reviewed: MailScan = ok(
    await bo(ctx.t, ctx.courrier, 'PUT', `/api/backoffice/scans/${scan.id}`, {
      orderId: ctx.ids.order,
      sender: '  URSSAF   Île-de-France ',
      kind: 'administratif',
      confirmed: true,
    }),
  )
  assert.is(reviewed.sender, 'URSSAF Île-de-France', 'spaces folded as ingestion does')
  assert.is(reviewed.confirmed, true)
  const mailsBefore = ctx.t.mails.length
  const published = ok(await bo(ctx.t, ctx.courrier, 'POST', `/api/backoffice/scans/${scan.id}:publish`))
  const { document } = published
  assert.is(document.orderId, ctx.ids.order)
  assert.is(document.sender, 'URSSAF Île-de-France')
  assert.is(document.kind, 'administratif')
  assert.is(document.pageImages, 1, 'the pages read with the scan')
  assert.is(document.searchable, true)
  assert.match(published.link, new RegExp(`/mes-courriers/courriers\\?domiciliation=${ctx.ids.order}&courrier=${document.id}$`))
  assert.equal(published.scan.published.documentId, document.id)
  assert.is(published.scan.published.by, 'Hugo Lemaire')
  // The e-mail, as ingestion's.
  const mails = ctx.t.mails.slice(mailsBefore)
  assert.ok(mails.length >= 1, 'the owner is told')
  assert.ok(mails.every((m) => m.subject === 'Nouveau courrier de URSSAF Île-de-France'))
  assert.ok(mails.some((m) => m.to === 'demo@example.com'))
  assert.equal(published.notified.sort(), mails.map((m) => m.to).sort())
  // The customer: the letter in the list, its page, the search, the bell.
  const letters = (await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents?orderId=${ctx.ids.order}`)).json()
  assert.ok(letters.some((l: { id: number }) => l.id === document.id))
  const page = await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${document.id}/pages/1`)
  assert.is(page.statusCode, 200)
  const search = (
    await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/search?q=cotisations&orderId=${ctx.ids.order}`)
  ).json()
  assert.ok(
    search.results.some((r: { document: { id: number } }) => r.document.id === document.id),
    'searchable',
  )
  const bell = (await call(ctx.t.app, ctx.camille, 'GET', '/api-protected/notifications')).json()
  assert.ok(JSON.stringify(bell).includes('Nouveau courrier de URSSAF Île-de-France'))
  // The journal.
  const [confirmed] = await journal(ctx, 'scan.confirmed')
  assert.is(confirmed!.order_id, ctx.ids.order)
  const [row] = await journal(ctx, 'scan.published')
  assert.is(row!.order_id, ctx.ids.order)
  assert.match(row!.summary, /^Courrier de URSSAF Île-de-France \(administratif, 1 page\) publié pour Boulangerie des Lilas SAS$/)
  // Once: again is a 409 naming who published it, and changes nothing.
  const again = await bo(ctx.t, ctx.admin, 'POST', `/api/backoffice/scans/${scan.id}:publish`)
  assert.is(again.statusCode, 409)
  assert.match(again.json().message, /^Ce courrier a déjà été publié par Hugo Lemaire le /)
  const changed = await bo(ctx.t, ctx.admin, 'PUT', `/api/backoffice/scans/${scan.id}`, {
    orderId: ctx.ids.order,
    sender: 'Autre',
    kind: 'courrier',
    confirmed: true,
  })
  assert.is(changed.statusCode, 409)
  const deleted = await bo(ctx.t, ctx.admin, 'DELETE', `/api/backoffice/scans/${scan.id}`)
  assert.is(deleted.statusCode, 409, 'a published scan is the letter’s: never deleted')
  const queue: MailScan[] = ok(await bo(ctx.t, ctx.courrier, 'GET', '/api/backoffice/scans'))
  assert.not.ok(
    queue.some((s) => s.id === scan.id),
    'no longer in the queue',
  )
})

publishing('a scan whose reading failed is published as ingestion would: its letter job is queued', async (ctx) => {
  const scan = await upload(ctx, await textLayerPdf([BOULANGERIE_LETTER]))
  await ctx.t.deps.db.updateTable('mail_scans').set({ reading: 'échouée' }).where('id', '=', scan.id).execute()
  await ctx.t.deps.db
    .updateTable('jobs')
    .set({ state: 'done' })
    .where(
      'id',
      '=',
      (await ctx.t.deps.db.selectFrom('mail_scans').select('job_id').where('id', '=', scan.id).executeTakeFirstOrThrow()).job_id!,
    )
    .execute()
  ok(
    await bo(ctx.t, ctx.courrier, 'PUT', `/api/backoffice/scans/${scan.id}`, {
      orderId: ctx.ids.order,
      sender: 'URSSAF',
      kind: 'administratif',
      confirmed: true,
    }),
  )
  const { document } = ok(await bo(ctx.t, ctx.courrier, 'POST', `/api/backoffice/scans/${scan.id}:publish`))
  assert.is(document.pageImages, 0)
  await ctx.t.runLetterJob(document.id)
  const letter = (await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents?orderId=${ctx.ids.order}`))
    .json()
    .find((l: { id: number }) => l.id === document.id)
  assert.is(letter.pageImages, 1, 'read by the letter’s own job')
  assert.is(letter.searchable, true)
})

publishing('« Publier tous les confirmés »: the confirmed ones, oldest first; the others stay', async (ctx) => {
  // This test's scans only: the route samples' confirmed ones are set aside.
  await ctx.t.deps.db.deleteFrom('mail_scans').where('file_name', 'like', 'échantillon-%').execute()
  const scans: MailScan[] = []
  for (const name of ['a.pdf', 'b.pdf', 'c.pdf'])
    scans.push(await read(ctx, (await upload(ctx, await textLayerPdf([BOULANGERIE_LETTER]), name)).id))
  for (const scan of scans.slice(0, 2))
    ok(
      await bo(ctx.t, ctx.courrier, 'PUT', `/api/backoffice/scans/${scan.id}`, {
        orderId: ctx.ids.order,
        sender: 'URSSAF',
        kind: 'courrier',
        confirmed: true,
      }),
    )
  const reply = ok(await bo(ctx.t, ctx.courrier, 'POST', '/api/backoffice/scans/publish', {}))
  assert.equal(
    reply.published.map((p: { scan: MailScan }) => p.scan.id),
    scans.slice(0, 2).map((s) => s.id),
  )
  const queue: MailScan[] = ok(await bo(ctx.t, ctx.courrier, 'GET', '/api/backoffice/scans'))
  assert.ok(queue.some((s) => s.id === scans[2]!.id && !s.confirmed))
  const named = ok(await bo(ctx.t, ctx.courrier, 'POST', '/api/backoffice/scans/publish', { scanIds: [scans[0]!.id, scans[2]!.id] }))
  assert.is(named.published.length, 0)
  assert.equal(
    named.skipped.map((s: { scanId: number; message: string }) => [s.scanId, s.message.slice(0, 24)]),
    [
      [scans[0]!.id, 'Ce courrier a déjà été p'],
      [scans[2]!.id, 'Confirmez d’abord la dom'],
    ],
  )
})

publishing('a scan deleted: its file and page images go, its row too, journaled', async (ctx) => {
  const before = await filesUnder(ctx.t)
  const scan = await read(ctx, (await upload(ctx, await textLayerPdf([BOULANGERIE_LETTER]), 'doublon.pdf')).id)
  assert.is((await filesUnder(ctx.t)).length, before.length + 2, 'the PDF and its page image')
  assert.is(ok(await bo(ctx.t, ctx.courrier, 'DELETE', `/api/backoffice/scans/${scan.id}`)).message, 'La numérisation a été supprimée.')
  assert.equal(await filesUnder(ctx.t), before)
  assert.is((await bo(ctx.t, ctx.courrier, 'GET', `/api/backoffice/scans/${scan.id}`)).statusCode, 404)
  assert.is((await bo(ctx.t, ctx.courrier, 'DELETE', `/api/backoffice/scans/${scan.id}`)).statusCode, 404)
  const [row] = await journal(ctx, 'scan.deleted')
  assert.match(row!.summary, /« doublon\.pdf » supprimée sans être publiée/)
})

publishing('a scan deleted while it is read keeps nothing of its reading', async (ctx) => {
  const before = await filesUnder(ctx.t)
  const scan = await upload(ctx, await textLayerPdf([BOULANGERIE_LETTER]))
  const { job_id } = await ctx.t.deps.db.selectFrom('mail_scans').select('job_id').where('id', '=', scan.id).executeTakeFirstOrThrow()
  ok(await bo(ctx.t, ctx.courrier, 'DELETE', `/api/backoffice/scans/${scan.id}`))
  assert.ok(await runOneJob({ db: ctx.t.deps.db, handlers: ctx.t.handlers, name: workerName(), only: job_id! }))
  assert.equal(await filesUnder(ctx.t), before)
  const job = await ctx.t.deps.db.selectFrom('jobs').select('state').where('id', '=', job_id!).executeTakeFirstOrThrow()
  assert.is(job.state, 'done', 'nothing to read: done')
})

publishing.run()

// --- Two operators, two instances, one scan

const together = suite<Ctx>('two operators on two API instances press « Publier » together: one letter')
together.before(setup)
together.after((ctx) => ctx.t?.close())

together(
  'ten presses at once across two instances: one 200, the others 409, one letter, one e-mail round, one journal row',
  async (ctx) => {
    const scan = await read(ctx, (await upload(ctx, await textLayerPdf([BOULANGERIE_LETTER]))).id)
    ok(
      await bo(ctx.t, ctx.courrier, 'PUT', `/api/backoffice/scans/${scan.id}`, {
        orderId: ctx.ids.order,
        sender: 'URSSAF',
        kind: 'courrier',
        confirmed: true,
      }),
    )
    const other = await secondApp(ctx.t)
    try {
      const documentsBefore = (await ctx.t.deps.db.selectFrom('documents').select('id').execute()).length
      const mailsBefore = ctx.t.mails.length
      const press = (app: typeof other, token: string) =>
        app.inject({ method: 'POST', url: `/api/backoffice/scans/${scan.id}:publish`, headers: { authorization: `Bearer ${token}` } })
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? press(other, ctx.admin) : press(ctx.t.app, ctx.courrier))),
      )
      assert.equal(answers.map((a) => a.statusCode).sort(), [200, ...Array(9).fill(409)], answers.map((a) => a.body).join('\n'))
      for (const refused of answers.filter((a) => a.statusCode === 409))
        assert.match(refused.json().message, /^Ce courrier a déjà été publié par /)
      assert.is((await ctx.t.deps.db.selectFrom('documents').select('id').execute()).length, documentsBefore + 1, 'one letter')
      const subjects = ctx.t.mails.slice(mailsBefore).map((m) => m.to)
      assert.equal(subjects, [...new Set(subjects)], 'each person told once')
      assert.is((await journal(ctx, 'scan.published')).length, 1)
    } finally {
      await other.close()
    }
  },
)

together.run()
