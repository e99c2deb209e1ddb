// The letter pipeline within its limits, whatever the PDF: pictures that decode to gigabytes are drawn in a render
// process bounded as a whole (letter-render-process.ts), a page past a limit is drawn without its large pictures or
// left out and the letter published all the same, OCR is bounded per page, and a letter no retry would open fails once.
import { readdirSync, readFileSync } from 'node:fs'
import { loadImage, createCanvas } from '@napi-rs/canvas'
import { PDFDocument } from 'pdf-lib'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { findJob, findJobFor } from '../../../server/db/repositories/jobs.ts'
import { runOneJob } from '../../../server/services/jobs.ts'
import { greyPgm, skippedPageImage } from '../../../server/services/letter-render.ts'
import {
  RENDER_MEMORY_CEILING_BYTES,
  renderLetterPages,
  renderGlibcTunables,
  renderProcessPeakRss,
  renderProcessStarts,
} from '../../../server/services/letter-render-process.ts'
import { LETTER_JOB, letterPipelineJob, renderLetter, type PipelineDeps } from '../../../server/services/mail-pipeline.ts'
import { tesseractOcr, type Ocr } from '../../../server/services/ocr.ts'
import { jbig2RegionPdf, manyBigImagesPdf } from '../../util/hostile-pdfs.ts'
import { imageOnlyPdf, textLayerPdf } from '../../util/letters.ts'
import { buildTestApp, call, login, ordersByName, TEST_OPERATOR_TOKEN, type TestApp } from '../../util/server.ts'

interface Ctx {
  t: TestApp
  camille: string
  order: number
}

const MB = 2 ** 20
/** The ceiling the issue sets for the API, and for the process that draws. */
const MEMORY_LIMIT = 600 * MB

async function addLetter(t: TestApp, orderId: number, sender: string, pdf: Buffer) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/operator/domiciliation-orders/${orderId}/documents`,
    headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
    payload: { sender, kind: 'courrier', file: `data:application/pdf;base64,${pdf.toString('base64')}` },
  })
  assert.is(res.statusCode, 200, res.body)
  return res.json().document as { id: number }
}

async function letterOf(t: TestApp, token: string, orderId: number, id: number) {
  const res = await call(t.app, token, 'GET', `/api-protected/documents?orderId=${orderId}`)
  return res.json().find((d: { id: number }) => d.id === id) as { id: number; pageImages: number; searchable: boolean }
}

/** Runs the letter's job once with `deps` (beside the app's own db and storage), its warnings kept. */
async function runJob(t: TestApp, documentId: number, deps: Partial<PipelineDeps> = {}) {
  const warnings: { details: object; message: string }[] = []
  const job = (await findJobFor(t.deps.db, LETTER_JOB, documentId))!
  const handler = letterPipelineJob({
    db: t.deps.db,
    storage: t.deps.storage,
    ocr: t.ocr,
    log: { warn: (details, message) => warnings.push({ details, message }) },
    ...deps,
  })
  await runOneJob({ db: t.deps.db, name: 'limites', only: job.id, handlers: { [LETTER_JOB]: handler } })
  return { job: (await findJob(t.deps.db, job.id))!, warnings }
}

/**
 * `work`'s result, with the highest resident memory of this process (the API) while it runs (which is why this file
 * says « tests: a process of its own » to scripts/run-tests.mjs: no other file's memory in it), sampled every 10 ms. The
 * API's own growth is what the render must not cause: on PGlite this process also holds the database (about 600 MB of
 * WebAssembly memory), so the 600 MB ceiling is checked on PostgreSQL, and the growth on both.
 */
async function apiMemoryDuring<T>(work: () => Promise<T>): Promise<T> {
  const before = process.memoryUsage.rss()
  let peak = before
  const sampling = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 10)
  let result: T
  try {
    result = await work()
  } finally {
    clearInterval(sampling)
  }
  peak = Math.max(peak, process.memoryUsage.rss())
  assert.ok(
    peak - before < 100 * MB,
    `the API's process grew by ${Math.round((peak - before) / MB)} MB (${Math.round(before / MB)} → ${Math.round(peak / MB)} MB)`,
  )
  if (process.env.DATABASE_URL) assert.ok(peak < MEMORY_LIMIT, `the API's process reached ${Math.round(peak / MB)} MB`)
  return result
}

