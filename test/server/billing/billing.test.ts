// The billing routes beyond their happy path (routes.test.ts): options on offer, termination dates, payment without a
// card, certificates and their public check, the contract PDF, the forwarding address, the test provider's card form.
// tests: on S3 too (under scripts/with-s3.sh its apps store on the S3 server: scripts/uvu-summary.mjs)
import { MAIL_FOOTER_SEPARATOR } from '../../../server/services/mailer.ts'
import { Writable } from 'node:stream'
import fc from 'fast-check'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import pino from 'pino'
import type Stripe from 'stripe'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { routes } from '../../../server/contract/routes.ts'
import { testProviderRoute } from '../../../server/contract/test-provider.ts'
import { messages } from '../../../server/http/errors.ts'
import { UNKNOWN_CERTIFICATE } from '../../../server/routes/billing/certificates.ts'
import { stripePaymentProvider } from '../../../server/services/payment-stripe.ts'
import { winAnsi } from '../../../server/services/pdf.ts'
import { testProviderCard } from '../../util/billing.ts'
import { pdfText } from '../../util/pdf-text.ts'
import { buildTestApp, call, callBearer, login, ordersByName, TEST_OPERATOR_TOKEN, type TestApp } from '../../util/server.ts'
import { tinyPdf } from '../../util/server-samples.ts'
import { amountChangedMessage, amountTooLargeMessage, terminationTooFarMessage } from '../../../server/routes/billing/index.ts'
import { MAX_PAYMENT_CENTS } from '../../../server/lib/money.ts'
import { FREE_SETTLEMENT } from '../../../server/db/repositories/billing.ts'
import { parisDay } from '../../../server/contract/rules/deadlines.ts'
import { ZERO_INVOICE_UNPAID } from '../../../server/services/ingest.ts'

type Orders = Awaited<ReturnType<typeof ordersByName>>
interface Ctx {
  t: TestApp
  camille: string
  julien: string
  sophie: string
  orders: Orders
}

const BOULANGERIE = 'Boulangerie des Lilas SAS'
const ATELIER = 'Atelier Lumière SARL'
const CONSEIL = 'Conseil Horizon EURL'

async function setup(ctx: Ctx, options: Parameters<typeof buildTestApp>[0] = {}) {
  ctx.t = await buildTestApp(options)
  ctx.camille = await login(ctx.t.app)
  ctx.julien = await login(ctx.t.app, 'associe@example.com')
  ctx.sophie = await login(ctx.t.app, 'solo@example.com')
  ctx.orders = await ordersByName(ctx.t.app, ctx.camille)
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)

const Subscription = suite<Ctx>('options and termination')
Subscription.before((ctx) => setup(ctx))
Subscription.after((ctx) => ctx.t?.close())

Subscription('the options not held, at the subscription interval, with their price including VAT', async ({ t, camille, orders }) => {
  const yearly = (
    await call(t.app, camille, 'GET', `/api-protected/domiciliation-orders/${orders[BOULANGERIE]!.id}/subscription-options`)
  ).json()
  assert.equal(
    yearly.map((o: { planId: string }) => o.planId),
    ['option-reexpedition-annuelle', 'option-standard-annuelle'],
    'not the scan option it holds',
  )
  const monthly = (
    await call(t.app, camille, 'GET', `/api-protected/domiciliation-orders/${orders[ATELIER]!.id}/subscription-options`)
  ).json()
  assert.equal(
    monthly.map((o: { planId: string; amountInclTaxCents: number }) => [o.planId, o.amountInclTaxCents]),
    [
      ['option-reexpedition-mensuelle', 1800],
      ['option-scan-mensuelle', 1080],
      ['option-standard-mensuelle', 3480],
    ],
  )
})

Subscription('a collaborator and a stranger get no options: 403 and 404', async ({ t, julien, sophie, orders }) => {
  const url = `/api-protected/domiciliation-orders/${orders[BOULANGERIE]!.id}/subscription-options`
  const collaborator = await call(t.app, julien, 'GET', url)
  assert.is(collaborator.statusCode, 403)
  assert.is(collaborator.json().message, messages.ownerOnly)
  assert.is((await call(t.app, sophie, 'GET', url)).statusCode, 404)
})

Subscription(
  'termination: a date in the past or before the end of the period is refused in French, nothing recorded',
  async ({ t, camille, orders }) => {
    const orderId = orders[ATELIER]!.id
    const status = (await call(t.app, camille, 'GET', `/api-protected/domiciliation-orders/${orderId}/termination-request`)).json()
    assert.is(status.request, null)
    assert.ok(status.earliestDate > day(t.clock.now().getTime()), 'the monthly period ends in 18 days')
    const past = await call(t.app, camille, 'POST', '/api-protected/termination-requests', {
      orderId,
      reason: 'Cessation d’activité',
      date: '2020-01-01',
    })
    assert.is(past.statusCode, 400)
    assert.is(past.json().message, 'La date de résiliation ne peut pas être dans le passé.')
    const tomorrow = await call(t.app, camille, 'POST', '/api-protected/termination-requests', {
      orderId,
      reason: 'Cessation d’activité',
      date: day(t.clock.now().getTime() + 86_400_000),
    })
    assert.is(tomorrow.statusCode, 400)
    assert.match(
      tomorrow.json().message,
      /^La résiliation ne peut prendre effet avant la fin de la période en cours : choisissez le \d+ \S+ \d{4} ou une date ultérieure\.$/,
    )
    assert.equal(await t.deps.db.selectFrom('termination_requests').select('id').execute(), [])
    const ok = await call(t.app, camille, 'POST', '/api-protected/termination-requests', {
      orderId,
      reason: 'Cessation d’activité',
      date: status.earliestDate,
      comment: 'Merci',
    })
    assert.is(ok.statusCode, 200, ok.body)
    const after = (await call(t.app, camille, 'GET', `/api-protected/domiciliation-orders/${orderId}/termination-request`)).json()
    assert.equal([after.request.date, after.request.reason], [status.earliestDate, 'Cessation d’activité'])
  },
)

