// The back office's Colis and Réexpéditions: a package's arrival (its photo checked by content), the packages waiting
// per order, the handover to the owner or a representative of that order only, identity checked, which the customer
// reads; a forwarding request shipped (carrier, tracking number and link) or impossible (a reason), which the customer
// reads too. Every write journaled.
// tests: on S3 too (under scripts/with-s3.sh its apps store on the S3 server: scripts/uvu-summary.mjs)
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { LightMyRequestResponse } from 'fastify'
import { trackingUrl } from '../../../server/contract/rules/carriers.ts'
import { call, operatorLogin, type TestApp } from '../../util/server.ts'
import { demoContext, tinyPdf, tinyPng, type DemoContext } from '../../util/server-samples.ts'

interface Ctx extends DemoContext {
  courrier: string
}

function bo(t: TestApp, token: string, method: 'GET' | 'POST', url: string, payload?: unknown) {
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
const journal = (ctx: Ctx, action: string) =>
  ctx.t.deps.db.selectFrom('journal').selectAll().where('action', '=', action).orderBy('id').execute()
/** The stored files, on either store (test/util/storage.ts), writes under way aside. */
const filesUnder = async (t: TestApp) => (await t.storedKeys()).filter((key) => !key.startsWith('.tmp/'))

const setup = async (ctx: Ctx) => {
  await demoContext(ctx)
  ctx.courrier = await operatorLogin(ctx.t, 'courrier@example.com')
}

const packages = suite<Ctx>('Colis: an arrival, the packages waiting, the handover the customer reads')
packages.before(setup)
packages.after((ctx) => ctx.t?.close())

packages('the orders to pick from: by name or owner without accents, by SIREN, by number', async (ctx) => {
  const names = async (q: string) =>
    ok(await bo(ctx.t, ctx.courrier, 'GET', `/api/backoffice/mail-room/orders?q=${encodeURIComponent(q)}`)).map(
      (o: { raisonSociale: string }) => o.raisonSociale,
    )
  assert.equal(await names('EPICERIE solene'), ['Épicerie Solène SARL'])
  assert.equal(await names('sophie bernard'), ['Épicerie Solène SARL'], 'the owner')
  assert.equal(await names('823 456'), ['Boulangerie des Lilas SAS'], 'a SIREN, spaces or not')
  assert.equal(await names(String(ctx.ids.order)), ['Boulangerie des Lilas SAS'], 'an order number')
  assert.equal(await names('100%_'), [], 'LIKE wildcards are text')
  const [boulangerie] = ok(await bo(ctx.t, ctx.courrier, 'GET', '/api/backoffice/mail-room/orders?q=lilas'))
  assert.equal(boulangerie, {
    id: ctx.ids.order,
    raisonSociale: 'Boulangerie des Lilas SAS',
    siren: '823 456 785',
    ownerName: 'Camille Martin',
    terminationDate: null,
    terminated: false,
  })
})

packages('an arrival with a photo: stored, announced as the operator API announces it, journaled', async (ctx) => {
  const mailsBefore = ctx.t.mails.length
  const parcel = ok(
    await bo(ctx.t, ctx.courrier, 'POST', '/api/backoffice/packages', {
      orderId: ctx.ids.order,
      carrier: ' Chronopost ',
      sender: 'Moulins Bourgeois',
      photo: `data:image/png;base64,${tinyPng.toString('base64')}`,
    }),
  )
  assert.is(parcel.status, 'À retirer')
  assert.is(parcel.carrier, 'Chronopost')
  assert.is(parcel.hasPhoto, true)
  assert.is(parcel.collectedBy, null)
  const photo = await bo(ctx.t, ctx.courrier, 'GET', `/api/backoffice/packages/${parcel.id}/photo`)
  assert.is(photo.statusCode, 200)
  assert.is(photo.headers['content-type'], 'image/png')
  assert.equal(photo.rawPayload, tinyPng)
  assert.ok(
    ctx.t.mails.slice(mailsBefore).some((m) => m.subject === 'Nouveau colis' && m.to === 'demo@example.com'),
    'the owner is told',
  )
  const groups = ok(await bo(ctx.t, ctx.courrier, 'GET', `/api/backoffice/packages?orderId=${ctx.ids.order}`))
  assert.is(groups.length, 1)
  assert.is(groups[0].raisonSociale, 'Boulangerie des Lilas SAS')
  assert.ok(groups[0].packages.some((p: { id: number }) => p.id === parcel.id))
  assert.ok(
    groups[0].packages.every((p: { status: string }) => p.status === 'À retirer'),
    'waiting ones only',
  )
  const [row] = await journal(ctx, 'package.received')
  assert.is(row!.order_id, ctx.ids.order)
  assert.match(row!.summary, /^Colis de Moulins Bourgeois \(Chronopost\) reçu pour Boulangerie des Lilas SAS, avec sa photo$/)
})

packages('a photo that is not a picture or a PDF stores nothing, package included', async (ctx) => {
  const { db } = ctx.t.deps
  const count = async () => (await db.selectFrom('packages').select('id').execute()).length
  const [before, files] = [await count(), await filesUnder(ctx.t)]
  for (const [photo, status] of [
    [`data:image/png;base64,${Buffer.from('pas une image').toString('base64')}`, 415],
    ['pas une data URL', 400],
    [`data:application/pdf;base64,${Buffer.from('%PDF-1.4\n<script>x</script>\n%%EOF\n').toString('base64')}`, 400],
  ] as const) {
    const res = await bo(ctx.t, ctx.courrier, 'POST', '/api/backoffice/packages', {
      orderId: ctx.ids.order,
      carrier: 'UPS',
      sender: 'X',
      photo,
    })
    assert.is(res.statusCode, status, res.body)
    assert.match(res.json().message, /photo/i)
  }
  assert.is(await count(), before)
  assert.equal(await filesUnder(ctx.t), files)
})

packages('a PDF is a photo too', async (ctx) => {
  const parcel = ok(
    await bo(ctx.t, ctx.courrier, 'POST', '/api/backoffice/packages', {
      orderId: ctx.ids.order,
      carrier: 'UPS',
      sender: 'Bureau Vallée',
      photo: `data:application/pdf;base64,${(await tinyPdf('Bon de livraison')).toString('base64')}`,
    }),
  )
  const photo = await bo(ctx.t, ctx.courrier, 'GET', `/api/backoffice/packages/${parcel.id}/photo`)
  assert.is(photo.headers['content-type'], 'application/pdf')
})

packages('handed to a representative of the order: the customer reads « Retiré le … par Léa Fontaine »', async (ctx) => {
  const parcel = ok(
    await bo(ctx.t, ctx.courrier, 'POST', '/api/backoffice/packages', { orderId: ctx.ids.order, carrier: 'DHL Express', sender: 'Matfer' }),
  )
  const collectors = ok(await bo(ctx.t, ctx.courrier, 'GET', `/api/backoffice/packages/${parcel.id}/collectors`))
  assert.equal(collectors[0], { kind: 'titulaire', mandataireId: null, name: 'Camille Martin' })
  const lea = collectors.find((c: { name: string }) => c.name === 'Léa Fontaine')
  assert.ok(lea, 'the representative of the Boulangerie')
  const url = `/api/backoffice/packages/${parcel.id}:hand-over`
  const collector = { kind: 'mandataire', mandataireId: lea.mandataireId }
  // Identity not checked: refused, unchanged.
  const unchecked = await bo(ctx.t, ctx.courrier, 'POST', url, { collector, identityChecked: false })
  assert.is(unchecked.statusCode, 400)
  assert.match(unchecked.json().message, /^Vérifiez la pièce d’identité/)
  // A representative of another order: refused.
  const stranger = await ctx.t.deps.db
    .insertInto('mandataires')
    .values({ order_id: ctx.atelier, firstname: 'Marc', lastname: 'Dubois', email: 'marc.dubois@example.com', phone: '0611223344' })
    .returning('id')
    .executeTakeFirstOrThrow()
  const other = await bo(ctx.t, ctx.courrier, 'POST', url, {
    collector: { kind: 'mandataire', mandataireId: stranger.id },
    identityChecked: true,
  })
  assert.is(other.statusCode, 400)
  assert.match(other.json().message, /n’est pas un mandataire de cette domiciliation/)
  // Before its arrival, or in the future: refused.
  const early = await bo(ctx.t, ctx.courrier, 'POST', url, { collector, identityChecked: true, collectedAt: '2020-01-01T10:00:00.000Z' })
  assert.is(early.statusCode, 400)
  const at = new Date(ctx.t.clock.now().getTime() + 60_000 * 0).toISOString()
  const handed = ok(await bo(ctx.t, ctx.courrier, 'POST', url, { collector, identityChecked: true, collectedAt: at }))
  assert.is(handed.status, 'Retiré')
  assert.is(handed.collectedBy, 'Léa Fontaine')
  assert.is(handed.collectedAt, at)
  // Once.
  const again = await bo(ctx.t, ctx.admin, 'POST', url, { collector: { kind: 'titulaire' }, identityChecked: true })
  assert.is(again.statusCode, 409)
  assert.match(again.json().message, /^Ce colis a déjà été remis à Léa Fontaine le /)
  // The customer.
  const seen = (await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/user-packages?orderId=${ctx.ids.order}`))
    .json()
    .find((p: { id: number }) => p.id === parcel.id)
  assert.equal(
    { status: seen.status, collectedAt: seen.collectedAt, collectedBy: seen.collectedBy },
    { status: 'Retiré', collectedAt: at, collectedBy: 'Léa Fontaine' },
  )
  const [row] = await journal(ctx, 'package.handedOver')
  assert.match(row!.summary, /remis à Léa Fontaine \(mandataire\), pièce d’identité vérifiée$/)
  // No longer waiting.
  const groups = ok(await bo(ctx.t, ctx.courrier, 'GET', `/api/backoffice/packages?orderId=${ctx.ids.order}`))
  assert.not.ok(JSON.stringify(groups).includes(`"id":${parcel.id},`))
})

packages(
  'handed over in the minute it arrived, as the form types it (minutes only): dated at the arrival; a minute before: refused',
  async (ctx) => {
    const arrival = new Date(Math.floor(ctx.t.clock.now().getTime() / 60_000) * 60_000 + 37_000)
    ctx.t.clock.set(arrival)
    const parcel = ok(
      await bo(ctx.t, ctx.courrier, 'POST', '/api/backoffice/packages', {
        orderId: ctx.ids.order,
        carrier: 'Colissimo',
        sender: 'Moulins',
      }),
    )
    assert.is(parcel.receivedAt, arrival.toISOString())
    ctx.t.clock.set(new Date(arrival.getTime() + 5_000))
    const url = `/api/backoffice/packages/${parcel.id}:hand-over`
    const collector = { kind: 'titulaire' }
    const minuteBefore = new Date(arrival.getTime() - 37_000 - 60_000).toISOString()
    const early = await bo(ctx.t, ctx.courrier, 'POST', url, { collector, identityChecked: true, collectedAt: minuteBefore })
    assert.is(early.statusCode, 400)
    assert.is(early.json().message, 'La date de retrait ne peut pas précéder l’arrivée du colis.')
    const typed = new Date(arrival.getTime() - 37_000).toISOString()
    const handed = ok(await bo(ctx.t, ctx.courrier, 'POST', url, { collector, identityChecked: true, collectedAt: typed }))
    assert.equal([handed.status, handed.collectedAt], ['Retiré', arrival.toISOString()])
  },
)

packages.run()

const forwarding = suite<Ctx>('Réexpéditions: pending requests oldest first; shipped with tracking, or impossible; the customer reads both')
forwarding.before(setup)
forwarding.after((ctx) => ctx.t?.close())

forwarding('the tracking link of the known carriers; none for another', () => {
  assert.is(trackingUrl('Colissimo', '6A 1234 5678'), 'https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678')
  assert.is(trackingUrl('DHL Express', 'JD0146'), 'https://www.dhl.com/fr-fr/home/suivi.html?tracking-id=JD0146')
  assert.is(trackingUrl('chronopost', 'XY1'), 'https://www.chronopost.fr/tracking-no-cms/suivi-page?listeNumerosLT=XY1')
  assert.is(trackingUrl('UPS', '1Z999'), 'https://www.ups.com/track?loc=fr_FR&tracknum=1Z999')
  assert.is(trackingUrl('Coursier du quartier', '1234'), null)
  assert.is(trackingUrl('Groupes', '1234'), null, 'a word inside another is not the carrier')
})

forwarding(
  'the pending requests of every customer, oldest first, with their letters and address; shipped, then read by the customer',
  async (ctx) => {
    const { db } = ctx.t.deps
    // The demo's pending request names the four newest letters of the mailbox.
    const letters = await db
      .selectFrom('courier_request_letters')
      .select('document_id as id')
      .where('request_id', '=', ctx.ids.pendingCourierRequest)
      .execute()
    assert.is(letters.length, 4)
    const list = ok(await bo(ctx.t, ctx.courrier, 'GET', '/api/backoffice/forwarding-requests'))
    const dates = list.map((r: { createdAt: string }) => r.createdAt)
    assert.equal(dates, [...dates].sort(), 'oldest first')
    const request = list.find((r: { id: number }) => r.id === ctx.ids.pendingCourierRequest)
    assert.is(request.raisonSociale, 'Boulangerie des Lilas SAS')
    assert.equal(request.forwardingAddress, ['27 rue des Lilas', '75019 Paris', 'France'])
    assert.equal(request.letters.map((l: { id: number }) => l.id).sort(), letters.map((l) => l.id).sort())
    const done = ok(
      await bo(ctx.t, ctx.courrier, 'POST', `/api/backoffice/forwarding-requests/${request.id}:shipped`, {
        carrier: 'Colissimo',
        trackingNumber: '6a 123 456 789',
      }),
    )
    assert.is(done.status, 'traitée')
    assert.equal(
      {
        kind: done.outcome.kind,
        carrier: done.outcome.carrier,
        trackingNumber: done.outcome.trackingNumber,
        url: done.outcome.trackingUrl,
      },
      {
        kind: 'expédiée',
        carrier: 'Colissimo',
        trackingNumber: '6A 123 456 789',
        url: 'https://www.laposte.fr/outils/suivre-vos-envois?code=6A123456789',
      },
    )
    const seen = (await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/user-demandes-courrier?orderId=${ctx.ids.order}`))
      .json()
      .find((r: { id: number }) => r.id === request.id)
    assert.is(seen.status, 'traitée')
    assert.equal(seen.outcome, done.outcome)
    // Each letter's history says where it went.
    const history = (await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${letters[0]!.id}/history`)).json()
    assert.ok(
      history.events.some(
        (e: { kind: string; detail: string }) => e.kind === 'forwarded' && e.detail === '27 rue des Lilas, 75019 Paris, France',
      ),
    )
    const again = await bo(ctx.t, ctx.admin, 'POST', `/api/backoffice/forwarding-requests/${request.id}:impossible`, {
      reason: 'Adresse incomplète',
    })
    assert.is(again.statusCode, 409)
    assert.match(again.json().message, /^Cette demande a déjà été traitée le /)
    const [row] = await journal(ctx, 'forwarding.shipped')
    assert.is(row!.order_id, ctx.ids.order)
    const pending = ok(await bo(ctx.t, ctx.courrier, 'GET', '/api/backoffice/forwarding-requests'))
    assert.not.ok(pending.some((r: { id: number }) => r.id === request.id))
  },
)

forwarding('impossible, with a reason the customer reads; a scan request is no forwarding request', async (ctx) => {
  const { db } = ctx.t.deps
  const made = await db
    .insertInto('courier_requests')
    .values([
      { order_id: ctx.ids.order, kind: 'réexpédition', status: 'en attente', letter_count: 2 },
      { order_id: ctx.ids.order, kind: 'scan', status: 'en attente', letter_count: 1 },
    ])
    .returning('id')
    .execute()
  const [forward, scan] = made.map((r) => r.id)
  const blank = await bo(ctx.t, ctx.courrier, 'POST', `/api/backoffice/forwarding-requests/${forward}:impossible`, { reason: '   ' })
  assert.is(blank.statusCode, 400)
  const done = ok(
    await bo(ctx.t, ctx.courrier, 'POST', `/api/backoffice/forwarding-requests/${forward}:impossible`, {
      reason: 'Votre adresse de réexpédition est incomplète : le code postal manque.',
    }),
  )
  assert.equal(done.outcome.kind, 'impossible')
  const seen = (await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/user-demandes-courrier?orderId=${ctx.ids.order}`))
    .json()
    .find((r: { id: number }) => r.id === forward)
  assert.is(seen.outcome.reason, 'Votre adresse de réexpédition est incomplète : le code postal manque.')
  const notForwarding = await bo(ctx.t, ctx.courrier, 'POST', `/api/backoffice/forwarding-requests/${scan}:shipped`, {
    carrier: 'UPS',
    trackingNumber: '1Z999AA1',
  })
  assert.is(notForwarding.statusCode, 409)
  const badNumber = await bo(ctx.t, ctx.courrier, 'POST', `/api/backoffice/forwarding-requests/${forward}:shipped`, {
    carrier: 'UPS',
    trackingNumber: '<script>',
  })
  assert.is(badNumber.statusCode, 400)
})

forwarding('a request of an order without a forwarding address cannot be shipped: 409, unchanged', async (ctx) => {
  const { db } = ctx.t.deps
  const { id } = await db
    .insertInto('courier_requests')
    .values({ order_id: ctx.atelier, kind: 'réexpédition', status: 'en attente', letter_count: 1 })
    .returning('id')
    .executeTakeFirstOrThrow()
  const res = await bo(ctx.t, ctx.courrier, 'POST', `/api/backoffice/forwarding-requests/${id}:shipped`, {
    carrier: 'La Poste',
    trackingNumber: '1K00000000001',
  })
  assert.is(res.statusCode, 409, res.body)
  assert.match(res.json().message, /n’a pas d’adresse de réexpédition/)
  const row = await db.selectFrom('courier_requests').select(['status', 'outcome']).where('id', '=', id).executeTakeFirstOrThrow()
  assert.equal(row, { status: 'en attente', outcome: null })
})

forwarding.run()
