// Services behind the routes: storage, file sniffing, route registration, the payment providers, the demo seed.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { PDFDocument } from 'pdf-lib'
import type Stripe from 'stripe'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { routes } from '../../server/contract/routes.ts'
import { fastifyPath, routeRegistrar } from '../../server/http/define-route.ts'
import { demoAccounts, seedDemo } from '../../server/demo/seed.ts'
import { decodeDataUrl, sniffFileType } from '../../server/services/file-types.ts'
import { PaymentError } from '../../server/lib/money.ts'
import { testPaymentProvider } from '../../server/services/payment.ts'
import { stripePaymentProvider } from '../../server/services/payment-stripe.ts'
import { fsStorage, storeWithRecord } from '../../server/services/storage.ts'
import { buildTestApp, type TestApp } from '../util/server.ts'
import { tinyPdf, tinyPng } from '../util/server-samples.ts'

const storage = suite<{ dir: string }>('filesystem storage')
storage.before(async (ctx) => {
  ctx.dir = await mkdtemp(join(tmpdir(), 'storage-test-'))
})
storage.after(async (ctx) => rm(ctx.dir, { recursive: true, force: true }))

storage('put, get, delete; a missing file is null', async ({ dir }) => {
  const s = fsStorage(dir)
  await s.put('documents/2025-01/a.pdf', Buffer.from('%PDF-'))
  assert.equal(await s.get('documents/2025-01/a.pdf'), Buffer.from('%PDF-'))
  await s.delete('documents/2025-01/a.pdf')
  assert.is(await s.get('documents/2025-01/a.pdf'), null)
  assert.equal(await readdir(join(dir, '.tmp')), [], 'no temp file left')
})

storage('keys cannot leave the storage directory', async ({ dir }) => {
  const s = fsStorage(dir)
  for (const key of ['../evil.pdf', 'documents/../../evil.pdf', '/etc/passwd', 'documents', 'Documents/x.pdf']) {
    try {
      await s.put(key, Buffer.from('x'))
      assert.unreachable(key)
    } catch (error) {
      assert.match((error as Error).message, 'clé de fichier invalide')
    }
  }
})

storage('storeWithRecord removes the written files when the record fails, keeps them when it succeeds', async ({ dir }) => {
  const s = fsStorage(dir)
  const files = [
    { key: 'identity/x/1.pdf', bytes: Buffer.from('1') },
    { key: 'identity/x/2.pdf', bytes: Buffer.from('2') },
  ]
  try {
    await storeWithRecord(s, files, async () => {
      throw new Error('transaction annulée')
    })
    assert.unreachable()
  } catch (error) {
    assert.is((error as Error).message, 'transaction annulée')
  }
  assert.is(await s.get('identity/x/1.pdf'), null)
  assert.is(await s.get('identity/x/2.pdf'), null)
  assert.is(await storeWithRecord(s, files, async () => 'ok'), 'ok')
  assert.equal(await readFile(join(dir, 'identity/x/2.pdf'), 'utf8'), '2')
})

storage.run()

const sniffing = suite('file types are judged by content')

sniffing('complete PDF, PNG and JPEG; truncated or disguised files are not', async () => {
  const pdf = await tinyPdf()
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 0xff, 0xd9])
  assert.is(sniffFileType(pdf), 'pdf')
  assert.is(sniffFileType(tinyPng), 'png')
  assert.is(sniffFileType(jpeg), 'jpeg')
  assert.is(sniffFileType(pdf.subarray(0, pdf.length - 10)), null)
  assert.is(sniffFileType(tinyPng.subarray(0, tinyPng.length - 1)), null)
  assert.is(sniffFileType(jpeg.subarray(0, 8)), null)
  assert.is(sniffFileType(Buffer.from('%%EOF is not enough')), null)
  assert.is(sniffFileType(Buffer.alloc(0)), null)
})