Subscription(
  'termination: more than two years ahead (9999-12-31) is refused in French, nothing recorded nor e-mailed; two years is accepted',
  async ({ t, camille, orders }) => {
    const orderId = orders[CONSEIL]!.id
    // From today in Paris, as the server counts it (between midnight in Paris and midnight UTC the days differ).
    const latest = new Date(Date.parse(`${parisDay(t.clock.now())}T12:00:00Z`))
    latest.setUTCFullYear(latest.getUTCFullYear() + 2)
    const inTwoYears = day(latest.getTime())
    const mails = t.mails.length
    for (const date of ['9999-12-31', day(latest.getTime() + 86_400_000)]) {
      const res = await call(t.app, camille, 'POST', '/api-protected/termination-requests', {
        orderId,
        reason: 'Cessation d’activité',
        date,
      })
      assert.is(res.statusCode, 400, `${date}: ${res.body}`)
      assert.equal(res.json(), { statusCode: 400, code: 'TOO_FAR', message: terminationTooFarMessage(inTwoYears) })
      assert.match(
        res.json().message,
        /^La résiliation ne peut être demandée plus de deux ans à l’avance : choisissez le \d+ \S+ \d{4} ou une date antérieure\.$/,
      )
    }
    assert.equal(await t.deps.db.selectFrom('termination_requests').select('id').where('order_id', '=', orderId).execute(), [])
    assert.is(t.mails.length, mails, 'nothing e-mailed')
    const ok = await call(t.app, camille, 'POST', '/api-protected/termination-requests', {
      orderId,
      reason: 'Cessation d’activité',
      date: inTwoYears,
    })
    assert.is(ok.statusCode, 200, ok.body)
  },
)

Subscription('termination by a collaborator: 403, nothing recorded', async ({ t, julien, orders }) => {
  const res = await call(t.app, julien, 'POST', '/api-protected/termination-requests', {
    orderId: orders[BOULANGERIE]!.id,
    reason: 'x',
    date: '2099-01-01',
  })
  assert.is(res.statusCode, 403)
  assert.equal(
    await t.deps.db.selectFrom('termination_requests').select('id').where('order_id', '=', orders[BOULANGERIE]!.id).execute(),
    [],
  )
})

Subscription('termination: a blank comment is none, not e-mailed as spaces', async ({ t, camille, orders }) => {
  const orderId = orders[BOULANGERIE]!.id
  const { earliestDate } = (await call(t.app, camille, 'GET', `/api-protected/domiciliation-orders/${orderId}/termination-request`)).json()
  const res = await call(t.app, camille, 'POST', '/api-protected/termination-requests', {
    orderId,
    reason: 'Déménagement',
    date: earliestDate,
    comment: ' \u200b\n\t ',
  })
  assert.is(res.statusCode, 200, res.body)
  const row = await t.deps.db.selectFrom('termination_requests').select('comment').where('order_id', '=', orderId).executeTakeFirstOrThrow()
  assert.is(row.comment, null)
  // The message ends with the reason, then the legal footer of every e-mail (server/services/mailer.ts).
  const text = t.mails.at(-1)!.text
  assert.ok(text.includes(`\nMotif : Déménagement\n\n${MAIL_FOOTER_SEPARATOR}\n`), JSON.stringify(text.slice(0, 400)))
})

Subscription.run()

const Pay = suite<Ctx>('paying without a card')
Pay.before((ctx) => setup(ctx))
Pay.after((ctx) => ctx.t?.close())

Pay('no card on the subscription nor by default: 402 NO_CARD in French, nothing claimed', async ({ t, camille, orders }) => {
  const user = await t.deps.db
    .selectFrom('users')
    .select('payment_customer_id')
    .where('email', '=', 'demo@example.com')
    .executeTakeFirstOrThrow()
  await t.deps.db.updateTable('test_customers').set({ default_payment_method: null }).where('id', '=', user.payment_customer_id!).execute()
  await t.deps.db.updateTable('test_subscriptions').set({ default_payment_method: null }).execute()
  const res = await call(t.app, camille, 'POST', '/api-protected/pay-unpaid-invoice', { orderId: orders[BOULANGERIE]!.id })
  assert.is(res.statusCode, 402)
  assert.equal(res.json(), {
    message: 'Aucune carte enregistrée : ajoutez un moyen de paiement puis réessayez.',
    statusCode: 402,
    code: 'NO_CARD',
  })
  assert.equal(await t.deps.db.selectFrom('payment_attempts').select('id').execute(), [])
  assert.equal(await t.deps.db.selectFrom('invoices').select('id').where('payment_attempt_id', 'is not', null).execute(), [])
})

