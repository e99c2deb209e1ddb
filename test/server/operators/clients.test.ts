// The back office's Clients: the search (company, SIREN, e-mail, person, order number), an order's page and its timeline.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { isValidSiren } from '../../../server/contract/rules/company.ts'
import { clientMessages } from '../../../server/routes/operators/clients.ts'
import { call, operatorLogin, TEST_OPERATOR_TOKEN } from '../../util/server.ts'
import { demoContext, MAIL_ROOM_ORDER, sampleFor, send, type DemoContext } from '../../util/server-samples.ts'

type Ctx = DemoContext
const auth = (token: string) => ({ authorization: `Bearer ${token}` })

interface Result {
  orderId: number
  raisonSociale: string
  siren: string | null
  owner: { email: string }
  matches: { field: string; value: string }[]
}

const search = async (ctx: Ctx, query: string, token = ctx.admin) => {
  const res = await ctx.t.app.inject({ method: 'GET', url: `/api/backoffice/clients?${query}`, headers: auth(token) })
  return res
}
const found = async (ctx: Ctx, q: string) => {
  const res = await search(ctx, `q=${encodeURIComponent(q)}`)
  assert.is(res.statusCode, 200, `${q}: ${res.body}`)
  return res.json() as { results: Result[]; total: number; page: number; pageSize: number }
}
const names = (page: { results: Result[] }) => page.results.map((r) => r.raisonSociale)

const searching = suite<Ctx>('Clients: the search')
searching.before(async (ctx) => void (await demoContext(ctx)))
searching.after((ctx) => ctx.t?.close())

searching('every demo SIREN has its right Luhn key', async (ctx) => {
  const rows = await ctx.t.deps.db.selectFrom('orders').select(['raison_sociale', 'siren']).execute()
  // The demo's five, and the mail room's samples' own order (test/util/server-samples.ts, MAIL_ROOM_ORDER).
  assert.is(rows.length, 6)
  for (const row of rows) assert.ok(isValidSiren(row.siren!), `${row.raison_sociale}: ${row.siren}`)
})

searching('nothing typed: every order, newest first, 20 a page', async (ctx) => {
  const res = await search(ctx, '')
  assert.is(res.statusCode, 200, res.body)
  const page = res.json()
  assert.is(page.total, 6)
  assert.is(page.pageSize, 20)
  assert.equal(names(page), [
    MAIL_ROOM_ORDER,
    'Conseil Horizon EURL',
    'Atelier Lumière SARL',
    'Épicerie Solène SARL',
    'Studio Nuage SAS',
    'Boulangerie des Lilas SAS',
  ])
  assert.equal(page.results[0].matches, [])
  const second = (await search(ctx, 'page=2')).json()
  assert.equal(second.results, [])
  assert.is(second.total, 0, 'no row on that page: nothing to count from')
})

searching('a company name, whatever its case and accents; the names that start with it first', async (ctx) => {
  assert.equal(names(await found(ctx, 'EPICERIE')), ['Épicerie Solène SARL'])
  assert.equal(names(await found(ctx, 'lumiere')), ['Atelier Lumière SARL'])
  // « SAS » starts no name but is in three (the samples' order is one).
  assert.equal(names(await found(ctx, 'sas')), ['Boulangerie des Lilas SAS', MAIL_ROOM_ORDER, 'Studio Nuage SAS'])
  assert.equal(names(await found(ctx, 'ate')), ['Atelier Lumière SARL'], 'Atelier starts with it')
})

searching('a SIREN with or without spaces, whole or in part; the whole one first', async (ctx) => {
  for (const q of ['823456785', '823 456 785', '823\u00a0456 785']) {
    const page = await found(ctx, q)
    assert.equal(names(page), ['Boulangerie des Lilas SAS'], q)
    assert.equal(page.results[0]!.matches, [{ field: 'siren', value: '823 456 785' }])
    assert.is(page.results[0]!.siren, '823 456 785')
  }
  assert.equal(names(await found(ctx, '456 785')), ['Boulangerie des Lilas SAS'])
  assert.is((await found(ctx, '4567')).total, 4, 'four SIRENs hold 4567')
  assert.equal((await found(ctx, '823 456 789')).total, 0, 'a wrong key is another number')
})