sniffing('data URLs', () => {
  assert.equal(decodeDataUrl('data:application/pdf;base64,JVBERi0='), { mediaType: 'application/pdf', bytes: Buffer.from('%PDF-') })
  assert.equal(decodeDataUrl('data:application/pdf;name=kbis.pdf;base64,JVBERi0=')?.bytes, Buffer.from('%PDF-'))
  assert.is(decodeDataUrl('data:application/pdf,%PDF-'), null)
  assert.is(decodeDataUrl('JVBERi0='), null)
  assert.is(decodeDataUrl('data:application/pdf;base64,***'), null)
  // Base64 wrapped over lines (as mail clients and `base64` write it) is still read.
  assert.equal(decodeDataUrl('data:application/pdf;base64,JVBE\r\nRi0=\n')?.bytes, Buffer.from('%PDF-'))
})

sniffing('a data URL of spaces ending in a stray character is refused at once, not after minutes of backtracking', () => {
  // Any customer can send 13 MB like this as a Kbis: the check must be linear (it was quadratic: 4 s for 60,000
  // spaces, the event loop held; 100,000 took about 11 s). The bound is far above linear time and far below the quadratic one.
  for (const tail of ['!', '=!', '= !']) {
    const started = performance.now()
    assert.is(decodeDataUrl(`data:application/pdf;base64,${' '.repeat(100_000)}${tail}`), null)
    assert.ok(performance.now() - started < 1000, `refused in ${Math.round(performance.now() - started)} ms`)
  }
})

sniffing.run()

const registration = suite('handlers registered against the route table')

registration('paths turn into Fastify syntax, a literal colon after a parameter included', () => {
  assert.is(
    fastifyPath('/api-protected/domiciliation-orders/{id}:send-problem'),
    '/api-protected/domiciliation-orders/:id(^\\d+)::send-problem',
  )
  assert.is(
    fastifyPath('/api-protected/domiciliation-orders/{id}/share-delete/{shareId}'),
    '/api-protected/domiciliation-orders/:id/share-delete/:shareId',
  )
  assert.is(fastifyPath('/api/login'), '/api/login')
})

registration('the app refuses to start when a route of the table has no handler', async () => {
  const app = Fastify()
  const registrar = routeRegistrar(app, {} as never)
  registrar.define('health', async () => ({ status: 'ok', database: 'pglite', paymentProvider: 'test' }))
  try {
    registrar.assertComplete()
    assert.unreachable()
  } catch (error) {
    assert.match((error as Error).message, 'sans gestionnaire')
    assert.match((error as Error).message, 'login')
  }
  assert.throws(() => registrar.define('health', async () => ({ status: 'ok', database: 'pglite', paymentProvider: 'test' })), /deux fois/)
  await app.close()
})

registration('colon routes reach the right handler', async () => {
  const app = Fastify()
  for (const name of ['setQonto', 'setShine'] as const) app.post(fastifyPath(routes[name].path), async () => ({ name }))
  await app.ready()
  assert.equal((await app.inject({ method: 'POST', url: '/api/domiciliation-orders/12:set-qonto' })).json(), { name: 'setQonto' })
  assert.equal((await app.inject({ method: 'POST', url: '/api/domiciliation-orders/12:set-shine' })).json(), { name: 'setShine' })
  assert.is((await app.inject({ method: 'POST', url: '/api/domiciliation-orders/12:set-other' })).statusCode, 404)
  await app.close()
})

registration.run()

const payments = suite<{ t: TestApp }>('the local test payment provider')
payments.before(async (ctx) => {
  ctx.t = await buildTestApp({ seed: false })
})
payments.after((ctx) => ctx.t?.close())

