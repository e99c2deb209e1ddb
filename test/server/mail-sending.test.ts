// Letters sent by e-mail (send-documents) and to the accounting inbox (send-dext-invoices): any address, from the
// provider's own, so limited per user; and never more files than one e-mail carries (25 MB), read one at a time.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { attachmentsTooLarge, SEND_DOCUMENTS_LIMIT } from '../../server/routes/mail/index.ts'
import { DEXT_LIMIT } from '../../server/routes/billing/invoices.ts'
import { call } from '../util/server.ts'
import { demoContext, type DemoContext } from '../util/server-samples.ts'

const Sending = suite<DemoContext>('sending letters by e-mail')
Sending.before(async (ctx) => void (await demoContext(ctx)))
Sending.after((ctx) => ctx.t?.close())

/** Three of the Boulangerie's letters, their stored files made 9 MB each (27 MB together). */
async function heavyLetters(ctx: DemoContext): Promise<number[]> {
  const rows = await ctx.t.deps.db
    .selectFrom('documents')
    .select(['id', 'file_key'])
    .where('order_id', '=', ctx.ids.order)
    .where('deleted', '=', false)
    .orderBy('id', 'desc')
    .limit(3)
    .execute()
  const nineMb = Buffer.alloc(9 * 1024 * 1024, 0x20)
  for (const row of rows) await ctx.t.deps.storage.put(row.file_key, nineMb)
  return rows.map((r) => r.id)
}

Sending(
  'letters beyond 25 MB together: a French 413, no e-mail; the same letters to the accounting inbox: what fits goes, the rest waits',
  async (ctx) => {
    const heavy = await heavyLetters(ctx)
    const before = ctx.t.mails.length
    const refused = await call(ctx.t.app, ctx.camille, 'POST', '/api-protected/send-documents', {
      email: 'comptable@example.com',
      documentIds: heavy,
    })
    assert.is(refused.statusCode, 413, refused.body)
    assert.equal(refused.json(), { statusCode: 413, code: 'ATTACHMENTS_TOO_LARGE', message: attachmentsTooLarge })
    assert.is(ctx.t.mails.length, before, 'nothing sent')
    const two = await call(ctx.t.app, ctx.camille, 'POST', '/api-protected/send-documents', {
      email: 'comptable@example.com',
      documentIds: heavy.slice(0, 2),
    })
    assert.is(two.statusCode, 200, 'two fit')
    const dext = await call(ctx.t.app, ctx.camille, 'POST', '/api-protected/send-dext-invoices', {
      email: 'factures@dext.example.com',
      invoiceIds: [],
      documentIds: heavy,
    })
    assert.is(dext.statusCode, 200, dext.body)
    assert.is(dext.json().sent, 2)
    assert.equal(
      dext.json().failed.map((f: { id: number }) => f.id),
      [heavy[2]],
    )
    assert.match(dext.json().failed[0].reason, 'partira au prochain envoi')
    assert.is(ctx.t.mails.at(-1)!.attachments!.length, 2)
  },
)

Sending(
  `${SEND_DOCUMENTS_LIMIT.max} e-mails of letters an hour per person, then a French 429 and nothing sent; another person is not held`,
  async (ctx) => {
    const body = { email: 'comptable@example.com', documentIds: [ctx.ids.document] }
    // The test above made two calls already (every call counts, the refused one too).
    for (let i = 2; i < SEND_DOCUMENTS_LIMIT.max; i++)
      assert.is((await call(ctx.t.app, ctx.camille, 'POST', '/api-protected/send-documents', body)).statusCode, 200, `e-mail ${i + 1}`)
    const before = ctx.t.mails.length
    const limited = await call(ctx.t.app, ctx.camille, 'POST', '/api-protected/send-documents', body)
    assert.is(limited.statusCode, 429)
    assert.equal(limited.json(), { statusCode: 429, code: 'RATE_LIMITED', message: SEND_DOCUMENTS_LIMIT.message })
    assert.is(ctx.t.mails.length, before)
    const julien = await call(ctx.t.app, ctx.julien, 'POST', '/api-protected/send-documents', body)
    assert.is(julien.statusCode, 200, 'the collaborator has his own count')
    ctx.t.clock.advance(SEND_DOCUMENTS_LIMIT.windowMs)
    assert.is((await call(ctx.t.app, ctx.camille, 'POST', '/api-protected/send-documents', body)).statusCode, 200, 'an hour later')
  },
)

Sending('a message of spaces or invisible characters says nothing: the e-mail carries none; a message is sent trimmed', async (ctx) => {
  const send = (message: string) =>
    call(ctx.t.app, ctx.julien, 'POST', '/api-protected/send-documents', {
      email: 'comptable@example.com',
      message,
      documentIds: [ctx.ids.document],
    })
  assert.is((await send('   \n\u200b  ')).statusCode, 200)
  assert.match(ctx.t.mails.at(-1)!.text, /^Courriers joints :/, 'no blank lines before the list')
  assert.is((await send('  Bonjour, voici le courrier.  \n')).statusCode, 200)
  assert.match(ctx.t.mails.at(-1)!.text, /^Bonjour, voici le courrier\.\n\nCourriers joints :/)
})

Sending(`${DEXT_LIMIT.max} sendings to the accounting inbox an hour per person, then a French 429`, async (ctx) => {
  const body = { email: 'factures@dext.example.com', invoiceIds: [ctx.ids.invoice], documentIds: [] }
  // The first test's sending was more than an hour ago (the clock moved on above).
  for (let i = 0; i < DEXT_LIMIT.max; i++)
    assert.is((await call(ctx.t.app, ctx.camille, 'POST', '/api-protected/send-dext-invoices', body)).statusCode, 200, `sending ${i + 1}`)
  const limited = await call(ctx.t.app, ctx.camille, 'POST', '/api-protected/send-dext-invoices', body)
  assert.equal([limited.statusCode, limited.json().message], [429, DEXT_LIMIT.message])
})

Sending.run()
