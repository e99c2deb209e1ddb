// Kbis (data URL) and identity (multipart) uploads: checked by content, 10 MB at most, stored atomically.
// tests: on S3 too (under scripts/with-s3.sh its apps store on the S3 server: scripts/uvu-summary.mjs)
import { constants, deflateRawSync } from 'node:zlib'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { checkFile } from '../../../server/services/file-types.ts'
import { PDF_CONTENT_BUDGET_BYTES } from '../../../server/services/pdf-check.ts'
import { MAX_PDF_PAGES } from '../../../server/contract/rules/uploads.ts'
import { badXrefPdf, bigImagePdf, contentBombPdf, manyPagesPdf } from '../../util/hostile-pdfs.ts'
import { buildTestApp, callBearer, login, operatorLogin, TEST_OPERATOR_TOKEN, type TestApp } from '../../util/server.ts'
import { demoIds, multipart, send, tinyPdf, tinyPng, type DemoIds, type FilePart } from '../../util/server-samples.ts'
import { sql } from 'kysely'

interface Ctx {
  t: TestApp
  ids: DemoIds
  camille: string
  pdf: Buffer
  atelierContract: number
}

const dataUrl = (bytes: Buffer, type = 'application/pdf') => `data:${type};base64,${bytes.toString('base64')}`
const elevenMegabytesPdf = (pdf: Buffer) =>
  Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(11 * 1024 * 1024, 0x20), pdf.subarray(-32)])

/** What is stored before a call, and a check that a rejected call left exactly that. */
async function snapshot(ctx: Ctx) {
  const files = await ctx.t.storedKeys('kbis')
  const identity = await ctx.t.storedKeys('identity')
  const rows = await ctx.t.deps.db.selectFrom('uploaded_documents').select('id').execute()
  const contract = await ctx.t.deps.db
    .selectFrom('contracts')
    .select('kbis_file_key')
    .where('id', '=', ctx.atelierContract)
    .executeTakeFirstOrThrow()
  return async () => {
    assert.equal(await ctx.t.storedKeys('kbis'), files, 'no Kbis file left behind')
    assert.equal(await ctx.t.storedKeys('identity'), identity, 'no identity file left behind')
    assert.is((await ctx.t.deps.db.selectFrom('uploaded_documents').select('id').execute()).length, rows.length, 'no record')
    const after = await ctx.t.deps.db
      .selectFrom('contracts')
      .select('kbis_file_key')
      .where('id', '=', ctx.atelierContract)
      .executeTakeFirstOrThrow()
    assert.is(after.kbis_file_key, contract.kbis_file_key)
  }
}

const setup = async (ctx: Ctx) => {
  ctx.t = await buildTestApp()
  ctx.ids = await demoIds(ctx.t.deps.db)
  ctx.camille = await login(ctx.t.app)
  ctx.pdf = await tinyPdf()
  const atelier = await ctx.t.deps.db
    .selectFrom('contracts')
    .innerJoin('orders', 'orders.id', 'contracts.order_id')
    .select('contracts.id')
    .where('orders.raison_sociale', '=', 'Atelier Lumière SARL')
    .executeTakeFirstOrThrow()
  ctx.atelierContract = atelier.id
}

const kbis = suite<Ctx>('Kbis upload (PUT contracts/{id} with a data URL)')
kbis.before(setup)
kbis.after((ctx) => ctx.t?.close())

const putKbis = (ctx: Ctx, value: string) =>
  callBearer(ctx.t.app, ctx.camille, 'PUT', `/api-protected/contracts/${ctx.atelierContract}`, { kbis: value })