/** The average colour of the image's top band (where a light page's notice is), as [r, g, b]. */
async function topBandColour(bytes: Buffer): Promise<number[]> {
  const image = await loadImage(bytes)
  const canvas = createCanvas(image.width, image.height)
  const context = canvas.getContext('2d')
  context.drawImage(image, 0, 0)
  const { data } = context.getImageData(0, 0, image.width, 10)
  const sum = [0, 0, 0]
  for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) sum[c]! += data[i + c]!
  return sum.map((s) => Math.round(s / (data.length / 4)))
}

const setup = async (ctx: Ctx) => {
  ctx.t = await buildTestApp()
  ctx.camille = await login(ctx.t.app)
  ctx.order = (await ordersByName(ctx.t.app, ctx.camille))['Boulangerie des Lilas SAS']!.id
}

const hostile = suite<Ctx>('hostile letters: the processes stay within their memory, the letter is published')
hostile.before(setup)
hostile.after((ctx) => ctx.t?.close())

// Time limits far above what these pages take: the memory ceiling is what stops them, on a busy machine too.
const generous = { renderTimeoutMs: 200_000, pageTimeoutMs: 100_000 }

for (const [name, pdf, words] of [
  ['a 1.2 MB PDF of eight 7000 × 7000 pictures on one page (1.1 GB decoded)', manyBigImagesPdf(), 'huit images immenses'],
  ['a 1 KB JBIG2 picture declaring a 60000 × 60000 region (3.6 billion pixels)', jbig2RegionPdf(), 'region JBIG2 immense'],
] as const) {
  hostile(
    `${name}: passes the upload check; drawn without its large pictures, the letter published once, its text searchable and its PDF intact; the API's process not growing (under 600 MB on PostgreSQL), the render process under 600 MB`,
    async (ctx) => {
      assert.ok(pdf.length < 1.3 * MB, `${pdf.length} bytes`)
      const added = await addLetter(ctx.t, ctx.order, 'Expéditeur piégé', pdf)
      const { job, warnings } = await apiMemoryDuring(() => runJob(ctx.t, added.id, generous))
      const rendered = renderProcessPeakRss()
      assert.ok(rendered > 0 && rendered < MEMORY_LIMIT, `the render process reached ${Math.round(rendered / MB)} MB`)
      assert.equal([job.state, job.attempts, job.last_error], ['done', 1, null], 'published at the first attempt')
      const letter = await letterOf(ctx.t, ctx.camille, ctx.order, added.id)
      assert.equal([letter.pageImages, letter.searchable], [1, true])
      const page = await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${added.id}/pages/1`)
      assert.is(page.statusCode, 200)
      const [r, g, b] = await topBandColour(page.rawPayload)
      assert.ok(r! > 240 && g! > 230 && b! < 220, `the page carries the notice band (${r}, ${g}, ${b})`)
      const file = await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${added.id}/file`)
      assert.is(file.statusCode, 200)
      assert.ok(Buffer.compare(file.rawPayload, pdf) === 0, 'the PDF as sent')
      const found = (
        await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/search?q=${encodeURIComponent(words)}&orderId=${ctx.order}`)
      ).json().results
      assert.ok(
        found.some((hit: { document: { id: number } }) => hit.document.id === added.id),
        'found by its text',
      )
      assert.equal(
        warnings.map((w) => w.message),
        ['aperçu du courrier allégé : pages dessinées sans leurs grandes images ou omises (le PDF reste entier)'],
      )
      const [lessened] = (warnings[0]!.details as { pages: { page: number; rendu: string; cause: string }[] }).pages
      assert.equal([lessened!.page, lessened!.rendu], [1, 'sans ses grandes images'])
      assert.match(lessened!.cause, `mémoire du processus de rendu dépassée`)
      assert.match(lessened!.cause, `pour ${RENDER_MEMORY_CEILING_BYTES / MB} Mo`)
    },
  )
}

hostile(
  'a page past the limits even without its large pictures is left out: a notice in its place, the other pages drawn, its text kept; the viewer’s page numbers hold',
  async (ctx) => {
    // The JBIG2 picture's dictionary says a million pixels: drawn again without large pictures, it is decoded again.
    const pdf = jbig2RegionPdf({ declared: [1000, 1000], between: true })
    const added = await addLetter(ctx.t, ctx.order, 'Expéditeur en trois pages', pdf)
    const { job, warnings } = await apiMemoryDuring(() => runJob(ctx.t, added.id, generous))
    assert.ok(renderProcessPeakRss() < MEMORY_LIMIT, `the render process reached ${Math.round(renderProcessPeakRss() / MB)} MB`)
    assert.equal([job.state, job.attempts], ['done', 1])
    const letter = await letterOf(ctx.t, ctx.camille, ctx.order, added.id)
    assert.equal([letter.pageImages, letter.searchable], [3, true])
    const pages = await Promise.all(
      [1, 2, 3].map((n) => call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${added.id}/pages/${n}`)),
    )
    assert.equal(
      pages.map((p) => [p.statusCode, p.headers['content-type']]),
      [
        [200, 'image/webp'],
        [200, 'image/webp'],
        [200, 'image/webp'],
      ],
    )
    assert.ok(
      Buffer.compare(pages[1]!.rawPayload, Buffer.from((await skippedPageImage(2)).bytes)) === 0,
      'page 2 is the notice « Page 2 : trop lourde… »',
    )
    assert.ok(
      Buffer.compare(pages[0]!.rawPayload, pages[1]!.rawPayload) !== 0 && Buffer.compare(pages[2]!.rawPayload, pages[1]!.rawPayload) !== 0,
    )
    const [lessened] = (warnings[0]!.details as { pages: { page: number; rendu: string }[] }).pages
    assert.equal([lessened!.page, lessened!.rendu], [2, 'omise (avis à sa place)'])
    const text = (await ctx.t.deps.db.selectFrom('documents').select('text').where('id', '=', added.id).executeTakeFirstOrThrow()).text!
    assert.equal(text.split('\n'), ['Premiere page ordinaire', 'Une region JBIG2 immense', 'Derniere page ordinaire'])
  },
)