searching('an e-mail address: the owner’s orders and those where it is a collaborator', async (ctx) => {
  const page = await found(ctx, 'associe@example.com')
  assert.equal(names(page), ['Boulangerie des Lilas SAS', 'Studio Nuage SAS'])
  assert.equal(page.results[0]!.matches, [{ field: 'collaboratorEmail', value: 'associe@example.com' }])
  assert.equal(page.results[1]!.matches, [{ field: 'ownerEmail', value: 'associe@example.com' }])
  assert.equal(names(await found(ctx, 'CABINET.DURAND')), ['Boulangerie des Lilas SAS'], 'an invitation not accepted yet')
})

searching('a person: owner, collaborator or representative, first name first or last', async (ctx) => {
  const julien = await found(ctx, 'julien moreau')
  assert.equal(names(julien), ['Boulangerie des Lilas SAS', 'Studio Nuage SAS'])
  assert.equal(julien.results[0]!.matches, [{ field: 'collaboratorName', value: 'Julien Moreau' }])
  assert.equal(julien.results[1]!.matches, [{ field: 'ownerName', value: 'Julien Moreau' }])
  assert.equal(names(await found(ctx, 'Moreau Julien')), names(julien))
  const lea = await found(ctx, 'lea fontaine')
  assert.equal(names(lea), ['Boulangerie des Lilas SAS'])
  assert.equal(lea.results[0]!.matches, [{ field: 'representativeName', value: 'Léa Fontaine' }])
  assert.equal((await found(ctx, 'lea.fontaine@')).results[0]!.matches, [
    { field: 'representativeEmail', value: 'lea.fontaine@example.com' },
  ])
  assert.equal(names(await found(ctx, 'Bernard')), ['Épicerie Solène SARL'])
})

searching('an order number comes first, written bare, with n° or #', async (ctx) => {
  for (const q of [String(ctx.ids.sharedOrder), `n° ${ctx.ids.sharedOrder}`, `#${ctx.ids.sharedOrder}`]) {
    const page = await found(ctx, q)
    assert.is(page.results[0]!.orderId, ctx.ids.sharedOrder, q)
    assert.equal(page.results[0]!.matches[0], { field: 'orderNumber', value: String(ctx.ids.sharedOrder) })
  }
})

searching('LIKE’s wildcards are letters here; nothing found is an empty page', async (ctx) => {
  for (const q of ['%%', '__', 'a_b', '\\\\', 'Transports Inconnus']) {
    const page = await found(ctx, q)
    assert.is(page.total, 0, q)
    assert.equal(page.results, [])
  }
})

searching('bad input: a French 400, whatever the operator', async (ctx) => {
  for (const [query, message] of [
    ['q=', 'Le champ « q » ne peut pas être vide.'],
    ['q=%20a%20', clientMessages.searchTooShort],
    [`q=${'x'.repeat(101)}`, 'Le champ « q » ne peut pas dépasser 100 caractères.'],
    ['q=a%0Ab', null],
    ['page=0', null],
    ['page=deux', null],
    ['tri=nom', null],
  ] as const) {
    const res = await search(ctx, query)
    assert.is(res.statusCode, 400, `${query}: ${res.body}`)
    if (message) assert.is(res.json().message, message, query)
    else assert.match(res.json().message, /^Le (champ|paramètre) « (q|page|tri) » /, query)
  }
})

searching('every operator searches; a customer or a machine cannot', async (ctx) => {
  const courrier = await operatorLogin(ctx.t, 'courrier@example.com')
  assert.is((await search(ctx, 'q=lilas', courrier)).statusCode, 200)
  assert.is((await search(ctx, 'q=lilas', ctx.camille)).statusCode, 401)
  assert.is((await search(ctx, 'q=lilas', TEST_OPERATOR_TOKEN)).statusCode, 401)
})

searching.run()

const page = suite<Ctx>('Clients: an order’s page')
page.before(async (ctx) => void (await demoContext(ctx)))
page.after((ctx) => ctx.t?.close())

const orderPage = async (ctx: Ctx, id: number) => {
  const res = await ctx.t.app.inject({ method: 'GET', url: `/api/backoffice/orders/${id}`, headers: auth(ctx.admin) })
  assert.is(res.statusCode, 200, res.body)
  return res.json()
}