Pay('a collaborator cannot pay the shared order: 403', async ({ t, julien, orders }) => {
  const res = await call(t.app, julien, 'POST', '/api-protected/pay-unpaid-invoice', { orderId: orders[BOULANGERIE]!.id })
  assert.is(res.statusCode, 403)
})

Pay('an unknown year is refused in French; a year without invoices is an empty list', async ({ t, camille }) => {
  for (const year of ['1999', 'deux-mille', '2026.5']) {
    for (const path of [
      '/api-protected/invoices',
      '/api-protected/invoices/share',
      '/api-protected/creditnotes-by-year',
      '/api-protected/creditnotes-by-year/share',
    ]) {
      const res = await call(t.app, camille, 'GET', `${path}?year=${year}`)
      assert.is(res.statusCode, 400, `${path}?year=${year}`)
      assert.match(res.json().message, /« year »/)
    }
  }
  assert.equal((await call(t.app, camille, 'GET', '/api-protected/invoices?year=2001')).json(), [])
})

Pay.run()

const Confirmed = suite<Ctx>('paying what was confirmed, and no more')
Confirmed.before((ctx) => setup(ctx))
Confirmed.after((ctx) => ctx.t?.close())

Confirmed(
  'an invoice issued between the confirmation and the click: 409 AMOUNT_CHANGED, nothing charged; the new total then pays',
  async ({ t, camille, orders }) => {
    const status = (await call(t.app, camille, 'GET', '/api-protected/user-unpaid-status')).json() as {
      count: number
      amountInclTaxCents: number
    }
    assert.ok(status.count > 0)
    const issued = await t.app.inject({
      method: 'POST',
      url: `/api/operator/domiciliation-orders/${orders[BOULANGERIE]!.id}/invoices`,
      headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
      payload: {
        reference: 'FA-CONFIRMEE-1',
        amountExclTaxCents: 100_000,
        amountInclTaxCents: 120_000,
        file: `data:application/pdf;base64,${(await tinyPdf()).toString('base64')}`,
      },
    })
    assert.is(issued.statusCode, 200, issued.body)
    const stale = await call(t.app, camille, 'POST', '/api-protected/pay-unpaid-invoice', {
      expectedAmountInclTaxCents: status.amountInclTaxCents,
    })
    assert.is(stale.statusCode, 409, stale.body)
    const total = status.amountInclTaxCents + 120_000
    assert.equal(stale.json(), { statusCode: 409, code: 'AMOUNT_CHANGED', message: amountChangedMessage(status.count + 1, total) })
    assert.match(
      stale.json().message,
      `${status.count + 1} factures impayées, ${new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(total / 100)} TTC. Rien n’a été prélevé`,
    )
    assert.equal(await t.deps.db.selectFrom('payment_attempts').select('id').execute(), [], 'nothing claimed')
    assert.equal(await t.deps.db.selectFrom('test_charges').select('id').execute(), [], 'nothing charged')
    const paid = await call(t.app, camille, 'POST', '/api-protected/pay-unpaid-invoice', { expectedAmountInclTaxCents: total })
    assert.is(paid.statusCode, 200, paid.body)
    assert.is(paid.json().paidCount, status.count + 1)
    const charges = await t.deps.db.selectFrom('test_charges').select('amount').execute()
    assert.equal(
      charges.map((c) => c.amount),
      [total],
    )
  },
)

Confirmed('one order’s total, confirmed: paid; a total already paid elsewhere: nothing to pay', async ({ t, camille, orders }) => {
  const orderId = orders[BOULANGERIE]!.id
  const again = await call(t.app, camille, 'POST', '/api-protected/pay-unpaid-invoice', { orderId, expectedAmountInclTaxCents: 34_800 })
  assert.equal([again.statusCode, again.json().paidCount], [200, 0], 'nothing left: the server says so, whatever was confirmed')
})