hostile('a letter pdf.js cannot open fails once, for good: no retry would open it', async (ctx) => {
  const added = await addLetter(ctx.t, ctx.order, 'Fichier abîmé', await textLayerPdf([['Une lettre dont le fichier sera abime.']]))
  // Its stored file damaged afterwards (a disk fault): what the job reads is no PDF.
  const { file_key: key } = await ctx.t.deps.db
    .selectFrom('documents')
    .select('file_key')
    .where('id', '=', added.id)
    .executeTakeFirstOrThrow()
  await ctx.t.deps.storage.put(key, Buffer.from('%PDF-1.7\nceci n’est plus un PDF\n'))
  const { job } = await runJob(ctx.t, added.id)
  assert.equal([job.state, job.attempts, job.max_attempts], ['failed', 1, 5], 'failed at its first attempt of five')
  assert.match(job.last_error ?? '', 'pdf.js ne peut pas ouvrir ce courrier')
  assert.ok(job.finished_at, 'its end is dated')
  const letter = await letterOf(ctx.t, ctx.camille, ctx.order, added.id)
  assert.equal([letter.pageImages, letter.searchable], [0, false])
})

hostile.run()

const ocr = suite<Ctx>('OCR within its time per page')
ocr.before(setup)
ocr.after((ctx) => ctx.t?.close())