page('the Boulangerie: company, owner, people, subscription, invoices, documents, counts', async (ctx) => {
  const order = await orderPage(ctx, ctx.ids.order)
  assert.equal(
    { raisonSociale: order.raisonSociale, siren: order.siren, legalForm: order.legalForm, status: order.status, startsOn: order.startsOn },
    { raisonSociale: 'Boulangerie des Lilas SAS', siren: '823 456 785', legalForm: 'SAS', status: 'Finalisé', startsOn: null },
  )
  assert.is(order.owner.email, 'demo@example.com')
  assert.is(order.owner.firstname, 'Camille')
  assert.equal(
    order.collaborators.map((c: { email: string; name: string | null; state: string }) => [c.email, c.name, c.state]),
    [
      ['associe@example.com', 'Julien Moreau', 'active'],
      ['cabinet.durand@example.com', null, 'invited'],
    ],
  )
  assert.equal(
    order.representatives.map((m: { firstname: string; lastname: string }) => `${m.firstname} ${m.lastname}`),
    ['Léa Fontaine'],
  )
  assert.equal(
    order.subscription.items.map((i: { planId: string }) => i.planId),
    ['domiciliation-annuelle', 'option-scan-annuelle'],
  )
  assert.is(order.subscription.items[0].amountCents, 29000)
  assert.is(order.subscriptionUnavailable, false)
  assert.is(order.invoices.length, 15, '12 subscription invoices and 3 meeting rooms')
  assert.is(order.invoices.filter((i: { paidAt: string | null }) => i.paidAt === null).length, 1, 'the unpaid one')
  assert.is(order.creditNotes.length, 1)
  assert.is(order.documents.kbis.contractId, ctx.ids.contract)
  assert.ok(order.documents.kbis.filed)
  assert.ok(order.documents.kbis.filedAt)
  assert.is(order.documents.kbis.validatedAt, null, 'awaiting the team’s check')
  assert.is(order.forwardingAddress, '27 rue des Lilas, 75019 Paris, France')
  assert.equal(order.counts, { letters: 31, packagesWaiting: 2, pendingCourierRequests: 1 })
  assert.is(order.termination, null)
})

page('Conseil Horizon: the identity document asked; Studio Nuage: its Kbis validated', async (ctx) => {
  const horizon = await orderPage(ctx, ctx.ids.missingDocsOrder)
  assert.equal(horizon.documents.identity.required, [{ type: 'identity_manager', label: 'Pièce d’identité du gérant' }])
  assert.equal(horizon.documents.identity.uploaded, [])
  assert.is(horizon.documents.identity.validatedAt, null)
  assert.is(horizon.documents.kbis.filed, false)
  assert.is(horizon.status, 'En attente de pièces justificatives')
  const studio = await orderPage(ctx, ctx.ids.sharedOrder)
  assert.ok(studio.documents.kbis.validatedAt)
})

page('a termination asked shows; the payment provider away: the page without its subscription, said so', async (ctx) => {
  const asked = await send(ctx.t.app, 'terminationRequest', sampleFor('terminationRequest', ctx.ids, ctx.pdf), ctx.camille)
  assert.is(asked.statusCode, 200, asked.body)
  const { payments } = ctx.t.deps
  const getSubscription = payments.getSubscription
  payments.getSubscription = async () => {
    throw new Error('fournisseur injoignable')
  }
  try {
    const order = await orderPage(ctx, ctx.ids.order)
    assert.is(order.termination.reason, 'Déménagement du siège')
    assert.is(order.subscription, null)
    assert.is(order.subscriptionUnavailable, true)
  } finally {
    payments.getSubscription = getSubscription
  }
})

page('an unknown order: a French 404', async (ctx) => {
  for (const url of ['/api/backoffice/orders/999999', '/api/backoffice/orders/999999/timeline']) {
    const res = await ctx.t.app.inject({ method: 'GET', url, headers: auth(ctx.admin) })
    assert.is(res.statusCode, 404)
    assert.is(res.json().message, 'Domiciliation introuvable.')
  }
})

page.run()

