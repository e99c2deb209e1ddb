// Mail pipeline: each letter's page images, its text (text layer or French OCR), the search
// and the deadlines, through the durable jobs; on PDFs made here (test/util/letters.ts).
// tests: on S3 too (the page images written beside the letter's PDF, and removed after a failure, in the bucket)
import { createCanvas, loadImage } from '@napi-rs/canvas'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { claimJob, enqueueJob, findJob, findJobFor, LEASE_SPENT_ERROR } from '../../../server/db/repositories/jobs.ts'
import { DEFAULT_LEASE_MS, PermanentJobError, runOneJob, startJobWorker, type JobHandler } from '../../../server/services/jobs.ts'
import { skippedPageImage } from '../../../server/services/letter-render.ts'
import { letterRenderTimeoutMs, type DrawnPage } from '../../../server/services/letter-render-process.ts'
import { LETTER_JOB, letterPipelineJob, scanQueue } from '../../../server/services/mail-pipeline.ts'
import { SEARCH_LENGTH_MESSAGE } from '../../../server/routes/mail/pipeline.ts'
import { watchStalls } from '../../util/event-loop.ts'
import { imageOnlyPdf, receiptPdf, slowToDrawPdf, textLayerPdf } from '../../util/letters.ts'
import { buildTestApp, call, login, ordersByName, TEST_OPERATOR_TOKEN, type TestApp } from '../../util/server.ts'

interface Ctx {
  t: TestApp
  camille: string
  julien: string
  sophie: string
  orders: Record<string, { id: number }>
}

/** Polls until `probe` answers something (no timing budget: the limit only ends a hung test). */
async function until<T>(probe: () => Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > end) throw new Error(`still nothing after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const dataUrl = (bytes: Buffer) => `data:application/pdf;base64,${bytes.toString('base64')}`

async function addLetter(t: TestApp, orderId: number, sender: string, pdf: Buffer) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/operator/domiciliation-orders/${orderId}/documents`,
    headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
    payload: { sender, kind: 'courrier', file: dataUrl(pdf) },
  })
  assert.is(res.statusCode, 200, res.body)
  return res.json().document as { id: number; pageImages: number; searchable: boolean; deadline: unknown }
}

async function letterOf(t: TestApp, token: string, orderId: number, id: number) {
  const res = await call(t.app, token, 'GET', `/api-protected/documents?orderId=${orderId}`)
  assert.is(res.statusCode, 200, res.body)
  return res.json().find((d: { id: number }) => d.id === id) as {
    id: number
    pageImages: number
    searchable: boolean
    deadline: { date: string; amountCents: number | null } | null
  }
}

/** How many dark pixels an image has (below `from`, a fraction of its height): a page whose text was drawn has some. */
async function inkOf(bytes: Buffer, from = 0): Promise<number> {
  const image = await loadImage(bytes)
  const canvas = createCanvas(image.width, image.height)
  const context = canvas.getContext('2d')
  context.drawImage(image, 0, 0)
  const top = Math.floor(image.height * from)
  const { data } = context.getImageData(0, top, image.width, image.height - top)
  let dark = 0
  for (let i = 0; i < data.length; i += 4) if (data[i]! < 128) dark++
  return dark
}

const search = (t: TestApp, token: string, q: string, orderId?: number) =>
  call(t.app, token, 'GET', `/api-protected/documents/search?q=${encodeURIComponent(q)}${orderId ? `&orderId=${orderId}` : ''}`)

const setup = async (ctx: Ctx) => {
  ctx.t = await buildTestApp()
  ctx.camille = await login(ctx.t.app)
  ctx.julien = await login(ctx.t.app, 'associe@example.com')
  ctx.sophie = await login(ctx.t.app, 'solo@example.com')
  ctx.orders = await ordersByName(ctx.t.app, ctx.camille)
}

const letters = suite<Ctx>('a letter’s pages, text and deadline')
letters.before(setup)
letters.after((ctx) => ctx.t?.close())