payments('accepts only the public test card numbers, refuses the declined and expired ones', async ({ t }) => {
  const provider = testPaymentProvider(t.deps.db, t.clock.now)
  const year = t.clock.now().getFullYear()
  const card = await provider.createTestPaymentMethod!({ number: '4242-4242-4242-4242', expMonth: 12, expYear: year + 1, cvc: '123' })
  assert.equal([card.brand, card.last4], ['visa', '4242'])
  const stored = await t.deps.db.selectFrom('test_payment_methods').selectAll().where('id', '=', card.id).executeTakeFirstOrThrow()
  assert.not.ok(JSON.stringify(stored).includes('424242424242'), 'the full number is never stored')
  assert.is(stored.customer_id, null, 'it belongs to nobody until attached')
  for (const [number, expYear, status] of [
    ['4111111111111111', year + 1, 400],
    ['4000000000000002', year + 1, 402],
    ['4242424242424242', year - 1, 400],
  ] as const) {
    try {
      await provider.createTestPaymentMethod!({ number, expMonth: 1, expYear, cvc: '123' })
      assert.unreachable(number)
    } catch (error) {
      assert.instance(error, PaymentError)
      assert.is((error as PaymentError).statusCode, status)
    }
  }
})

payments('a card is attached to the first customer that takes it, and refused to any other', async ({ t }) => {
  const provider = testPaymentProvider(t.deps.db, t.clock.now)
  const [mine, theirs] = [await provider.createCustomer('a@example.com', 'A'), await provider.createCustomer('b@example.com', 'B')]
  const card = await provider.createTestPaymentMethod!({ number: '5555555555554444', expMonth: 1, expYear: 2099, cvc: '123' })
  assert.equal(await provider.setDefaultPaymentMethod(mine, card.id), card)
  assert.equal(await provider.setDefaultPaymentMethod(mine, card.id), card, 'again: still hers')
  try {
    await provider.setDefaultPaymentMethod(theirs, card.id)
    assert.unreachable()
  } catch (error) {
    assert.is((error as PaymentError).statusCode, 400)
  }
  assert.equal(await provider.getDefaultPaymentMethod(mine), card)
  assert.is(await provider.getDefaultPaymentMethod(theirs), null)
})

payments('charges need a card of the customer, and subscriptions have the provider shape', async ({ t }) => {
  const provider = testPaymentProvider(t.deps.db, t.clock.now)
  const customer = await provider.createCustomer('y@example.com', 'Y')
  const charge = (paymentMethodId: string, idempotencyKey: string) =>
    provider.charge({ customerId: customer, paymentMethodId, amountCents: 1000, description: 'test', idempotencyKey })
  try {
    await charge('pm_inconnu', 'cle-1')
    assert.unreachable()
  } catch (error) {
    assert.instance(error, PaymentError)
    assert.match((error as Error).message, 'Aucune carte')
  }
  const card = await provider.createTestPaymentMethod!({ number: '5555555555554444', expMonth: 1, expYear: 2099, cvc: '123' })
  await provider.setDefaultPaymentMethod(customer, card.id)
  assert.match((await charge(card.id, 'cle-2')).id, /^ch_/)
})

payments('the same idempotency key answers the first charge, even at the same moment; another key charges again', async ({ t }) => {
  const provider = testPaymentProvider(t.deps.db, t.clock.now)
  const customer = await provider.createCustomer('z@example.com', 'Z')
  const card = await provider.createTestPaymentMethod!({ number: '4242424242424242', expMonth: 1, expYear: 2099, cvc: '123' })
  await provider.setDefaultPaymentMethod(customer, card.id)
  const charge = (idempotencyKey: string) =>
    provider.charge({ customerId: customer, paymentMethodId: card.id, amountCents: 34800, description: 'Factures', idempotencyKey })
  const first = await charge('paiement-a')
  const repeats = await Promise.all(Array.from({ length: 10 }, () => charge('paiement-a')))
  assert.equal(
    repeats.map((r) => r.id),
    Array(10).fill(first.id),
  )
  const other = await charge('paiement-b')
  assert.is.not(other.id, first.id)
  const rows = await t.deps.db.selectFrom('test_charges').select(['id', 'amount']).where('customer_id', '=', customer).execute()
  assert.is(rows.length, 2)
})