/** A scan of `pages` pages (no text layer): OCR reads each page. */
async function pagesScan(pages = 2): Promise<Buffer> {
  const doc = await PDFDocument.create()
  for (const n of Array.from({ length: pages }, (_, i) => i + 1)) {
    const lines = [`Page ${n} numerisee du releve`]
    const [page] = await doc.copyPages(await PDFDocument.load(await imageOnlyPdf(lines)), [0])
    doc.addPage(page!)
  }
  return Buffer.from(await doc.save())
}

ocr(
  'an OCR slower than its limit on every page: each page’s reading given up at its limit, the letter published with its images, the operators told',
  async (ctx) => {
    const added = await addLetter(ctx.t, ctx.order, 'Scanner lent', await pagesScan())
    const reads: { aborted: boolean }[] = []
    // Answers after 4 s, unless its signal stops it first.
    const slow: Ocr = {
      read: (_image, signal) =>
        new Promise((resolve, reject) => {
          const read = { aborted: false }
          reads.push(read)
          const timer = setTimeout(() => resolve('texte lu bien trop tard'), 4_000)
          signal?.addEventListener('abort', () => {
            read.aborted = true
            clearTimeout(timer)
            reject(signal.reason)
          })
        }),
      close: async () => {},
    }
    const { job, warnings } = await runJob(ctx.t, added.id, { ocr: slow, ocrPageTimeoutMs: 200 })
    assert.equal([job.state, job.attempts], ['done', 1])
    assert.equal(reads, [{ aborted: true }, { aborted: true }], 'each page read, each reading stopped at its limit')
    const letter = await letterOf(ctx.t, ctx.camille, ctx.order, added.id)
    assert.equal([letter.pageImages, letter.searchable], [2, false])
    assert.equal(
      warnings.map((w) => [w.message, (w.details as { pages: number[] }).pages]),
      [['OCR abandonné sur des pages trop longues à lire : leur texte manque à la recherche', [1, 2]]],
    )
  },
)

ocr(
  'a scan waits for OCR within its bound: the next page is drawn once the unread scans are read, and that wait is not counted in the letter’s time',
  async () => {
    const reads: number[] = []
    // 2.5 s a page: the three pages' readings take 7.5 s, the letter has 4 s to be drawn.
    const slow: Ocr = {
      read: async () => {
        reads.push(performance.now())
        await new Promise((resolve) => setTimeout(resolve, 2_500))
        return 'Releve numerise lu lentement'
      },
      close: async () => {},
    }
    // Every scan past the bound: each page is drawn once the one before is read.
    const rendered = await renderLetter(new Uint8Array(await pagesScan(3)), slow, { timeoutMs: 4_000, maxUnreadScanBytes: 1 })
    assert.equal(
      rendered.pages.map((page) => page.mode),
      ['full', 'full', 'full'],
      'no page left out for the time spent waiting for OCR',
    )
    assert.is(rendered.ocrPages, 3)
    // Unbounded, page 2 would be drawn during page 1's reading and read as soon as it ends; here it is drawn after (a
    // page's drawing takes over 100 ms).
    assert.is(reads.length, 3)
    for (const n of [1, 2])
      assert.ok(reads[n]! - reads[n - 1]! >= 2_560, `page ${n + 1} read ${Math.round(reads[n]! - reads[n - 1]!)} ms after page ${n}`)
  },
)