letters(
  'a PDF with a text layer: one WebP image per page, ≤ 200 KB, 1240 px wide; its text searchable; its deadline and amount',
  async (ctx) => {
    const order = ctx.orders['Boulangerie des Lilas SAS']!.id
    const pdf = await textLayerPdf([
      [
        'Direction generale des Finances publiques',
        'Avis de taxe fonciere 2026',
        'Montant a payer : 1 234,56 EUR',
        'A regler au plus tard le 15/12/2026.',
      ],
      ['Page deux : modalites de paiement en ligne.'],
    ])
    const added = await addLetter(ctx.t, order, 'Centre des finances publiques', pdf)
    // Ingestion answers before the job ran: no images yet, not searchable, but the letter is there.
    assert.equal([added.pageImages, added.searchable, added.deadline], [0, false, null])
    assert.is((await letterOf(ctx.t, ctx.camille, order, added.id)).pageImages, 0)
    assert.is((await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${added.id}/pages/1`)).statusCode, 404)

    await ctx.t.runLetterJob(added.id)
    const letter = await letterOf(ctx.t, ctx.camille, order, added.id)
    assert.is(letter.pageImages, 2)
    assert.is(letter.searchable, true)
    assert.equal(letter.deadline, { date: '2026-12-15', amountCents: 123456 })
    for (const page of [1, 2]) {
      const res = await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${added.id}/pages/${page}`)
      assert.is(res.statusCode, 200)
      assert.is(res.headers['content-type'], 'image/webp')
      assert.match(res.headers['cache-control'] as string, 'no-store')
      assert.ok(res.rawPayload.length <= 200 * 1024, `${res.rawPayload.length} bytes`)
      const image = await loadImage(res.rawPayload)
      assert.is(image.width, 1240)
      assert.ok((await inkOf(res.rawPayload)) > 500, `page ${page} shows its text (not a blank page)`)
      assert.ok(Math.abs(image.height / image.width - 842 / 595) < 0.01, 'the page keeps its proportions')
    }
    const third = await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${added.id}/pages/3`)
    assert.is(third.statusCode, 404)
    assert.is(third.json().message, 'Page introuvable.')
    // Stored beside the PDF, as files of the letter's storage key.
    const rows = await ctx.t.deps.db
      .selectFrom('document_pages')
      .innerJoin('documents', 'documents.id', 'document_pages.document_id')
      .select(['document_pages.file_key as page', 'documents.file_key as pdf'])
      .where('document_id', '=', added.id)
      .execute()
    assert.is(rows.length, 2)
    for (const row of rows) assert.ok(row.page.startsWith(row.pdf.replace(/\.pdf$/, '-p')), row.page)

    const found = (await search(ctx.t, ctx.camille, 'modalités de paiement', order)).json().results
    assert.is(found[0].document.id, added.id)
  },
)

letters('an image-only scan is read by French OCR: a word of the picture finds it, accents ignored; its deadline', async (ctx) => {
  const order = ctx.orders['Boulangerie des Lilas SAS']!.id
  const pdf = await imageOnlyPdf([
    'Relevé de la caisse de retraite',
    'Cotisation trimestrielle des artisans',
    'À régler avant le 3 mars 2027',
  ])
  const added = await addLetter(ctx.t, order, 'Caisse de retraite', pdf)
  await ctx.t.runLetterJob(added.id)
  const letter = await letterOf(ctx.t, ctx.camille, order, added.id)
  assert.is(letter.pageImages, 1)
  assert.is(letter.searchable, true)
  assert.is(letter.deadline?.date, '2027-03-03')
  const text = (await ctx.t.deps.db.selectFrom('documents').select('text').where('id', '=', added.id).executeTakeFirstOrThrow()).text!
  assert.match(text, /trimestrielle/)
  for (const q of ['trimestrielle', 'releve retraite', 'ARTISANS']) {
    const results = (await search(ctx.t, ctx.camille, q, order)).json().results
    assert.ok(
      results.some((r: { document: { id: number } }) => r.document.id === added.id),
      `${q}: ${JSON.stringify(results)}`,
    )
  }
})

letters('a scan OCR cannot read: rendered, not searchable, still readable', async (ctx) => {
  const order = ctx.orders['Boulangerie des Lilas SAS']!.id
  const added = await addLetter(ctx.t, order, 'Expéditeur illisible', await imageOnlyPdf(null))
  await ctx.t.runLetterJob(added.id)
  const letter = await letterOf(ctx.t, ctx.camille, order, added.id)
  assert.equal([letter.pageImages, letter.searchable, letter.deadline], [1, false, null])
  assert.is((await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${added.id}/file`)).statusCode, 200)
  assert.is((await findJobFor(ctx.t.deps.db, LETTER_JOB, added.id))?.state, 'done')
})

letters('a number too large to be an amount near the deadline: the letter is still rendered, searchable, with its date', async (ctx) => {
  const order = ctx.orders['Boulangerie des Lilas SAS']!.id
  const added = await addLetter(
    ctx.t,
    order,
    'Trésor public',
    await textLayerPdf([['Avis de situation', 'Montant a payer : 25 000 000,00 EUR', 'A regler au plus tard le 15/12/2030.']]),
  )
  await ctx.t.runLetterJob(added.id)
  const letter = await letterOf(ctx.t, ctx.camille, order, added.id)
  assert.equal([letter.pageImages, letter.searchable, letter.deadline], [1, true, { date: '2030-12-15', amountCents: null }])
  assert.is((await findJobFor(ctx.t.deps.db, LETTER_JOB, added.id))?.state, 'done')
})