payments('4000 0000 0000 0341 is saved, and every charge on it is declined in French', async ({ t }) => {
  const provider = testPaymentProvider(t.deps.db, t.clock.now)
  const customer = await provider.createCustomer('w@example.com', 'W')
  const card = await provider.createTestPaymentMethod!({ number: '4000 0000 0000 0341', expMonth: 1, expYear: 2099, cvc: '123' })
  assert.is(card.last4, '0341')
  await provider.setDefaultPaymentMethod(customer, card.id)
  try {
    await provider.charge({ customerId: customer, paymentMethodId: card.id, amountCents: 1000, description: 'x', idempotencyKey: 'k' })
    assert.unreachable()
  } catch (error) {
    assert.instance(error, PaymentError)
    assert.match((error as Error).message, 'refusée')
  }
  assert.equal(await t.deps.db.selectFrom('test_charges').select('id').where('customer_id', '=', customer).execute(), [])
})

payments.run()

const stripe = suite('the Stripe provider maps Stripe objects to the contract')

stripe('subscription, payment method and charge', async () => {
  const calls: string[] = []
  const card = { id: 'pm_1', card: { brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2030 } }
  const fake = {
    subscriptions: {
      retrieve: async (id: string) => ({
        id,
        status: 'active',
        cancel_at_period_end: false,
        current_period_end: 1_900_000_000,
        default_payment_method: card,
        items: {
          data: [
            {
              id: 'si_1',
              quantity: 1,
              plan: { id: 'price_1', nickname: 'Domiciliation', amount: 2900, currency: 'eur', interval: 'month', product: 'prod_1' },
            },
          ],
        },
      }),
      update: async () => {
        calls.push('subscriptions.update')
      },
    },
    customers: { retrieve: async () => ({ deleted: false, invoice_settings: { default_payment_method: 'pm_1' } }) },
    paymentIntents: {
      create: async (
        params: { amount: number; off_session: boolean; payment_method: string; metadata: Record<string, string> },
        options: { idempotencyKey: string },
      ) => {
        calls.push(
          `paymentIntents.create ${params.amount} ${params.off_session} ${params.payment_method} ${options.idempotencyKey} ${params.metadata.payment_attempt}`,
        )
        return { id: 'pi_1', status: params.amount === 1 ? 'processing' : 'succeeded' }
      },
      search: async ({ query }: { query: string }) => {
        calls.push(`paymentIntents.search ${query}`)
        const found: Record<string, { id: string; status: string }[]> = {
          'paiement-1': [
            { id: 'pi_0', status: 'requires_payment_method' },
            { id: 'pi_1', status: 'succeeded' },
          ],
          'paiement-2': [{ id: 'pi_2', status: 'canceled' }],
          'paiement-3': [{ id: 'pi_3', status: 'processing' }],
        }
        return { data: found[/'(paiement-\d)'/.exec(query)![1]!] ?? [] }
      },
    },
  }
  const provider = stripePaymentProvider('sk_test_x', fake as unknown as Stripe)
  const subscription = await provider.getSubscription('sub_1')
  assert.is(subscription!.items.data[0]!.plan.interval, 'month')
  assert.is(subscription!.current_period_end, 1_900_000_000)
  assert.equal(await provider.getSubscriptionPaymentMethod('sub_1'), {
    id: 'pm_1',
    brand: 'visa',
    last4: '4242',
    expMonth: 4,
    expYear: 2030,
  })
  const request = { customerId: 'cus_1', paymentMethodId: 'pm_1', amountCents: 3480, description: 'Factures', idempotencyKey: 'paiement-1' }
  assert.equal(await provider.charge(request), { id: 'pi_1' })
  assert.equal(
    calls,
    ['paymentIntents.create 3480 true pm_1 paiement-1 paiement-1'],
    'the idempotency key goes to Stripe, and in the metadata',
  )
  // An attempt too old for its key: found by its metadata, never charged again.
  assert.equal(await provider.findCharge(request), { id: 'pi_1' }, 'the succeeded one')
  assert.is(calls.at(-1), "paymentIntents.search customer:'cus_1' AND metadata['payment_attempt']:'paiement-1'")
  assert.is(await provider.findCharge({ ...request, idempotencyKey: 'paiement-2' }), null, 'cancelled: nothing charged')
  assert.is(await provider.findCharge({ ...request, idempotencyKey: 'paiement-4' }), null, 'none: nothing charged')
  try {
    await provider.findCharge({ ...request, idempotencyKey: 'paiement-3' })
    assert.unreachable()
  } catch (error) {
    assert.match((error as Error).message, 'processing', 'still processing: unknown')
  }
  calls.length = 0
  try {
    await provider.charge({ ...request, amountCents: 1 })
    assert.unreachable()
  } catch (error) {
    assert.not.instance(error, PaymentError, 'a payment still processing is no refusal: its outcome stays to be settled')
  }
  assert.is(provider.createTestPaymentMethod, undefined, 'no test card form with the real provider')
})

