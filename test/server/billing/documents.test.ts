// The provider's own documents hold up: each kind (certificate, contract, invoice, credit note), as the API serves it,
// passes qpdf's check, is tagged for a screen reader with its fonts embedded and the PDF/A metadata, and states what
// the law asks of it (docs/LEGAL.md): the provider's SIREN, approval date and signatory on the certificate, the
// meeting room of R123-168 in the contract, the mentions of L441-9 on an invoice.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { frenchVatNumber, STATUTORY_LATE_PAYMENT_RATE } from '../../../server/config.ts'
import { letterPdf } from '../../../server/services/pdf.ts'
import { archiveProblems, qpdfCheck } from '../../util/pdf-archive.ts'
import { pdfText } from '../../util/pdf-text.ts'
import { buildTestApp, call, callBearer, login, ordersByName, type TestApp } from '../../util/server.ts'

interface Ctx {
  t: TestApp
  camille: string
  pdfs: Record<'certificate' | 'contract' | 'invoice' | 'creditNote', Buffer>
}

const BOULANGERIE = 'Boulangerie des Lilas SAS'
const APPROVAL = '2024-75-0042'

const Documents = suite<Ctx>('the provider’s documents: tagged, fonts embedded, valid, with their legal mentions')
Documents.before(async (ctx) => {
  ctx.t = await buildTestApp({ config: { prefectureApproval: APPROVAL } })
  ctx.camille = await login(ctx.t.app)
  const { t, camille } = ctx
  const order = (await ordersByName(t.app, camille))[BOULANGERIE]!
  const certificate = (await call(t.app, camille, 'POST', `/api-protected/domiciliation-orders/${order.id}/certificates`)).json()
  const db = t.deps.db
  const invoice = await db
    .selectFrom('invoices')
    .select('id')
    .where('order_id', '=', order.id)
    .where('paid_at', 'is', null)
    .executeTakeFirstOrThrow()
  const creditNote = await db.selectFrom('credit_notes').select('id').executeTakeFirstOrThrow()
  const fetch = async (answer: Promise<{ statusCode: number; body: string; rawPayload: Buffer }>) => {
    const res = await answer
    assert.is(res.statusCode, 200, res.body)
    return res.rawPayload
  }
  ctx.pdfs = {
    certificate: await fetch(call(t.app, camille, 'GET', certificate.file)),
    contract: await fetch(callBearer(t.app, camille, 'GET', `/api-protected/contracts/${order.contractId}/file`)),
    invoice: await fetch(call(t.app, camille, 'GET', `/api-protected/invoices/${invoice.id}/file`)),
    creditNote: await fetch(call(t.app, camille, 'GET', `/api-protected/creditnotes/${creditNote.id}/file`)),
  }
})
Documents.after((ctx) => ctx.t?.close())

for (const kind of ['certificate', 'contract', 'invoice', 'creditNote'] as const) {
  Documents(`${kind}: qpdf --check finds no error, and the tagging, fonts and PDF/A metadata are all there`, async ({ pdfs }) => {
    const check = qpdfCheck(pdfs[kind])
    assert.ok(check.ok, check.output)
    assert.equal(await archiveProblems(pdfs[kind]), [])
  })
}

Documents('the checks fail a PDF that is not tagged and whose fonts are not embedded (a demo letter)', async () => {
  const letter = await letterPdf({
    sender: 'Impôts',
    senderAddress: ['1 rue du Fisc', '75001 Paris'],
    recipient: ['Boulangerie'],
    place: 'Paris',
    date: new Date('2026-01-05T10:00:00Z'),
    subject: 'Avis',
    paragraphs: ['Texte.'],
  })
  assert.ok(qpdfCheck(letter).ok, 'a well-formed file all the same')
  const problems = (await archiveProblems(letter)).join('\n')
  for (const expected of [
    'no /MarkInfo',
    'no /StructTreeRoot',
    'no /Lang',
    'no XMP',
    'no output intent',
    'is not embedded',
    'marked content',
  ]) {
    assert.match(problems, expected)
  }
  const truncated = letter.subarray(0, letter.length - 300)
  assert.not.ok(qpdfCheck(truncated).ok, 'qpdf says so of a file cut short (its cross-reference table lost)')
})

Documents('the certificate names the provider: SIREN, approval number and date, and its signatory', async ({ t, pdfs }) => {
  const text = pdfText(pdfs.certificate).replace(/\s+/g, ' ')
  const { legal, documents } = t.deps.config
  for (const expected of [
    legal.name,
    'SIREN 123 456 782',
    `arrêté préfectoral n° ${APPROVAL} du 2 janvier 2020`,
    documents.signatory.name,
    documents.signatory.title,
    `Pour ${legal.name},`,
  ]) {
    assert.match(text, expected)
  }
})

Documents('the contract states the room for the company’s meetings the provider owes (R123-168)', async ({ pdfs }) => {
  const text = pdfText(pdfs.contract).replace(/\s+/g, ' ')
  assert.match(text, 'article R. 123-168, 1°, du Code de commerce')
  assert.match(text, 'une pièce propre à assurer la confidentialité nécessaire et à permettre la réunion régulière des organes')
  assert.match(text, `domiciliataire agréé par arrêté préfectoral n° ${APPROVAL} du 2 janvier 2020`)
})

Documents(
  'an invoice says what L441-9 requires: both VAT numbers, the SIREN, the due date, the penalty rate and the 40 €',
  async ({ pdfs }) => {
    const text = pdfText(pdfs.invoice).replace(/\s+/g, ' ')
    for (const expected of [
      'SIREN 123 456 782',
      `TVA intracommunautaire ${frenchVatNumber('123456782')}`,
      `TVA intracommunautaire ${frenchVatNumber('823456785')}`,
      'SIREN 823 456 785',
      'Date d’échéance :',
      'Pas d’escompte pour paiement anticipé',
      `au taux ${STATUTORY_LATE_PAYMENT_RATE}`,
      'indemnité forfaitaire pour frais de recouvrement de 40 €',
      'À régler',
    ]) {
      assert.match(text, expected)
    }
  },
)

Documents('a credit note names both parties and their numbers, and has no due date', async ({ pdfs }) => {
  const text = pdfText(pdfs.creditNote).replace(/\s+/g, ' ')
  assert.match(text, /^Domicilium .*Avoir n° AV-/)
  assert.match(text, `TVA intracommunautaire ${frenchVatNumber('123456782')}`)
  assert.match(text, `TVA intracommunautaire ${frenchVatNumber('823456785')}`)
  assert.not.match(text, 'échéance')
})

Documents.run()