letters('a job that fails for good leaves no page row, no image file, and the letter usable', async (ctx) => {
  const order = ctx.orders['Boulangerie des Lilas SAS']!.id
  const added = await addLetter(
    ctx.t,
    order,
    'Imprimerie Martin',
    await textLayerPdf([['Bon de commande des sachets a pain.'], ['Conditions generales de vente.']]),
  )
  const store = ctx.t.deps.storage
  // The store refuses the second page image: the first one, already written, must go too.
  let writes = 0
  const failing = {
    ...store,
    put: async (key: string, bytes: Uint8Array) => {
      if (key.endsWith('.webp') && ++writes > 1) throw new Error('disque plein')
      return store.put(key, bytes)
    },
  }
  await ctx.t.deps.db.updateTable('jobs').set({ max_attempts: 1 }).where('kind', '=', LETTER_JOB).where('state', '=', 'queued').execute()
  const job = (
    await ctx.t.deps.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', LETTER_JOB)
      .where('state', '=', 'queued')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
  ).id
  await runOneJob({
    db: ctx.t.deps.db,
    name: 'essai',
    only: String(job),
    handlers: { [LETTER_JOB]: letterPipelineJob({ db: ctx.t.deps.db, storage: failing, ocr: ctx.t.ocr }) },
  })
  const row = await findJob(ctx.t.deps.db, String(job))
  assert.is(row?.state, 'failed')
  assert.match(row?.last_error ?? '', 'disque plein')
  assert.is(writes, 2)
  const letter = await letterOf(ctx.t, ctx.camille, order, added.id)
  assert.equal([letter.pageImages, letter.searchable], [0, false])
  assert.is((await ctx.t.deps.db.selectFrom('document_pages').select('page').where('document_id', '=', added.id).execute()).length, 0)
  const pdfKey = (await ctx.t.deps.db.selectFrom('documents').select('file_key').where('id', '=', added.id).executeTakeFirstOrThrow())
    .file_key
  const files = await ctx.t.storedKeys()
  assert.not.ok(
    files.some((f) => f.endsWith('.webp') && f.startsWith(pdfKey.replace(/\.pdf$/, ''))),
    'the image written before the failure is removed',
  )
  assert.is((await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${added.id}/file`)).statusCode, 200)
})

letters.run()

const heavy = suite<Ctx>('a letter too heavy or too tall to draw')
heavy.before(setup)
heavy.after((ctx) => ctx.t?.close())

/**
 * Runs `work` while the event loop is watched: a 10 ms timer (the longest it waited beyond its period) and a GET /health
 * sent every 100 ms, as a load balancer would (the longest one waited for its answer), both in ms.
 */
async function watchingTheEventLoop(t: TestApp, work: () => Promise<void>): Promise<{ stall: number; health: number; answered: number }> {
  const stalls = watchStalls()
  let health = 0
  let answered = 0
  const asking = setInterval(() => {
    const asked = performance.now()
    void t.app.inject({ method: 'GET', url: '/health' }).then((res) => {
      if (res.statusCode === 200) answered++
      health = Math.max(health, performance.now() - asked)
    })
  }, 100)
  let stall: number
  try {
    await work()
  } finally {
    stall = stalls.stop()
    clearInterval(asking)
  }
  return { stall, health, answered }
}

heavy('the render’s time limit follows the pages drawn: 22 s for one, 120 s for 50 and beyond (within a job’s lease)', () => {
  assert.equal([0, 1, 2, 50, 400].map(letterRenderTimeoutMs), [22_000, 22_000, 24_000, 120_000, 120_000])
  assert.ok(letterRenderTimeoutMs(50) < DEFAULT_LEASE_MS / 2, 'room left for OCR within the lease')
})

heavy(
  'a 20 KB PDF whose page takes pdf.js gigabytes to draw: the API goes on answering; the page is left out at the render’s time limit (a notice in its place) and the letter published at its first attempt, its PDF readable',
  async (ctx) => {
    const order = ctx.orders['Boulangerie des Lilas SAS']!.id
    const pdf = await slowToDrawPdf(10)
    assert.ok(pdf.length < 30_000, `${pdf.length} bytes`)
    const added = await addLetter(ctx.t, order, 'Expéditeur piégé', pdf)
    const job = (await findJobFor(ctx.t.deps.db, LETTER_JOB, added.id))!
    const handlers = {
      [LETTER_JOB]: letterPipelineJob({ db: ctx.t.deps.db, storage: ctx.t.deps.storage, ocr: ctx.t.ocr, renderTimeoutMs: 1_500 }),
    }
    const watched = await watchingTheEventLoop(ctx.t, async () => {
      await runOneJob({ db: ctx.t.deps.db, name: 'essai', only: String(job.id), handlers })
    })
    assert.ok(watched.stall < 1000, `the event loop stopped ${watched.stall.toFixed(0)} ms`)
    assert.ok(watched.health < 1000, `GET /health answered after ${watched.health.toFixed(0)} ms`)
    assert.ok(watched.answered > 0, 'health checks answered meanwhile')
    const row = await findJob(ctx.t.deps.db, job.id)
    assert.equal([row?.state, row?.attempts, row?.last_error], ['done', 1, null], 'never retried')
    const letter = await letterOf(ctx.t, ctx.camille, order, added.id)
    assert.equal([letter.pageImages, letter.searchable], [1, false])
    const page = await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${added.id}/pages/1`)
    assert.ok(Buffer.compare(page.rawPayload, Buffer.from((await skippedPageImage(1)).bytes)) === 0, 'the page’s notice')
    assert.is((await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${added.id}/file`)).statusCode, 200)
    // The render process was ended and the next letter gets a new one.
    const next = await addLetter(
      ctx.t,
      order,
      'Expéditeur ordinaire',
      await textLayerPdf([['Une lettre ordinaire apres la lettre piegee.']]),
    )
    await ctx.t.runLetterJob(next.id)
    assert.is((await letterOf(ctx.t, ctx.camille, order, next.id)).pageImages, 1)
  },
)

heavy(
  'closing the server ends a letter’s drawing at once (not at its 22 s): the job is queued again, that attempt not counted, for the next process',
  async (ctx) => {
    const { db, storage } = ctx.t.deps
    const order = ctx.orders['Boulangerie des Lilas SAS']!.id
    const added = await addLetter(ctx.t, order, 'Expéditeur interminable', await slowToDrawPdf(10))
    const job = (await findJobFor(db, LETTER_JOB, added.id))!
    // Only this letter is waiting.
    await db
      .updateTable('jobs')
      .set({ state: 'done', finished_at: new Date() })
      .where('state', '=', 'queued')
      .where('id', '!=', job.id)
      .execute()
    // The server's own worker, with the render's real time limit (letterRenderTimeoutMs(1): 22 s).
    const worker = startJobWorker({
      db,
      handlers: { [LETTER_JOB]: letterPipelineJob({ db, storage, ocr: ctx.t.ocr }) },
      pollMs: 50,
      name: 'arrêt',
    })
    await until(async () => (await findJob(db, job.id))?.locked_by === 'arrêt')
    await pause(1500) // the page being drawn
    const started = performance.now()
    await worker.stop()
    const elapsed = performance.now() - started
    assert.ok(elapsed < 3000, `stopped after ${elapsed.toFixed(0)} ms`)
    const row = await findJob(db, job.id)
    assert.equal([row?.state, row?.attempts, row?.locked_by, row?.last_error], ['queued', 0, null, null])
    assert.ok(row!.run_at.getTime() <= Date.now(), 'due at once')
    // The next process takes it at once, as its first attempt.
    const claimed = await claimJob(db, 'suivant', undefined, 60_000, [LETTER_JOB], job.id)
    assert.equal([claimed?.id, claimed?.attempts], [job.id, 1])
    await db.updateTable('jobs').set({ state: 'done', locked_by: null, finished_at: new Date() }).where('id', '=', job.id).execute()
  },
)

heavy(
  'a till receipt 15 times as tall as wide: its one image fits WebP (≤ 16383 px), the whole height drawn, its text searchable',
  async (ctx) => {
    const order = ctx.orders['Boulangerie des Lilas SAS']!.id
    const added = await addLetter(
      ctx.t,
      order,
      'Quincaillerie Bernard',
      await receiptPdf(['QUINCAILLERIE BERNARD', 'Ticket de caisse', 'Chevilles x 40'], [227, 3400]),
    )
    await ctx.t.runLetterJob(added.id)
    const job = await findJobFor(ctx.t.deps.db, LETTER_JOB, added.id)
    assert.is(job?.state, 'done', job?.last_error ?? '')
    const letter = await letterOf(ctx.t, ctx.camille, order, added.id)
    assert.equal([letter.pageImages, letter.searchable], [1, true])
    const res = await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${added.id}/pages/1`)
    assert.is(res.statusCode, 200)
    const image = await loadImage(res.rawPayload)
    assert.ok(image.height <= 16383, `${image.width} × ${image.height}`)
    assert.ok(Math.abs(image.height / image.width - 3400 / 227) < 0.05, 'the page keeps its proportions')
    assert.ok((await inkOf(res.rawPayload, 0.98)) > 50, 'the line at the receipt’s foot is drawn')
    const found = (await search(ctx.t, ctx.camille, 'chevilles', order)).json().results
    assert.ok(found.some((r: { document: { id: number } }) => r.document.id === added.id))
  },
)

heavy.run()

const searching = suite<Ctx & { boulangerie: number; atelier: number; senderHit: number; textHit: number; atelierHit: number }>(
  'the search: ranked, highlighted, within what the user may see',
)
searching.before(async (ctx) => {
  await setup(ctx)
  ctx.boulangerie = ctx.orders['Boulangerie des Lilas SAS']!.id
  ctx.atelier = ctx.orders['Atelier Lumière SARL']!.id
  const senderHit = await addLetter(
    ctx.t,
    ctx.boulangerie,
    'Cabinet Orlinski',
    await textLayerPdf([['Convocation a l assemblee generale des associes.']]),
  )
  const textHit = await addLetter(
    ctx.t,
    ctx.boulangerie,
    'Notaire Dupuis',
    await textLayerPdf([['Suite a votre rendez-vous avec Maitre Orlinski, veuillez trouver le projet d acte.']]),
  )
  const atelierHit = await addLetter(
    ctx.t,
    ctx.atelier,
    'Fournitures Orlinski',
    await textLayerPdf([['Votre commande de verrerie est prete.']]),
  )
  for (const { id } of [senderHit, textHit, atelierHit]) await ctx.t.runLetterJob(id)
  Object.assign(ctx, { senderHit: senderHit.id, textHit: textHit.id, atelierHit: atelierHit.id })
})
searching.after((ctx) => ctx.t?.close())

searching('the sender weighs more than the text; the matched words come as parts, never as HTML', async (ctx) => {
  const res = await search(ctx.t, ctx.camille, 'orlinski', ctx.boulangerie)
  assert.is(res.statusCode, 200)
  const { results } = res.json()
  assert.equal(
    results.map((r: { document: { id: number } }) => r.document.id),
    [ctx.senderHit, ctx.textHit],
  )
  assert.ok(results[0].rank > results[1].rank)
  for (const result of results) {
    const marked = result.excerpt.filter((p: { match: boolean }) => p.match).map((p: { text: string }) => p.text)
    assert.ok(marked.length > 0 && marked.every((w: string) => /orlinski/i.test(w)), JSON.stringify(result.excerpt))
    const whole = result.excerpt.map((p: { text: string }) => p.text).join('')
    assert.not.match(whole, /<|\ue000|\ue001/)
  }
  assert.match(results[1].excerpt.map((p: { text: string }) => p.text).join(''), 'rendez-vous avec Maitre Orlinski')
})

searching('the last word is a prefix; every word is required; accents and case ignored', async (ctx) => {
  const ids = async (q: string) =>
    (await search(ctx.t, ctx.camille, q, ctx.boulangerie)).json().results.map((r: { document: { id: number } }) => r.document.id)
  assert.equal(await ids('orlin'), [ctx.senderHit, ctx.textHit])
  assert.equal(await ids('ACTE orlinski'), [ctx.textHit])
  assert.equal(await ids('assemblée générale'), [ctx.senderHit])
  assert.equal(await ids('introuvablemot'), [])
  assert.equal(await ids('!!!'), [])
})

searching('the selected order, shares respected: the owner, a collaborator, another customer', async (ctx) => {
  const ids = async (token: string, orderId?: number) =>
    (await search(ctx.t, token, 'orlinski', orderId))
      .json()
      .results.map((r: { document: { id: number } }) => r.document.id)
      .sort()
  assert.equal(await ids(ctx.camille), [ctx.senderHit, ctx.textHit, ctx.atelierHit].sort(), 'every order of the owner')
  assert.equal(await ids(ctx.camille, ctx.atelier), [ctx.atelierHit])
  assert.equal(await ids(ctx.julien), [ctx.senderHit, ctx.textHit].sort(), 'the collaborator: only the shared order')
  assert.equal(await ids(ctx.julien, ctx.boulangerie), [ctx.senderHit, ctx.textHit].sort())
  assert.is((await search(ctx.t, ctx.julien, 'orlinski', ctx.atelier)).statusCode, 404)
  assert.equal(await ids(ctx.sophie), [], 'another customer finds nothing')
  assert.is((await search(ctx.t, ctx.sophie, 'orlinski', ctx.boulangerie)).statusCode, 404)
  // A deleted letter is found by nobody.
  await ctx.t.deps.db.updateTable('documents').set({ deleted: true }).where('id', '=', ctx.textHit).execute()
  assert.equal(await ids(ctx.camille, ctx.boulangerie), [ctx.senderHit])
  await ctx.t.deps.db.updateTable('documents').set({ deleted: false }).where('id', '=', ctx.textHit).execute()
})

searching('3 to 200 characters, else a French 400', async (ctx) => {
  for (const q of ['ab', '   ab   ', 'x'.repeat(201), '']) {
    const res = await search(ctx.t, ctx.camille, q)
    assert.is(res.statusCode, 400, q)
    assert.match(res.json().message, /caractères|recherche|q/i)
  }
  assert.is((await search(ctx.t, ctx.camille, '   ab   ')).json().message, SEARCH_LENGTH_MESSAGE)
  // Characters, not UTF-16 units: 150 emoji or rare ideographs are 150 characters.
  for (const q of ['📄'.repeat(150), '𠀀'.repeat(120)]) assert.is((await search(ctx.t, ctx.camille, q)).statusCode, 200, q.slice(0, 4))
  assert.is((await search(ctx.t, ctx.camille, '📄'.repeat(201))).statusCode, 400)
})

searching('the deadlines of the letters the user may see, by date', async (ctx) => {
  const late = await addLetter(
    ctx.t,
    ctx.boulangerie,
    'Assurance Lyre',
    await textLayerPdf([['Prime annuelle : 480,00 EUR, echeance le 30/06/2027.']]),
  )
  const early = await addLetter(ctx.t, ctx.atelier, 'Bailleur', await textLayerPdf([['Loyer a payer avant le 5 janvier 2027.']]))
  await ctx.t.runLetterJob(late.id)
  await ctx.t.runLetterJob(early.id)
  const list = async (token: string, orderId?: number) =>
    (await call(ctx.t.app, token, 'GET', `/api-protected/letter-deadlines${orderId ? `?orderId=${orderId}` : ''}`)).json().deadlines
  const camille = (await list(ctx.camille)).filter((d: { documentId: number }) => [late.id, early.id].includes(d.documentId))
  assert.equal(
    camille.map((d: { documentId: number; date: string; amountCents: number | null }) => [d.documentId, d.date, d.amountCents]),
    [
      [early.id, '2027-01-05', null],
      [late.id, '2027-06-30', 48000],
    ],
  )
  const julien = await list(ctx.julien)
  assert.ok(julien.some((d: { documentId: number }) => d.documentId === late.id))
  assert.not.ok(
    julien.some((d: { documentId: number }) => d.documentId === early.id),
    'not a shared order',
  )
  assert.equal(await list(ctx.sophie), [])
})

searching.run()

const jobs = suite<{ t: TestApp }>('durable jobs')
jobs.before(async (ctx) => {
  ctx.t = await buildTestApp({ seed: false })
})
jobs.after((ctx) => ctx.t?.close())

jobs('two workers on two connections: every job runs exactly once', async (ctx) => {
  const db = ctx.t.deps.db
  const other = await ctx.t.connectAgain()
  const runs = new Map<number, string[]>()
  const counter =
    (worker: string): JobHandler =>
    async ({ job, finish }) => {
      const { n } = job.payload as { n: number }
      runs.set(n, [...(runs.get(n) ?? []), worker])
      await pause(2)
      await finish((trx) =>
        trx
          .insertInto('app_meta')
          .values({ key: `compte-${n}`, value: worker })
          .execute(),
      )
    }
  for (let n = 0; n < 30; n++) await enqueueJob(db, 'compte', { n })
  const drain = async (handle: typeof db, name: string) => {
    while (await runOneJob({ db: handle, name, handlers: { compte: counter(name) } })) {
      /* next */
    }
  }
  await Promise.all([drain(db, 'A'), drain(other.db, 'B')])
  assert.is(runs.size, 30)
  for (const [n, workers] of runs) assert.is(workers.length, 1, `job ${n} ran ${workers.length} times`)
  const written = await db.selectFrom('app_meta').select('key').where('key', 'like', 'compte-%').execute()
  assert.is(written.length, 30)
  const states = await db.selectFrom('jobs').select(['state', 'attempts']).where('kind', '=', 'compte').execute()
  assert.ok(states.every((s) => s.state === 'done' && s.attempts === 1))
})

jobs('a worker dies holding a job: once its lease passes another worker runs it; the dead one’s late results are dropped', async (ctx) => {
  const db = ctx.t.deps.db
  const t0 = new Date('2026-11-20T10:00:00Z')
  const id = await enqueueJob(db, 'lettre-test', { n: 1 }, { runAt: t0 })
  let release!: () => void
  const blocked = new Promise<void>((resolve) => {
    release = resolve
  })
  const written: string[] = []
  const handler =
    (name: string, wait?: Promise<void>): JobHandler =>
    async ({ finish }) => {
      await wait
      await finish(async (trx) => {
        await trx
          .insertInto('app_meta')
          .values({ key: `lettre-test-${name}`, value: name })
          .execute()
        written.push(name)
      })
    }
  // A claims the job (lease: one minute) and hangs, as a process killed mid-job would.
  const dead = runOneJob({ db, name: 'A', now: () => t0, leaseMs: 60_000, handlers: { 'lettre-test': handler('A', blocked) } })
  await until(async () => (await findJob(db, id))?.locked_by === 'A')
  assert.is(
    await runOneJob({ db, name: 'B', now: () => new Date(t0.getTime() + 30_000), handlers: { 'lettre-test': handler('B') } }),
    false,
    'within the lease nobody else takes it',
  )
  assert.is(await runOneJob({ db, name: 'B', now: () => new Date(t0.getTime() + 61_000), handlers: { 'lettre-test': handler('B') } }), true)
  const done = await findJob(db, id)
  assert.equal([done?.state, done?.attempts], ['done', 2])
  release()
  await dead
  assert.equal(written, ['B'])
  assert.is((await db.selectFrom('app_meta').select('key').where('key', 'like', 'lettre-test-%').execute()).length, 1)
})

jobs('a failing job is retried with a growing delay, then stops after its attempts', async (ctx) => {
  const db = ctx.t.deps.db
  const t0 = new Date('2026-11-21T10:00:00Z')
  const id = await enqueueJob(db, 'toujours-en-echec', {}, { runAt: t0, maxAttempts: 3 })
  let tries = 0
  const handlers = {
    'toujours-en-echec': async () => {
      tries++
      throw new Error(`essai ${tries} raté`)
    },
  }
  const at = (ms: number) => runOneJob({ db, name: 'W', now: () => new Date(t0.getTime() + ms), backoffBaseMs: 1000, handlers })
  assert.is(await at(0), true)
  let job = await findJob(db, id)
  assert.equal([job?.state, job?.attempts, job?.run_at.toISOString()], ['queued', 1, new Date(t0.getTime() + 1000).toISOString()])
  assert.is(await at(999), false, 'not before its delay')
  assert.is(await at(1000), true)
  job = await findJob(db, id)
  assert.is(job?.run_at.toISOString(), new Date(t0.getTime() + 1000 + 2000).toISOString(), 'the delay doubles')
  assert.is(await at(3000), true)
  job = await findJob(db, id)
  assert.equal([job?.state, job?.attempts, tries], ['failed', 3, 3])
  assert.match(job?.last_error ?? '', 'essai 3 raté')
  assert.is(await at(3_600_000), false, 'a failed job is not taken again')
})

jobs('a permanent failure (PermanentJobError) is recorded once: failed at its first attempt, never retried', async (ctx) => {
  const db = ctx.t.deps.db
  const t0 = new Date('2026-11-21T12:00:00Z')
  const id = await enqueueJob(db, 'sans-espoir', {}, { runAt: t0, maxAttempts: 5 })
  let tries = 0
  const handlers = {
    'sans-espoir': async () => {
      tries++
      throw new PermanentJobError('fichier illisible')
    },
  }
  assert.is(await runOneJob({ db, name: 'W', now: () => t0, handlers }), true)
  const job = await findJob(db, id)
  assert.equal([job?.state, job?.attempts, tries], ['failed', 1, 1])
  assert.match(job?.last_error ?? '', 'fichier illisible')
  assert.ok(job?.finished_at, 'its end is dated')
  assert.is(await runOneJob({ db, name: 'W', now: () => new Date(t0.getTime() + 3_600_000), handlers }), false, 'not taken again')
})

jobs(
  'a job that kills its worker every time (memory, a container limit) ends failed after its attempts, not reclaimed forever',
  async (ctx) => {
    const db = ctx.t.deps.db
    const t0 = new Date('2026-11-22T10:00:00Z')
    const id = await enqueueJob(db, 'poison', {}, { runAt: t0, maxAttempts: 3 })
    const leaseMs = 60_000
    const claims: number[] = []
    // Each claim's worker dies without a word: only its lease passing tells the others.
    for (let i = 0; i < 6; i++) {
      const job = await claimJob(db, `W${i}`, new Date(t0.getTime() + i * (leaseMs + 1000)), leaseMs, ['poison'], id)
      if (job) claims.push(job.attempts)
    }
    assert.equal(claims, [1, 2, 3])
    const job = await findJob(db, id)
    assert.equal([job?.state, job?.attempts, job?.locked_by, job?.last_error], ['failed', 3, null, LEASE_SPENT_ERROR])
    assert.ok(job?.finished_at, 'its end is dated')
  },
)

jobs(
  'the database goes away under a running job (a restart): its failure is written once the database answers, and the job runs again within seconds, not after its lease',
  async (ctx) => {
    const db = ctx.t.deps.db
    // Every statement refused while `down`, before it is sent, as a PostgreSQL that is restarting refuses connections.
    let down = false
    const flaky = db.withPlugin({
      transformQuery(args) {
        if (down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
        return args.node
      },
      transformResult: async (args) => args.result,
    })
    const id = await enqueueJob(db, 'coupure', {})
    let runs = 0
    const handlers: Record<string, JobHandler> = {
      coupure: async ({ finish }) => {
        runs++
        // The first run's results meet the database down; so does writing its failure. It is back 300 ms later.
        if (runs === 1) {
          down = true
          setTimeout(() => {
            down = false
          }, 300)
        }
        await finish((trx) =>
          trx
            .insertInto('app_meta')
            .values({ key: 'coupure', value: String(runs) })
            .execute(),
        )
      },
    }
    const started = Date.now()
    const worker = startJobWorker({ db: flaky, handlers, name: 'W', pollMs: 50, backoffBaseMs: 100, leaseMs: DEFAULT_LEASE_MS })
    try {
      // Unwritten, the failure left the job `running` under W's lease: nobody ran it again for 5 minutes.
      await until(async () => (await findJob(db, id))?.state === 'done', 5000)
    } finally {
      await worker.stop()
    }
    const job = await findJob(db, id)
    assert.equal([job?.state, job?.attempts, runs], ['done', 2, 2])
    assert.ok(Date.now() - started < 3000, `done in ${Date.now() - started} ms`)
    assert.equal(
      (await db.selectFrom('app_meta').select('value').where('key', '=', 'coupure').execute()).map((r) => r.value),
      ['2'],
      'written once',
    )
  },
)

jobs('claiming skips what another transaction holds (FOR UPDATE SKIP LOCKED)', async (ctx) => {
  const db = ctx.t.deps.db
  const id = await enqueueJob(db, 'verrou', {})
  const claimed = await claimJob(db, 'X', undefined, 60_000, ['verrou'])
  assert.is(claimed?.id, id)
  assert.is(await claimJob(db, 'Y', undefined, 60_000, ['verrou']), null, 'a held lease is not claimed again')
})

jobs.run()

const live = suite<Ctx>('with the worker running: ingestion to searchable')
live.before(setup)
live.after((ctx) => ctx.t?.close())

live('a one-page scan sent by the operators is searchable within seconds, its answer not waiting for it', async (ctx) => {
  await ctx.t.startWorker()
  const order = ctx.orders['Boulangerie des Lilas SAS']!.id
  const added = await addLetter(
    ctx.t,
    order,
    'Chambre des métiers',
    await imageOnlyPdf(['Attestation de qualification artisanale', 'Boulangerie pâtisserie']),
  )
  assert.is(added.searchable, false)
  const hit = await until(async () => {
    const { results } = (await search(ctx.t, ctx.camille, 'qualification artisanale', order)).json()
    return results.find((r: { document: { id: number } }) => r.document.id === added.id)
  }, 60_000)
  assert.is(hit.document.searchable, true)
  assert.is(hit.document.pageImages, 1)
})

live.run()

const queue = suite('the scans waiting for OCR, within their bound')

queue('under the bound a scan is queued without a wait; past it the drawing waits until every queued scan is read', async () => {
  const order: string[] = []
  const gates: (() => void)[] = []
  const scans = scanQueue(async (page) => {
    order.push(`lu ${page.number}`)
    await new Promise<void>((resolve) => gates.push(resolve))
  }, 10)
  const page = (number: number) => ({ number }) as DrawnPage
  assert.is(scans.add(page(1), new Uint8Array(6)), undefined, '6 bytes unread: no wait')
  const wait = scans.add(page(2), new Uint8Array(6))
  assert.ok(wait, '12 bytes unread: past 10, the next page waits')
  let waited = false
  void wait!.then(() => {
    waited = true
  })
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(order, ['lu 1'])
  gates.shift()!()
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(order, ['lu 1', 'lu 2'])
  assert.not.ok(waited, 'page 2 still unread: still waiting')
  gates.shift()!()
  await wait
  assert.ok(waited)
  assert.is(scans.add(page(3), new Uint8Array(6)), undefined, 'all read: 6 bytes unread again')
  await new Promise((resolve) => setImmediate(resolve))
  gates.shift()!()
  await scans.done()
  assert.equal(order, ['lu 1', 'lu 2', 'lu 3'])
})

queue('a failed reading: the scans after it are not read, the wait ends, done() rejects with it', async () => {
  const read: number[] = []
  const scans = scanQueue(async (page) => {
    read.push(page.number)
    if (page.number === 1) throw new Error('OCR en panne')
  }, 1)
  const page = (number: number) => ({ number }) as DrawnPage
  await scans.add(page(1), new Uint8Array(2))
  await scans.add(page(2), new Uint8Array(2))
  assert.is(
    await scans.done().then(
      () => 'lu',
      (error: Error) => error.message,
    ),
    'OCR en panne',
  )
  assert.equal(read, [1])
})

queue.run()