Confirmed(
  'an unpaid invoice of 0 € is refused by the operator API in French (400), nothing stored; a paid one is issued',
  async ({ t, camille, orders }) => {
    const db = t.deps.db
    await db.updateTable('invoices').set({ paid_at: new Date() }).where('paid_at', 'is', null).execute()
    const issue = async (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/operator/domiciliation-orders/${orders[BOULANGERIE]!.id}/invoices`,
        headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
        payload: {
          amountExclTaxCents: 0,
          amountInclTaxCents: 0,
          file: `data:application/pdf;base64,${(await tinyPdf()).toString('base64')}`,
          ...payload,
        },
      })
    const invoices = async () => (await db.selectFrom('invoices').select('id').execute()).length
    const before = await invoices()
    for (const paid of [undefined, false]) {
      const refused = await issue({ reference: 'FA-ZERO-1', ...(paid === undefined ? {} : { paid }) })
      assert.is(refused.statusCode, 400, refused.body)
      assert.is(refused.json().message, ZERO_INVOICE_UNPAID)
    }
    assert.is(await invoices(), before, 'nothing stored')
    const paid = await issue({ reference: 'FA-ZERO-2', paid: true })
    assert.is(paid.statusCode, 200, paid.body)
    assert.is(paid.json().paid, true)
    assert.equal((await call(t.app, camille, 'GET', '/api-protected/user-unpaid-status')).json(), {
      hasUnpaid: false,
      count: 0,
      amountInclTaxCents: 0,
    })
  },
)

Confirmed(
  'a total over what one card payment carries: 422 AMOUNT_TOO_LARGE in French, nothing claimed nor charged; up to it, charged',
  async ({ t, camille, orders }) => {
    const db = t.deps.db
    const orderId = orders[BOULANGERIE]!.id
    await db.updateTable('invoices').set({ paid_at: new Date() }).where('paid_at', 'is', null).execute()
    const issue = (prefix: string, count: number, cents: number) =>
      db
        .insertInto('invoices')
        .values(
          Array.from({ length: count }, (_, i) => ({
            order_id: orderId,
            number: `${prefix}-${i}`,
            date: new Date(),
            amount_excl_tax_cents: cents,
            amount_incl_tax_cents: cents,
            paid_at: null,
            payment_reference: null,
            file_key: 'x',
            payment_attempt_id: null,
          })),
        )
        .execute()
    const charges = async () => (await db.selectFrom('test_charges').select('amount').execute()).map((c) => c.amount).sort((a, b) => a - b)
    const attempts = async () => (await db.selectFrom('payment_attempts').select('id').execute()).length
    const [chargesBefore, attemptsBefore] = [await charges(), await attempts()]
    // 22 invoices at the operator API's largest amount: more than an integer column holds (a 500 before).
    await issue('FA-ENORME', 22, 100_000_000)
    const status = (await call(t.app, camille, 'GET', '/api-protected/user-unpaid-status')).json()
    assert.equal(status, { hasUnpaid: true, count: 22, amountInclTaxCents: 2_200_000_000 })
    for (const body of [{ expectedAmountInclTaxCents: status.amountInclTaxCents }, {}, { orderId }]) {
      const res = await call(t.app, camille, 'POST', '/api-protected/pay-unpaid-invoice', body)
      assert.is(res.statusCode, 422, `${JSON.stringify(body)}: ${res.body}`)
      assert.equal(res.json(), {
        statusCode: 422,
        code: 'AMOUNT_TOO_LARGE',
        message: amountTooLargeMessage(2_200_000_000, t.deps.config.supportEmail),
      })
    }
    assert.match(
      amountTooLargeMessage(2_200_000_000, 'support@example.com'),
      /^Le montant à régler, 22.000.000,00.€ TTC, dépasse ce qu’un paiement par carte peut prélever en une fois \(999.999,99.€\)\. Rien n’a été prélevé : écrivez à support@example\.com/,
    )
    await db.updateTable('invoices').set({ paid_at: new Date() }).where('number', 'like', 'FA-ENORME-%').execute()
    // One invoice just over; then one of exactly what a payment carries.
    await issue('FA-UN-MILLION', 1, MAX_PAYMENT_CENTS + 1)
    assert.is(
      (
        await call(t.app, camille, 'POST', '/api-protected/pay-unpaid-invoice', {
          orderId,
          expectedAmountInclTaxCents: MAX_PAYMENT_CENTS + 1,
        })
      ).statusCode,
      422,
    )
    assert.equal([await charges(), await attempts()], [chargesBefore, attemptsBefore], 'nothing claimed nor charged')
    await db.updateTable('invoices').set({ paid_at: new Date() }).where('number', '=', 'FA-UN-MILLION-0').execute()
    await issue('FA-PRESQUE', 1, MAX_PAYMENT_CENTS)
    const paid = await call(t.app, camille, 'POST', '/api-protected/pay-unpaid-invoice', {
      orderId,
      expectedAmountInclTaxCents: MAX_PAYMENT_CENTS,
    })
    assert.is(paid.statusCode, 200, paid.body)
    assert.equal(
      await charges(),
      [...chargesBefore, MAX_PAYMENT_CENTS].sort((a, b) => a - b),
    )
  },
)

Confirmed(
  '0 € invoices left unpaid (issued before the operator API refused them) are settled by a pay request, with a card or none: nothing charged',
  async ({ t, camille, orders }) => {
    const db = t.deps.db
    const orderId = orders[BOULANGERIE]!.id
    await db.updateTable('invoices').set({ paid_at: new Date() }).where('paid_at', 'is', null).execute()
    const issueFree = (numbers: string[]) =>
      db
        .insertInto('invoices')
        .values(
          numbers.map((number) => ({
            order_id: orderId,
            number,
            date: new Date(),
            amount_excl_tax_cents: 0,
            amount_incl_tax_cents: 0,
            paid_at: null,
            payment_reference: null,
            file_key: 'x',
            payment_attempt_id: null,
          })),
        )
        .execute()
    const charges = (await db.selectFrom('test_charges').select('id').execute()).length
    const attempts = (await db.selectFrom('payment_attempts').select('id').execute()).length
    await issueFree(['FA-GRATUITE-1', 'FA-GRATUITE-2'])
    assert.equal((await call(t.app, camille, 'GET', '/api-protected/user-unpaid-status')).json(), {
      hasUnpaid: true,
      count: 2,
      amountInclTaxCents: 0,
    })
    const res = await call(t.app, camille, 'POST', '/api-protected/pay-unpaid-invoice', { expectedAmountInclTaxCents: 0 })
    assert.is(res.statusCode, 200, res.body)
    assert.equal(res.json(), { paidCount: 2, message: '2 factures ont été réglées.' })
    // Without a card on file: none is needed.
    const user = await db
      .selectFrom('users')
      .select('payment_customer_id')
      .where('email', '=', 'demo@example.com')
      .executeTakeFirstOrThrow()
    await db.updateTable('test_customers').set({ default_payment_method: null }).where('id', '=', user.payment_customer_id!).execute()
    await db.updateTable('test_subscriptions').set({ default_payment_method: null }).execute()
    await issueFree(['FA-GRATUITE-3'])
    const cardless = await call(t.app, camille, 'POST', '/api-protected/pay-unpaid-invoice', { orderId })
    assert.is(cardless.statusCode, 200, cardless.body)
    assert.equal(cardless.json(), { paidCount: 1, message: 'Votre facture a été réglée.' })
    const settled = await db
      .selectFrom('invoices')
      .select(['paid_at', 'payment_reference'])
      .where('number', 'like', 'FA-GRATUITE-%')
      .execute()
    assert.equal(
      settled.map((i) => [i.paid_at !== null, i.payment_reference]),
      Array(3).fill([true, FREE_SETTLEMENT]),
    )
    assert.is((await db.selectFrom('payment_attempts').select('id').execute()).length, attempts, 'no attempt')
    assert.is((await db.selectFrom('test_charges').select('id').execute()).length, charges, 'no charge')
    assert.equal((await call(t.app, camille, 'GET', '/api-protected/user-unpaid-status')).json(), {
      hasUnpaid: false,
      count: 0,
      amountInclTaxCents: 0,
    })
  },
)

Confirmed.run()

const Certificates = suite<Ctx>('certificates and their public verification')
Certificates.before((ctx) => setup(ctx, { config: { authRateLimit: 5 } }))
Certificates.after((ctx) => ctx.t?.close())

const issue = ({ t, camille }: Ctx, orderId: number) =>
  call(t.app, camille, 'POST', `/api-protected/domiciliation-orders/${orderId}/certificates`)
const verify = ({ t }: Ctx, code: string, ip = '10.0.0.1') =>
  t.app.inject({ method: 'GET', url: `/api/certificates/${code}`, remoteAddress: ip })

Certificates('issued for a signed contract: a PDF with the company, its SIREN, the approval number and the code', async (ctx) => {
  const certificate = (await issue(ctx, ctx.orders[BOULANGERIE]!.id)).json()
  const pdf = await call(ctx.t.app, ctx.camille, 'GET', certificate.file)
  assert.is(pdf.statusCode, 200)
  assert.is(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-')
  const text = pdfText(pdf.rawPayload)
  for (const expected of [
    'Boulangerie des Lilas SAS',
    'SIREN',
    '823 456 785',
    'SAS',
    ctx.t.deps.config.prefectureApproval!,
    certificate.code,
    certificate.verificationUrl,
  ]) {
    assert.ok(text.includes(expected), `the certificate says ${expected}`)
  }
  assert.is(pdf.headers['cache-control'], 'private, no-store')
})

Certificates('not before the contract is signed: 409 in French', async (ctx) => {
  const res = await issue(ctx, ctx.orders[ATELIER]!.id)
  assert.is(res.statusCode, 409)
  assert.is(res.json().message, 'Votre attestation sera disponible dès la signature de votre contrat de domiciliation.')
})

Certificates('only its owner downloads it: a collaborator 403, a stranger 404', async (ctx) => {
  const { file } = (await issue(ctx, ctx.orders[BOULANGERIE]!.id)).json()
  assert.is((await call(ctx.t.app, ctx.julien, 'GET', file)).statusCode, 403)
  const stranger = await call(ctx.t.app, ctx.sophie, 'GET', file)
  assert.is(stranger.statusCode, 404)
  assert.is(stranger.json().message, 'Attestation introuvable.')
})

Certificates('the public check says valid with the company and issue date, and nothing more; an unknown code says so', async (ctx) => {
  const certificate = (await issue(ctx, ctx.orders[BOULANGERIE]!.id)).json()
  const res = await verify(ctx, certificate.code, '10.0.0.2')
  assert.is(res.statusCode, 200)
  assert.equal(res.json(), { status: 'valid', raisonSociale: BOULANGERIE, issuedAt: certificate.issuedAt })
  // The issue date's own digits left out: its milliseconds may read 823, the start of the SIREN.
  assert.not.match(res.body.replace(certificate.issuedAt, ''), /823|SIREN|Martin|demo@|rue|\borderId\b/, 'no SIREN, owner, address or id')
  // Typed from paper in small letters, as a person may: the same certificate.
  const typed = await verify(ctx, certificate.code.toLowerCase(), '10.0.0.2')
  assert.is(typed.statusCode, 200, typed.body)
  assert.equal(typed.json(), res.json())
  const unknown = await verify(ctx, 'ABCD-EFGH-JKMN', '10.0.0.2')
  assert.is(unknown.statusCode, 404)
  assert.equal(unknown.json(), { message: UNKNOWN_CERTIFICATE, statusCode: 404, code: 'NOT_FOUND' })
  const malformed = await verify(ctx, 'pas-un-code', '10.0.0.2')
  assert.is(malformed.statusCode, 400)
})

Certificates('rate-limited per client: past AUTH_RATE_LIMIT a minute, 429 in French', async (ctx) => {
  const answers = []
  for (let i = 0; i < 6; i++) answers.push((await verify(ctx, 'ABCD-EFGH-JKMN', '10.0.0.3')).statusCode)
  assert.equal(answers, [404, 404, 404, 404, 404, 429])
  assert.is((await verify(ctx, 'ABCD-EFGH-JKMN', '10.0.0.3')).json().message, messages.rateLimited)
  assert.is((await verify(ctx, 'ABCD-EFGH-JKMN', '10.0.0.4')).statusCode, 404, 'another client is not held back')
})

Certificates('once the termination date has passed: "no longer valid", nothing else; no new certificate', async (ctx) => {
  const orderId = ctx.orders[BOULANGERIE]!.id
  const certificate = (await issue(ctx, orderId)).json()
  const { earliestDate } = (
    await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/domiciliation-orders/${orderId}/termination-request`)
  ).json()
  assert.is(
    (
      await call(ctx.t.app, ctx.camille, 'POST', '/api-protected/termination-requests', {
        orderId,
        reason: 'Transfert du siège',
        date: earliestDate,
      })
    ).statusCode,
    200,
  )
  assert.is((await verify(ctx, certificate.code, '10.0.0.5')).json().status, 'valid', 'valid until the termination date has passed')
  ctx.t.clock.set(new Date(Date.parse(`${earliestDate}T12:00:00Z`) + 86_400_000))
  const after = await verify(ctx, certificate.code, '10.0.0.5')
  assert.equal(after.json(), { status: 'revoked' })
  const refused = await issue({ ...ctx, camille: await login(ctx.t.app) }, orderId)
  assert.is(refused.statusCode, 409)
  assert.match(refused.json().message, 'résiliée')
  ctx.t.clock.set(new Date())
})