stripe.run()

const seed = suite<{ t: TestApp }>('the demo data')
seed.before(async (ctx) => {
  ctx.t = await buildTestApp()
})
seed.after((ctx) => ctx.t?.close())

seed('is seeded once', async ({ t }) => {
  assert.is(await seedDemo(t.deps.db, t.deps.storage, { now: t.clock.now(), brandName: 'X' }), false)
  assert.is((await t.deps.db.selectFrom('users').select('id').execute()).length, demoAccounts.length)
})

seed('Boulangerie des Lilas has six months of letters, with unread and one deleted, each a real PDF', async ({ t }) => {
  const order = await t.deps.db
    .selectFrom('orders')
    .selectAll()
    .where('raison_sociale', '=', 'Boulangerie des Lilas SAS')
    .executeTakeFirstOrThrow()
  const letters = await t.deps.db.selectFrom('documents').selectAll().where('order_id', '=', order.id).execute()
  assert.ok(letters.length >= 30)
  assert.is(letters.filter((l) => l.deleted).length, 1)
  assert.ok(letters.some((l) => !l.read))
  const oldest = Math.min(...letters.map((l) => l.received_at.getTime()))
  assert.ok(t.clock.now().getTime() - oldest <= 184 * 86_400_000 && t.clock.now().getTime() - oldest > 150 * 86_400_000)
  assert.ok(letters.every((l) => l.received_at <= t.clock.now()))
  const senders = new Set(letters.map((l) => l.sender))
  for (const sender of [
    'URSSAF Île-de-France',
    'Service des impôts des entreprises de Paris 2e',
    'Greffe du tribunal de commerce de Paris',
  ])
    assert.ok(senders.has(sender), sender)
  const bytes = await t.deps.storage.get(letters[0]!.file_key)
  assert.is(sniffFileType(bytes!), 'pdf')
  const pdf = await PDFDocument.load(bytes!)
  assert.is(pdf.getPageCount(), letters[0]!.pages)
  assert.match(pdf.getTitle()!, letters[0]!.sender)
})

seed('Camille holds the expected orders, Sophie exactly one', async ({ t }) => {
  const owned = async (email: string) =>
    t.deps.db
      .selectFrom('orders')
      .innerJoin('users', 'users.id', 'orders.owner_id')
      .select('orders.raison_sociale')
      .where('users.email', '=', email)
      .execute()
  assert.is((await owned('demo@example.com')).length, 3)
  assert.equal(
    (await owned('solo@example.com')).map((o) => o.raison_sociale),
    ['Épicerie Solène SARL'],
  )
  const invoices = await t.deps.db
    .selectFrom('invoices')
    .innerJoin('orders', 'orders.id', 'invoices.order_id')
    .select(['invoices.date', 'invoices.paid_at'])
    .where('orders.raison_sociale', '=', 'Boulangerie des Lilas SAS')
    .execute()
  const span = Math.max(...invoices.map((i) => i.date.getTime())) - Math.min(...invoices.map((i) => i.date.getTime()))
  assert.ok(span > 600 * 86_400_000, 'invoices over two years')
  assert.is(invoices.filter((i) => i.paid_at === null).length, 1)
})

seed.run()