ocr('tesseract stopped by its signal ends its recognition at once; the next page is read by a new worker', async () => {
  const reader = tesseractOcr()
  const scan = async (line: string) => {
    const canvas = createCanvas(1240, 600)
    const context = canvas.getContext('2d')
    context.fillStyle = '#ffffff'
    context.fillRect(0, 0, 1240, 600)
    context.fillStyle = '#111111'
    context.font = '44px sans-serif'
    context.fillText(line, 100, 300)
    return canvas.encode('png')
  }
  try {
    const stop = new AbortController()
    const reading = reader.read(await scan('Une page que personne ne lira'), stop.signal)
    setTimeout(() => stop.abort(new Error('limite de la page')), 50)
    assert.is(
      await reading.then(
        () => 'lu',
        (error: Error) => error.message,
      ),
      'limite de la page',
    )
    assert.match((await reader.read(await scan('Attestation de domiciliation'))) ?? '', 'domiciliation')
  } finally {
    await reader.close()
  }
})

ocr.run()

const kept = suite('the render process kept from letter to letter')

kept('ten one-page letters in a row, five of them scans, are drawn by one render process: it keeps no freed canvas', async () => {
  const scan = new Uint8Array(await imageOnlyPdf(['Caisse primaire d’assurance maladie']))
  const text = new Uint8Array(await textLayerPdf([['Direction générale des finances publiques']]))
  const before = renderProcessStarts()
  for (let n = 0; n < 10; n++) {
    const [page] = await renderLetterPages(n % 2 ? scan : text, { timeoutMs: 60_000 })
    assert.is(page!.mode, 'full')
    assert.is(page!.scan === null, n % 2 === 0, 'a scan comes back for OCR, a page with text does not')
  }
  // Before glibc's allocator was told to give large blocks back (RENDER_MALLOC_ENV), the process kept more than
  // KEPT_RSS_BYTES after four scans and was started again: three processes for these ten letters.
  assert.ok(renderProcessStarts() - before <= 1, `${renderProcessStarts() - before} render processes started`)
})

kept('the render process asks glibc for huge pages, beside the tunables the API was given', async () => {
  assert.is(renderGlibcTunables(undefined), 'glibc.malloc.hugetlb=1')
  assert.is(renderGlibcTunables('glibc.malloc.arena_max=2'), 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1')
  // The process really started with it: its environment, read while it draws (Linux's /proc, as on the servers).
  const drawing = renderLetterPages(new Uint8Array(await textLayerPdf([['Greffe du tribunal de commerce']])), { timeoutMs: 60_000 })
  const children = () =>
    readdirSync('/proc')
      .filter((pid) => /^\d+$/.test(pid))
      .flatMap((pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
          const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
          return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('letter-render-child') ? [pid] : []
        } catch {
          return []
        }
      })
  const [child] = children()
  assert.ok(child, 'a render process is running')
  const environment = readFileSync(`/proc/${child}/environ`, 'utf8').split('\0')
  await drawing
  assert.ok(environment.includes('GLIBC_TUNABLES=glibc.malloc.hugetlb=1'), environment.filter((v) => v.startsWith('GLIBC')).join(', '))
  assert.ok(environment.includes('MALLOC_MMAP_THRESHOLD_=131072'))
})

kept('a page goes to OCR as grey PGM laid on white: dark text dark, a half-transparent pixel lighter', () => {
  const canvas = createCanvas(3, 1)
  const context = canvas.getContext('2d')
  context.fillStyle = '#ffffff'
  context.fillRect(0, 0, 1, 1)
  context.fillStyle = '#102030'
  context.fillRect(1, 0, 1, 1)
  context.fillStyle = 'rgba(0, 0, 0, 0.5)'
  context.fillRect(2, 0, 1, 1)
  const pgm = greyPgm(canvas)
  const header = 'P5\n3 1\n255\n'
  assert.is(Buffer.from(pgm.subarray(0, header.length)).toString('latin1'), header)
  const [white, dark, half] = pgm.subarray(header.length)
  assert.is(pgm.length, header.length + 3)
  assert.is(white, 255)
  assert.ok(Math.abs(dark! - 0x1d) <= 1, `${dark}`)
  assert.ok(Math.abs(half! - 128) <= 1, `${half}`)
})

kept.run()