Certificates.run()

const Unconfigured = suite<Ctx>('without PREFECTURE_APPROVAL')
Unconfigured.before((ctx) => setup(ctx, { config: { prefectureApproval: undefined } }))
Unconfigured.after((ctx) => ctx.t?.close())

Unconfigured('no certificate is issued: 503 in French, nothing recorded', async (ctx) => {
  const before = (await ctx.t.deps.db.selectFrom('certificates').select('id').execute()).length
  const res = await issue(ctx, ctx.orders[BOULANGERIE]!.id)
  assert.is(res.statusCode, 503)
  assert.match(res.json().message, 'agrément préfectoral')
  assert.is((await ctx.t.deps.db.selectFrom('certificates').select('id').execute()).length, before)
})

Unconfigured.run()

const Contract = suite<Ctx>('the contract PDF and the forwarding address')
Contract.before((ctx) => setup(ctx))
Contract.after((ctx) => ctx.t?.close())

Contract('an unsigned contract is a draft; a collaborator gets 403', async ({ t, camille, julien, orders }) => {
  const draft = await callBearer(t.app, camille, 'GET', `/api-protected/contracts/${orders[ATELIER]!.contractId}/file`)
  assert.match(pdfText(draft.rawPayload), 'Projet : en attente de signature')
  assert.match(pdfText(draft.rawPayload), 'Domiciliation commerciale (mensuel)')
  assert.is((await callBearer(t.app, julien, 'GET', `/api-protected/contracts/${orders[BOULANGERIE]!.contractId}/file`)).statusCode, 403)
})