for (const [label, make, status] of [
  ['a PNG declared as PDF', () => dataUrl(tinyPng), 415],
  ['text declared as PDF', () => dataUrl(Buffer.from('ceci n’est pas un PDF')), 415],
  ['a truncated PDF', (c: Ctx) => dataUrl(c.pdf.subarray(0, Math.floor(c.pdf.length / 2))), 415],
  ['an empty file', () => 'data:application/pdf;base64,', 415],
  ['not a data URL', () => 'https://example.com/kbis.pdf', 400],
  ['base64 with garbage', () => 'data:application/pdf;base64,%%%%', 400],
  ['a PDF over 10 MB', (c: Ctx) => dataUrl(elevenMegabytesPdf(c.pdf)), 413],
] as [string, (c: Ctx) => string, number][]) {
  kbis(`refuses ${label} and stores nothing`, async (ctx) => {
    const unchanged = await snapshot(ctx)
    const res = await putKbis(ctx, make(ctx))
    assert.is(res.statusCode, status, res.body)
    assert.ok(res.json().message.length > 10)
    await unchanged()
    const order = await ctx.t.deps.db
      .selectFrom('orders')
      .select('has_kbis')
      .where('raison_sociale', '=', 'Atelier Lumière SARL')
      .executeTakeFirstOrThrow()
    assert.is(order.has_kbis, false)
  })
}

kbis('a body beyond the JSON limit is a French 413, not a 500', async (ctx) => {
  const res = await putKbis(ctx, 'data:application/pdf;base64,' + 'A'.repeat(15_000_000))
  assert.ok(res.statusCode === 413 || res.statusCode === 400, res.body)
  assert.match(res.json().message, /Mo|caractères/)
})

kbis('stores a valid PDF: the order gets hasKbis and the file can be read back', async (ctx) => {
  const res = await putKbis(ctx, dataUrl(ctx.pdf))
  assert.is(res.statusCode, 200, res.body)
  assert.is(res.json().kbis, `/api-protected/contracts/${ctx.atelierContract}/kbis`)
  const orders = (await send(ctx.t.app, 'myOrders', {}, ctx.camille)).json()
  assert.is(orders.find((o: { raisonSociale: string }) => o.raisonSociale === 'Atelier Lumière SARL').hasKbis, true)
  const file = await callBearer(ctx.t.app, ctx.camille, 'GET', res.json().kbis)
  assert.equal(file.rawPayload, ctx.pdf)
})

kbis('a replaced Kbis leaves one file, the new one', async (ctx) => {
  const other = await tinyPdf('Avis de situation INSEE')
  const res = await putKbis(ctx, dataUrl(other))
  assert.is(res.statusCode, 200)
  const row = await ctx.t.deps.db
    .selectFrom('contracts')
    .select('kbis_file_key')
    .where('id', '=', ctx.atelierContract)
    .executeTakeFirstOrThrow()
  const kbisFiles = await ctx.t.storedKeys('kbis')
  assert.ok(kbisFiles.some((f) => f.endsWith(row.kbis_file_key!)))
  assert.equal((await callBearer(ctx.t.app, ctx.camille, 'GET', res.json().kbis)).rawPayload, other)
})

kbis(
  'at most 20 Kbis an hour per person, refused ones included: then a French 429, nothing stored; the address alone is not counted',
  async (ctx) => {
    let limited
    for (let i = 0; i < 21 && !limited; i++) {
      const res = await putKbis(ctx, dataUrl(Buffer.from('ceci n’est pas un PDF')))
      if (res.statusCode === 429) limited = res
      else assert.is(res.statusCode, 415, res.body)
    }
    assert.ok(limited, 'refused within 21 sendings (this suite sent some before)')
    assert.is(limited.json().message, 'Trop de Kbis envoyés en peu de temps : réessayez dans une heure.')
    const unchanged = await snapshot(ctx)
    assert.is((await putKbis(ctx, dataUrl(ctx.pdf))).statusCode, 429, 'a valid one too')
    await unchanged()
    const address = await callBearer(ctx.t.app, ctx.camille, 'PUT', `/api-protected/contracts/${ctx.atelierContract}`, {
      villePostaleExpedition: 'Lyon',
    })
    assert.is(address.statusCode, 200, address.body)
    ctx.t.clock.advance(3_600_000)
    assert.is((await putKbis(ctx, dataUrl(ctx.pdf))).statusCode, 200, 'an hour later')
    ctx.t.clock.set(new Date())
  },
)