const timeline = suite<Ctx>('Clients: an order’s timeline')
timeline.before(async (ctx) => void (await demoContext(ctx)))
timeline.after((ctx) => ctx.t?.close())

interface Entry {
  at: string
  kind: string
  label: string
  detail: string | null
  by: string | null
}
const timelineOf = async (ctx: Ctx, id: number, pageNumber = 1) => {
  const res = await ctx.t.app.inject({
    method: 'GET',
    url: `/api/backoffice/orders/${id}/timeline?page=${pageNumber}`,
    headers: auth(ctx.admin),
  })
  assert.is(res.statusCode, 200, res.body)
  return res.json() as { entries: Entry[]; total: number; pageSize: number }
}
const all = async (ctx: Ctx, id: number) => {
  const entries: Entry[] = []
  for (let n = 1; ; n++) {
    const one = await timelineOf(ctx, id, n)
    entries.push(...one.entries)
    if (entries.length >= one.total || one.entries.length === 0) return { entries, total: one.total }
  }
}

timeline('the Boulangerie’s whole story, newest first, page after page', async (ctx) => {
  const { entries, total } = await all(ctx, ctx.ids.order)
  assert.is(entries.length, total)
  for (let i = 1; i < entries.length; i++) assert.ok(entries[i - 1]!.at >= entries[i]!.at, `${entries[i - 1]!.at} before ${entries[i]!.at}`)
  const kinds = new Set(entries.map((e) => e.kind))
  for (const kind of ['order', 'contract', 'document', 'letter', 'package', 'courierRequest', 'invoice', 'payment', 'creditNote']) {
    assert.ok(kinds.has(kind), kind)
  }
  for (const kind of ['certificate', 'formality', 'people']) assert.ok(kinds.has(kind), kind)
  const labels = entries.map((e) => e.label)
  assert.ok(labels.includes('Kbis déposé'))
  assert.ok(labels.includes('Contrat de domiciliation signé'))
  assert.ok(labels.includes('Formalité « Modification du capital » : Terminée'))
  assert.ok(labels.includes('Mandataire ajouté : Léa Fontaine'))
  assert.ok(labels.includes('Colis reçu de Moulins Bourgeois'))
  assert.ok(labels.some((l) => /^Facture FA-\d{4}-823\d{3} réglée$/.test(l)))
  assert.is(entries.at(-1)!.label, 'Domiciliation commandée', 'the order is the oldest')
  assert.is(entries.at(-1)!.detail, 'Statut actuel : Finalisé')
  const letter = entries.find((e) => e.kind === 'letter')!
  assert.match(letter.label, /^Courrier reçu de /)
  assert.match(letter.detail!, /^(courrier|recommandé|administratif), \d pages?/)
})

timeline('what customers, machines and operators do shows at once, with who did it', async (ctx) => {
  const key = await ctx.t.app.inject({
    method: 'POST',
    url: '/api/backoffice/api-keys',
    payload: { name: 'Scanner salle 2' },
    headers: auth(ctx.admin),
  })
  ctx.t.clock.advance(60_000)
  const problem = await call(ctx.t.app, ctx.camille, 'POST', `/api-protected/domiciliation-orders/${ctx.ids.order}:send-problem`, {
    message: 'Le courrier de la banque est illisible.',
  })
  assert.is(problem.statusCode, 200, problem.body)
  ctx.t.clock.advance(60_000)
  const parcel = await send(ctx.t.app, 'operatorAddPackage', sampleFor('operatorAddPackage', ctx.ids, ctx.pdf), key.json().key)
  assert.is(parcel.statusCode, 200)
  const newest = (await timelineOf(ctx, ctx.ids.order)).entries.slice(0, 3)
  assert.equal(
    newest.map((e) => [e.kind, e.label, e.by]),
    [
      ['journal', 'Colis ajouté pour Boulangerie des Lilas SAS : de Moulins Bourgeois, par Colissimo', 'clé d’API « Scanner salle 2 »'],
      ['package', 'Colis reçu de Moulins Bourgeois', null],
      ['problem', 'Problème signalé', 'Camille Martin'],
    ],
  )
  assert.is(newest[2]!.detail, 'Le courrier de la banque est illisible.')
})

timeline.run()