Contract('a French postcode is five digits: anything else is refused in French and nothing changes', async ({ t, camille, orders }) => {
  const url = `/api-protected/contracts/${orders[BOULANGERIE]!.contractId}`
  const before = await t.deps.db
    .selectFrom('contracts')
    .selectAll()
    .where('id', '=', orders[BOULANGERIE]!.contractId!)
    .executeTakeFirstOrThrow()
  for (const body of [
    {
      adressePostaleExpedition: '3 place du Marché',
      codePostaleExpedition: '6900',
      villePostaleExpedition: 'Lyon',
      paysPostaleExpedition: 'France',
    },
    {
      adressePostaleExpedition: '3 place du Marché',
      codePostaleExpedition: '69OO2',
      villePostaleExpedition: 'Lyon',
      paysPostaleExpedition: 'france',
    },
    { codePostaleExpedition: '750190' },
  ]) {
    const res = await callBearer(t.app, camille, 'PUT', url, body)
    assert.is(res.statusCode, 400, JSON.stringify(body))
    assert.is(res.json().message, 'Le code postal doit comporter 5 chiffres pour une adresse en France (par exemple 75019).')
  }
  assert.equal(await t.deps.db.selectFrom('contracts').selectAll().where('id', '=', before.id).executeTakeFirstOrThrow(), before)
  const abroad = await callBearer(t.app, camille, 'PUT', url, {
    adressePostaleExpedition: 'Rue de la Loi 16',
    codePostaleExpedition: '1000',
    villePostaleExpedition: 'Bruxelles',
    paysPostaleExpedition: 'Belgique',
  })
  assert.is(abroad.statusCode, 200, 'another country keeps its own format')
  assert.is(abroad.json().codePostaleExpedition, '1000')
})