kbis.run()

const identity = suite<Ctx>('identity documents (POST /step-upload-identity, multipart)')
identity.before(setup)
identity.after((ctx) => ctx.t?.close())

const upload = (ctx: Ctx, fields: Record<string, string>, files: FilePart[]) => {
  const body = multipart(fields, files)
  return ctx.t.app.inject({
    method: 'POST',
    url: '/step-upload-identity',
    headers: { ...body.headers, apitoken: ctx.camille },
    payload: body.payload,
  })
}
const part = (bytes: Buffer, filename = 'piece.pdf', contentType = 'application/pdf', field = 'identity_manager'): FilePart => ({
  field,
  filename,
  contentType,
  bytes,
})

for (const [label, files, status] of [
  ['a PDF that is not one', () => [part(Buffer.from('%PDF-1.4 mais tronqué'))], 415],
  ['a text file named .jpg', () => [part(Buffer.from('bonjour'), 'cni.jpg', 'image/jpeg')], 415],
  ['a truncated PNG', () => [part(tinyPng.subarray(0, 40), 'cni.png', 'image/png')], 415],
  ['a document type the order does not ask for', (c: Ctx) => [part(c.pdf, 'x.pdf', 'application/pdf', 'passport_spouse')], 400],
  ['a file over 10 MB', (c: Ctx) => [part(elevenMegabytesPdf(c.pdf))], 413],
  ['no file at all', () => [], 400],
] as [string, (c: Ctx) => FilePart[], number][]) {
  identity(`refuses ${label} and stores nothing`, async (ctx) => {
    const unchanged = await snapshot(ctx)
    const res = await upload(ctx, { orderId: String(ctx.ids.missingDocsOrder) }, files(ctx))
    assert.is(res.statusCode, status, res.body)
    assert.ok(res.json().message.length > 10)
    await unchanged()
  })
}

identity('refuses files sent before orderId, and an order that is not hers', async (ctx) => {
  const unchanged = await snapshot(ctx)
  const noOrder = await upload(ctx, {}, [part(ctx.pdf)])
  assert.is(noOrder.statusCode, 400)
  assert.match(noOrder.json().message, 'orderId')
  const foreign = await ctx.t.deps.db
    .selectFrom('orders')
    .select('id')
    .where('raison_sociale', '=', 'Épicerie Solène SARL')
    .executeTakeFirstOrThrow()
  assert.is((await upload(ctx, { orderId: String(foreign.id) }, [part(ctx.pdf)])).statusCode, 404)
  assert.is((await upload(ctx, { orderId: 'abc' }, [part(ctx.pdf)])).statusCode, 400)
  await unchanged()
})

identity('a JSON body is refused in French', async (ctx) => {
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: '/step-upload-identity',
    headers: { apitoken: ctx.camille },
    payload: { orderId: ctx.ids.missingDocsOrder },
  })
  assert.is(res.statusCode, 400)
  assert.match(res.json().message, 'multipart')
})

identity('one good file and one bad: the whole form is refused', async (ctx) => {
  await ctx.t.deps.db
    .updateTable('orders')
    .set({
      missing_documents: JSON.stringify([
        { type: 'identity_manager', label: 'Pièce d’identité du gérant' },
        { type: 'proof_of_address', label: 'Justificatif de domicile' },
      ]),
    })
    .where('id', '=', ctx.ids.missingDocsOrder)
    .execute()
  const unchanged = await snapshot(ctx)
  const res = await upload(ctx, { orderId: String(ctx.ids.missingDocsOrder) }, [
    part(ctx.pdf),
    part(Buffer.from('nope'), 'facture.pdf', 'application/pdf', 'proof_of_address'),
  ])
  assert.is(res.statusCode, 415)
  await unchanged()
})

identity('every document sent: the file waits for the provider’s check, it is not complete until validated', async (ctx) => {
  const first = await upload(ctx, { orderId: String(ctx.ids.missingDocsOrder) }, [part(tinyPng, 'cni.png', 'image/png')])
  assert.is(first.statusCode, 200, first.body)
  assert.equal([first.json().complete, first.json().missingDocumentsValidatedAt], [false, null])
  const second = await upload(ctx, { orderId: String(ctx.ids.missingDocsOrder) }, [
    part(ctx.pdf, 'edf.pdf', 'application/pdf', 'proof_of_address'),
  ])
  assert.equal([second.json().complete, second.json().missingDocumentsValidatedAt], [false, null], 'an upload never completes the file')
  const order = (await send(ctx.t.app, 'myOrders', {}, ctx.camille)).json().find((o: { id: number }) => o.id === ctx.ids.missingDocsOrder)
  assert.is(order.missingDocumentsValidatedAt, null, 'spec §4 still sends the customer to /missing-document')
  const listed = (await send(ctx.t.app, 'uploadedDocuments', { params: { id: ctx.ids.missingDocsOrder } }, ctx.camille)).json()
  assert.equal(
    listed.map((d: { type: string; status: string; refusal: unknown }) => [d.type, d.status, d.refusal]),
    [
      ['identity_manager', 'à vérifier', null],
      ['proof_of_address', 'à vérifier', null],
    ],
  )
})

identity.run()

const bounded = suite<Ctx>('identity documents: one file per document, none once the file is complete, 20 forms an hour')
bounded.before(async (ctx) => {
  await setup(ctx)
  await askFor(ctx, ctx.ids.missingDocsOrder, ['identity_manager', 'proof_of_address'])
})
bounded.after((ctx) => ctx.t?.close())