Contract(
  'fields blank once trimmed are refused in French and nothing changes; a blank complement is none',
  async ({ t, camille, orders }) => {
    const url = `/api-protected/contracts/${orders[BOULANGERIE]!.contractId}`
    const before = await t.deps.db
      .selectFrom('contracts')
      .selectAll()
      .where('id', '=', orders[BOULANGERIE]!.contractId!)
      .executeTakeFirstOrThrow()
    const address = {
      adressePostaleExpedition: '3 place du Marché',
      codePostaleExpedition: '69002',
      villePostaleExpedition: 'Lyon',
      paysPostaleExpedition: 'France',
    }
    for (const field of Object.keys(address) as (keyof typeof address)[]) {
      for (const blank of ['   ', ' \u3000\u00a0 ']) {
        const res = await callBearer(t.app, camille, 'PUT', url, { ...address, [field]: blank })
        assert.is(res.statusCode, 400, `${field}: ${res.body}`)
        assert.is(res.json().message, `Le champ « ${field} » ne peut pas être vide.`)
      }
      // A tab or a line break is refused for what it is, blank or not: an address line is one line (rules/text.ts).
      const broken = await callBearer(t.app, camille, 'PUT', url, { ...address, [field]: ' \t\n ' })
      assert.is(broken.statusCode, 400, `${field}: ${broken.body}`)
      assert.match(broken.json().message, `Le champ « ${field} » ne peut contenir ni retour à la ligne`)
    }
    assert.equal(await t.deps.db.selectFrom('contracts').selectAll().where('id', '=', before.id).executeTakeFirstOrThrow(), before)
    const cleared = await callBearer(t.app, camille, 'PUT', url, { ...address, adresseComplementPostaleExpedition: ' \u200b ' })
    assert.is(cleared.statusCode, 200, cleared.body)
    assert.is(cleared.json().adresseComplementPostaleExpedition, null, 'a complement of invisible characters says nothing')
  },
)

Contract(
  'an address or a company name beyond French (Łódź, 株式会社, an emoji): the contract and the certificate download, Polish whole',
  async ({ t, camille, orders }) => {
    const atelier = orders[ATELIER]!.contractId!
    const moved = await callBearer(t.app, camille, 'PUT', `/api-protected/contracts/${atelier}`, {
      adressePostaleExpedition: 'ul. Piotrkowska 12',
      codePostaleExpedition: '90-001',
      villePostaleExpedition: 'Łódź',
      paysPostaleExpedition: 'Pologne',
    })
    assert.is(moved.statusCode, 200, moved.body)
    const contract = await callBearer(t.app, camille, 'GET', `/api-protected/contracts/${atelier}/file`)
    assert.is(contract.statusCode, 200, contract.body)
    assert.is(contract.headers['content-type'], 'application/pdf')
    assert.match(pdfText(contract.rawPayload).replace(/\s+/g, ' '), 'ul. Piotrkowska 12, 90-001 Łódź, Pologne')
    const boulangerie = orders[BOULANGERIE]!
    const name = (await t.deps.db.selectFrom('orders').select('raison_sociale').where('id', '=', boulangerie.id).executeTakeFirstOrThrow())
      .raison_sociale
    await t.deps.db.updateTable('orders').set({ raison_sociale: 'Piekarnia Łukasz 株式会社 🥐' }).where('id', '=', boulangerie.id).execute()
    try {
      const issued = await call(t.app, camille, 'POST', `/api-protected/domiciliation-orders/${boulangerie.id}/certificates`)
      assert.is(issued.statusCode, 200, issued.body)
      for (const url of [
        `/api-protected/certificates/${issued.json().code}/file`,
        `/api-protected/contracts/${boulangerie.contractId}/file`,
      ]) {
        const res = url.includes('/contracts/') ? await callBearer(t.app, camille, 'GET', url) : await call(t.app, camille, 'GET', url)
        assert.is(res.statusCode, 200, `${url}: ${res.body}`)
        assert.is(res.rawPayload.subarray(0, 5).toString(), '%PDF-')
        // The embedded font draws Polish; what it lacks (Japanese, an emoji) is « ? », as the standard fonts did.
        assert.match(pdfText(res.rawPayload), 'Piekarnia Łukasz ???? ?', url)
      }
    } finally {
      await t.deps.db.updateTable('orders').set({ raison_sociale: name }).where('id', '=', boulangerie.id).execute()
    }
  },
)

Contract('property: any text becomes text the standard fonts draw, French text unchanged', async () => {
  const pdf = await PDFDocument.create()
  const fonts = [await pdf.embedFont(StandardFonts.Helvetica), await pdf.embedFont(StandardFonts.HelveticaBold)]
  const drawable = new Set(fonts[0]!.getCharacterSet())
  const unit = fc.oneof(
    fc.constantFrom('Ł', 'ź', 'é', '\u0301', '\u202f', '\n', '€'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  )
  fc.assert(
    fc.property(fc.string({ unit }), (text) => {
      const drawn = winAnsi(text)
      for (const char of drawn) assert.ok(drawable.has(char.codePointAt(0)!), `${JSON.stringify(text)} → ${JSON.stringify(drawn)}`)
      for (const font of fonts) font.widthOfTextAtSize(drawn, 10)
    }),
    { numRuns: 500 },
  )
  const french = 'L’Œuvre « Élégance » à 1 234,56 € : ça coûte — naïf, Straße, Ørsted'
  assert.is(winAnsi(french), french)
  assert.is(winAnsi('Łódź, İstanbul, ﬁnance, e\u0301cole'), 'Lódz, Istanbul, finance, école')
})

Contract.run()

const Provider = suite<Ctx & { logs: string[] }>('the test provider’s card form: a card number never reaches our routes nor the logs')
Provider.before(async (ctx) => {
  ctx.logs = []
  const logs = ctx.logs
  const stream = new Writable({
    write(chunk, _, done) {
      logs.push(String(chunk))
      done()
    },
  })
  await setup(ctx, { logger: pino({ level: 'trace' }, stream) })
})
Provider.after((ctx) => ctx.t?.close())

// A card's number is `number` (or the PAN), a field about cards says so; a parcel's `trackingNumber` is no card number.
Provider('no route of our table takes a card number or a CVC', () => {
  const fields = (schema: unknown): string[] => {
    if (!schema || typeof schema !== 'object') return []
    const s = schema as { properties?: Record<string, unknown>; anyOf?: unknown[] }
    return [...Object.keys(s.properties ?? {}), ...Object.values(s.properties ?? {}).flatMap(fields), ...(s.anyOf ?? []).flatMap(fields)]
  }
  const offending = Object.entries(routes).filter(
    ([, r]) => 'body' in r.schema && fields(r.schema.body).some((f) => /^(pan|number)$|card|cvc|cvv/i.test(f)),
  )
  assert.equal(
    offending.map(([name]) => name),
    [],
  )
  assert.not.ok(
    Object.values(routes).some((r) => r.path.startsWith('/test-provider')),
    'the provider’s endpoint is not ours',
  )
})

Provider('the form needs no token of ours; the number is neither stored nor logged, even when refused', async ({ t, camille, logs }) => {
  const card = await testProviderCard(t, '4242 4242 4242 4242')
  assert.equal([card.brand, card.last4], ['visa', '4242'])
  const refused = await t.app.inject({
    method: 'POST',
    url: testProviderRoute.path,
    payload: { number: '4000 0000 0000 0002', expMonth: 12, expYear: 2099, cvc: '123' },
  })
  assert.is(refused.statusCode, 402)
  assert.is(refused.json().message, 'Votre carte a été refusée.')
  const unknown = await t.app.inject({
    method: 'POST',
    url: testProviderRoute.path,
    payload: { number: '4111 1111 1111 1111', expMonth: 12, expYear: 2099, cvc: '123' },
  })
  assert.is(unknown.statusCode, 400)
  const malformed = await t.app.inject({
    method: 'POST',
    url: testProviderRoute.path,
    payload: { number: '4242 4242 4242 4242 x', expMonth: 12, expYear: 2099, cvc: '12' },
  })
  assert.is(malformed.statusCode, 400)
  assert.is((await call(t.app, camille, 'PUT', '/api-protected/credit-card-web', { pm: card.id })).statusCode, 200)
  const text = logs.join('')
  assert.ok(text.includes(testProviderRoute.path), 'the requests are logged (method and URL)')
  for (const digits of ['4242424242424242', '4242 4242 4242 4242', '4000000000000002', '4000 0000 0000 0002', '4111 1111 1111 1111']) {
    assert.not.ok(text.includes(digits), `${digits} in the logs`)
  }
  const stored = JSON.stringify(await t.deps.db.selectFrom('test_payment_methods').selectAll().execute())
  assert.not.ok(/4242424242|0000000000/.test(stored), 'only the last four digits are kept')
})

Provider('not in our OpenAPI document', async ({ t }) => {
  const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).body
  assert.not.ok(document.includes('/test-provider'))
})

Provider.run()

const RealProvider = suite<{ t: TestApp }>('with the real provider (STRIPE_SECRET_KEY)')
RealProvider.before(async (ctx) => {
  ctx.t = await buildTestApp({ seed: false, payments: () => stripePaymentProvider('sk_test_x', {} as Stripe) })
})
RealProvider.after((ctx) => ctx.t?.close())

RealProvider('the test provider’s card form does not exist: Stripe’s own element takes the card', async ({ t }) => {
  const res = await t.app.inject({
    method: 'POST',
    url: testProviderRoute.path,
    payload: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' },
  })
  assert.is(res.statusCode, 404)
})

RealProvider.run()