const labels: Record<string, string> = { identity_manager: 'Pièce d’identité du gérant', proof_of_address: 'Justificatif de domicile' }
/** The order asks for these documents, none received. */
async function askFor(ctx: Ctx, orderId: number, types: string[]) {
  await ctx.t.deps.db.deleteFrom('uploaded_documents').where('order_id', '=', orderId).execute()
  await ctx.t.deps.db
    .updateTable('orders')
    .set({ missing_documents: JSON.stringify(types.map((type) => ({ type, label: labels[type] }))), missing_documents_validated_at: null })
    .where('id', '=', orderId)
    .execute()
}
const identityFiles = async (ctx: Ctx) => await ctx.t.storedKeys('identity')
const rowsOf = (ctx: Ctx, orderId: number) =>
  ctx.t.deps.db
    .selectFrom('uploaded_documents')
    .select(['type', 'file_name', 'file_key'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()

bounded('the same document twice in one form is refused before anything is stored', async (ctx) => {
  const unchanged = await snapshot(ctx)
  const res = await upload(ctx, { orderId: String(ctx.ids.missingDocsOrder) }, [
    part(ctx.pdf, 'recto.pdf'),
    part(tinyPng, 'verso.png', 'image/png'),
  ])
  assert.is(res.statusCode, 400, res.body)
  assert.is(res.json().code, 'DUPLICATE_DOCUMENT')
  assert.is(
    res.json().message,
    'Le document « Pièce d’identité du gérant » est joint plusieurs fois : envoyez un seul fichier par document.',
  )
  await unchanged()
  // Nor may a form name its order twice (its files would go to the second one).
  const orderId = `--limite\r\nContent-Disposition: form-data; name="orderId"\r\n\r\n${ctx.ids.missingDocsOrder}\r\n`
  const twice = await ctx.t.app.inject({
    method: 'POST',
    url: '/step-upload-identity',
    headers: { apitoken: ctx.camille, 'content-type': 'multipart/form-data; boundary=limite' },
    payload: `${orderId}${orderId}--limite--\r\n`,
  })
  assert.is(twice.statusCode, 400, twice.body)
  assert.is(twice.json().message, 'Le champ « orderId » ne peut figurer qu’une fois.')
})

bounded('a document sent again before the file is complete replaces the first: one row and one file per document', async (ctx) => {
  const first = await upload(ctx, { orderId: String(ctx.ids.missingDocsOrder) }, [part(tinyPng, 'cni.png', 'image/png')])
  assert.is(first.statusCode, 200, first.body)
  const again = await upload(ctx, { orderId: String(ctx.ids.missingDocsOrder) }, [part(ctx.pdf, 'cni-lisible.pdf')])
  assert.is(again.statusCode, 200, again.body)
  assert.equal([again.json().complete, again.json().uploaded.map((d: { fileName: string }) => d.fileName)], [false, ['cni-lisible.pdf']])
  const rows = await rowsOf(ctx, ctx.ids.missingDocsOrder)
  assert.equal(
    rows.map((r) => [r.type, r.file_name]),
    [['identity_manager', 'cni-lisible.pdf']],
  )
  assert.equal(
    (await identityFiles(ctx)).map((f) => f.slice(f.indexOf('identity/'))),
    [rows[0]!.file_key],
    'the first file is gone',
  )
})

bounded('once the file is complete, every form is refused (409) and nothing is stored', async (ctx) => {
  const last = await upload(ctx, { orderId: String(ctx.ids.missingDocsOrder) }, [
    part(ctx.pdf, 'edf.pdf', 'application/pdf', 'proof_of_address'),
  ])
  assert.is(last.statusCode, 200, last.body)
  // The provider validates both (back office, Justificatifs): the file is complete.
  const admin = await operatorLogin(ctx.t)
  for (const document of last.json().uploaded as { id: number }[]) {
    const opened = await callBearer(ctx.t.app, admin, 'GET', `/api/backoffice/justificatifs/identite/${document.id}`)
    const validated = await callBearer(ctx.t.app, admin, 'POST', `/api/backoffice/justificatifs/identite/${document.id}:validate`, {
      version: opened.json().version,
    })
    assert.is(validated.statusCode, 200, validated.body)
  }
  const unchanged = await snapshot(ctx)
  for (const files of [[part(ctx.pdf, 'cni.pdf')], [part(ctx.pdf, 'edf.pdf', 'application/pdf', 'proof_of_address')], []]) {
    const res = await upload(ctx, { orderId: String(ctx.ids.missingDocsOrder) }, files)
    assert.is(res.statusCode, 409, res.body)
    assert.is(res.json().code, 'DOCUMENTS_COMPLETE')
    assert.is(
      res.json().message,
      'Vos documents ont déjà tous été reçus : le dossier de cette domiciliation est complet, aucun autre envoi n’est nécessaire.',
    )
  }
  await unchanged()
})

bounded('forms sending the same document at the same moment: one row, its file kept, the others’ removed', async (ctx) => {
  await askFor(ctx, ctx.ids.missingDocsOrder, ['identity_manager'])
  const before = await identityFiles(ctx)
  const answers = await Promise.all(
    Array.from({ length: 6 }, (_, i) => upload(ctx, { orderId: String(ctx.ids.missingDocsOrder) }, [part(ctx.pdf, `cni-${i}.pdf`)])),
  )
  assert.equal(
    answers.map((res) => res.statusCode),
    [200, 200, 200, 200, 200, 200],
    answers.map((res) => res.body).join('\n'),
  )
  const rows = await rowsOf(ctx, ctx.ids.missingDocsOrder)
  assert.is(rows.length, 1)
  const after = await identityFiles(ctx)
  assert.equal(
    after.filter((f) => !before.includes(f)).map((f) => f.slice(f.indexOf('identity/'))),
    [rows[0]!.file_key],
  )
})

bounded('at most 20 forms an hour per person, refused ones included: the next is a French 429 and stores nothing', async (ctx) => {
  const sophie = await login(ctx.t.app, 'solo@example.com')
  const epicerie = (
    await ctx.t.deps.db.selectFrom('orders').select('id').where('raison_sociale', '=', 'Épicerie Solène SARL').executeTakeFirstOrThrow()
  ).id
  await askFor(ctx, epicerie, ['identity_manager'])
  const send = (files: FilePart[]) => {
    const body = multipart({ orderId: String(epicerie) }, files)
    return ctx.t.app.inject({
      method: 'POST',
      url: '/step-upload-identity',
      headers: { ...body.headers, apitoken: sophie },
      payload: body.payload,
    })
  }
  for (let i = 0; i < 20; i++) assert.is((await send([part(ctx.pdf, 'x.pdf', 'application/pdf', 'passport_spouse')])).statusCode, 400)
  const unchanged = await snapshot(ctx)
  const limited = await send([part(ctx.pdf, 'cni.pdf')])
  assert.is(limited.statusCode, 429, limited.body)
  assert.is(limited.json().message, 'Trop de documents envoyés en peu de temps : réessayez dans une heure.')
  await unchanged()
  const camille = await upload(ctx, { orderId: String(ctx.ids.missingDocsOrder) }, [])
  assert.equal([camille.statusCode, camille.json().code], [400, 'NO_FILE'], 'counted per person: Camille is not limited')
  ctx.t.clock.advance(3_600_000)
  assert.is((await send([part(ctx.pdf, 'cni.pdf')])).statusCode, 200, 'an hour later')
  ctx.t.clock.set(new Date())
})

bounded.run()

// --- PDFs too heavy to read: a bomb (a small file whose object stream inflates to hundreds of megabytes), a file of
// countless small objects (pdf-lib's parse itself is slow)

/** A PDF of one page whose object stream inflates to `megabytes` MB of spaces (about 1 KB of file per MB), by zlib
 * alone or behind ASCIIHexDecode (a chain a look at the raw bytes would not inflate). */
function pdfBomb(megabytes: number, { hex = false } = {}): Buffer {
  // Blocks of 1 MB of spaces, each ending on a byte (a sync flush), repeated; then the last block and the checksum.
  const block = deflateRawSync(Buffer.alloc(1 << 20, 0x20), { level: 9, finishFlush: constants.Z_SYNC_FLUSH })
  const length = BigInt(megabytes) << 20n
  const adler = Buffer.alloc(4)
  adler.writeUInt32BE(Number((((length + (32n * length * (length + 1n)) / 2n) % 65521n) << 16n) | ((1n + 32n * length) % 65521n)))
  const deflated = Buffer.concat([Buffer.from([0x78, 0x9c]), ...Array<Buffer>(megabytes).fill(block), Buffer.from([0x03, 0x00]), adler])
  const data = hex ? Buffer.from(`${deflated.toString('hex')}>`, 'latin1') : deflated
  const filter = hex ? '[/ASCIIHexDecode /FlateDecode]' : '/FlateDecode'
  return Buffer.concat([
    Buffer.from(
      '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n' +
        '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n' +
        `4 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter ${filter} /Length ${data.length} >>\nstream\n`,
      'latin1',
    ),
    data,
    Buffer.from('\nendstream\nendobj\ntrailer\n<< /Size 5 /Root 1 0 R >>\n%%EOF\n', 'latin1'),
  ])
}

/** A PDF of one page followed by `count` tiny objects, nothing compressed: pdf-lib reads about 50,000 a second. */
function pdfOfSmallObjects(count: number): Buffer {
  const objects = Array.from({ length: count }, (_, i) => `${i + 10} 0 obj [0] endobj\n`).join('')
  return Buffer.from(
    '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n' +
      `3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n${objects}trailer\n<< /Size 5 /Root 1 0 R >>\n%%EOF\n`,
    'latin1',
  )
}

const heavy = suite<Ctx>('PDFs too heavy to read: refused at once, the server answering meanwhile')
heavy.before(setup)
heavy.after((ctx) => ctx.t?.close())

/** Every route that takes a PDF, with `bytes`: the Kbis, an identity document, an operator's letter and invoice. */
async function everyPdfRoute(ctx: Ctx, bytes: Buffer) {
  const file = dataUrl(bytes)
  const operator = (path: string, payload: object) =>
    ctx.t.app.inject({
      method: 'POST',
      url: `/api/operator/domiciliation-orders/${ctx.ids.order}/${path}`,
      headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
      payload,
    })
  return {
    kbis: await putKbis(ctx, file),
    identity: await upload(ctx, { orderId: String(ctx.ids.missingDocsOrder) }, [part(bytes, 'cni.pdf')]),
    letter: await operator('documents', { sender: 'URSSAF', file }),
    invoice: await operator('invoices', { reference: 'FA-BOMBE-1', amountExclTaxCents: 100, amountInclTaxCents: 120, file }),
  }
}

heavy(
  'a PDF bomb (500 MB inflated from 0.5 MB, by zlib or behind ASCIIHex) is refused in French on every route, nothing stored',
  async (ctx) => {
    const stored = async () => ({
      documents: (await ctx.t.deps.db.selectFrom('documents').select('id').execute()).length,
      invoices: (await ctx.t.deps.db.selectFrom('invoices').select('id').execute()).length,
      files: await ctx.t.storedKeys('documents'),
    })
    // A real PDF passes every route (and the check's thread is up before the clock runs).
    const good = await everyPdfRoute(ctx, ctx.pdf)
    assert.equal(
      Object.values(good).map((res) => res.statusCode),
      [200, 200, 200, 200],
      JSON.stringify(Object.values(good).map((res) => res.body)),
    )
    await ctx.t.deps.db
      .updateTable('orders')
      .set({ missing_documents_validated_at: null })
      .where('id', '=', ctx.ids.missingDocsOrder)
      .execute()
    for (const hex of [false, true]) {
      const bomb = pdfBomb(500, { hex })
      assert.ok(bomb.length < 1_100_000, `${bomb.length} bytes`)
      const unchanged = await snapshot(ctx)
      const before = await stored()
      const started = performance.now()
      const answers = await everyPdfRoute(ctx, bomb)
      const elapsed = performance.now() - started
      for (const [route, res] of Object.entries(answers)) {
        assert.is(res.statusCode, 422, `${route}, hex ${hex}: ${res.body}`)
        assert.is(res.json().code, 'PDF_TOO_HEAVY')
        assert.match(res.json().message, /est un PDF trop lourd à analyser : enregistrez le document à nouveau/)
      }
      assert.match(answers.kbis.json().message, /^Le Kbis /)
      assert.match(answers.identity.json().message, /^Le fichier « cni\.pdf » /)
      assert.match(answers.invoice.json().message, /^La facture /)
      assert.ok(elapsed < 4000, `four refusals in ${elapsed.toFixed(0)} ms`)
      await unchanged()
      assert.equal(await stored(), before, 'no letter, no invoice, no file')
    }
  },
)

heavy(
  'a page whose content inflates to 1 GB, and a PDF of 1,001 pages, are refused in French on every route, nothing stored',
  async (ctx) => {
    const stored = async () => ({
      documents: (await ctx.t.deps.db.selectFrom('documents').select('id').execute()).length,
      invoices: (await ctx.t.deps.db.selectFrom('invoices').select('id').execute()).length,
      files: await ctx.t.storedKeys('documents'),
    })
    await ctx.t.deps.db
      .updateTable('orders')
      .set({ missing_documents_validated_at: null })
      .where('id', '=', ctx.ids.missingDocsOrder)
      .execute()
    for (const [pdf, code, message] of [
      // Its structure is tiny (pdf-lib never decodes a page's content): it was stored, and pdf.js took 46 s and 3.2 GB to draw it.
      [contentBombPdf(1000), 'PDF_TOO_HEAVY', /est un PDF trop lourd à analyser/],
      [manyPagesPdf(MAX_PDF_PAGES + 1), 'PDF_TOO_LONG', /compte plus de 1\u202f000 pages : envoyez-le en plusieurs fichiers\.$/],
    ] as const) {
      assert.ok(pdf.length < 1_100_000, `${pdf.length} bytes`)
      const unchanged = await snapshot(ctx)
      const before = await stored()
      const answers = await everyPdfRoute(ctx, pdf)
      for (const [route, res] of Object.entries(answers)) {
        assert.is(res.statusCode, 422, `${route}, ${code}: ${res.body}`)
        assert.is(res.json().code, code)
        assert.match(res.json().message, message)
      }
      assert.match(answers.identity.json().message, /^Le fichier « cni\.pdf » /)
      await unchanged()
      assert.equal(await stored(), before, 'no letter, no invoice, no file')
    }
    // Just within both: 60 MB of content, 1,000 pages.
    assert.equal(await checkFile(contentBombPdf(60)), { type: 'pdf', pages: 1 })
    assert.equal(await checkFile(manyPagesPdf(MAX_PDF_PAGES)), { type: 'pdf', pages: MAX_PDF_PAGES })
    assert.ok(PDF_CONTENT_BUDGET_BYTES > 60 * 1024 * 1024)
  },
)

heavy(
  'a huge picture (30000 × 30000 px) and a broken cross-reference table are accepted: pdf.js leaves the one out and rebuilds the other',
  async () => {
    assert.equal(await checkFile(bigImagePdf(30_000, 30_000)), { type: 'pdf', pages: 1 })
    assert.equal(await checkFile(badXrefPdf()), { type: 'pdf', pages: 1 })
  },
)

heavy('a PDF pdf-lib would take seconds to parse is refused after its time, while the server goes on answering', async () => {
  const pdf = pdfOfSmallObjects(150_000)
  assert.ok(pdf.length < 4_000_000)
  assert.equal(await checkFile(await tinyPdf()), { type: 'pdf', pages: 1 }, 'the thread is up')
  let last = performance.now()
  let longestPause = 0
  const ticks = setInterval(() => {
    longestPause = Math.max(longestPause, performance.now() - last)
    last = performance.now()
  }, 10)
  const started = performance.now()
  try {
    assert.equal(await checkFile(pdf, { pdfTimeoutMs: 500 }), { type: null, problem: 'heavy' })
  } finally {
    clearInterval(ticks)
  }
  assert.ok(performance.now() - started < 2000, `refused after ${(performance.now() - started).toFixed(0)} ms`)
  assert.ok(longestPause < 250, `the event loop stopped ${longestPause.toFixed(0)} ms`)
  assert.equal(await checkFile(await tinyPdf()), { type: 'pdf', pages: 1 }, 'the next check gets a new thread')
})

heavy.run()

const atomic = suite<Ctx>('file and record are stored together or not at all')
atomic.before(setup)
atomic.after((ctx) => ctx.t?.close())

atomic('a failing database step removes the file it had written', async (ctx) => {
  const before = await ctx.t.storedKeys('identity')
  // A trigger makes the insert fail after the file was written.
  await sql`create function refuse() returns trigger language plpgsql as $$ begin raise exception 'refusé'; end $$`.execute(ctx.t.deps.db)
  await sql`create trigger refuse_uploads before insert on uploaded_documents for each row execute function refuse()`.execute(ctx.t.deps.db)
  const res = await upload(ctx, { orderId: String(ctx.ids.missingDocsOrder) }, [part(ctx.pdf)])
  assert.is(res.statusCode, 500)
  assert.match(res.json().message, 'erreur interne')
  assert.equal(await ctx.t.storedKeys('identity'), before)
})

atomic.run()
