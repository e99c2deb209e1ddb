// The back office's Justificatifs and Formalités juridiques: the Kbis and identity documents waiting, oldest first with
// their order's name and SIREN; validated or refused with a reason, the version read or a 412; a refusal e-mailed and
// shown in the portal (the Kbis banner's data, /missing-document's list) until another file; the dashboard's queue; the
// formalities moved on by Conformité. Every write journaled; a Courrier operator gets a 403, a customer a 401.
// tests: on S3 too (under scripts/with-s3.sh its apps store on the S3 server: scripts/uvu-summary.mjs)
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { LightMyRequestResponse } from 'fastify'
import { addConformiteOperator, callBearer, operatorLogin, type TestApp } from '../../util/server.ts'
import { demoContext, multipart, send, type DemoContext } from '../../util/server-samples.ts'

interface Ctx extends DemoContext {
  admin: string
  courrier: string
  conformite: string
  atelierContract: number
}

const ok = (res: LightMyRequestResponse) => {
  assert.is(res.statusCode, 200, res.body)
  return res.json()
}
const bo = (t: TestApp, token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  callBearer(t.app, token, method, url, payload)
const journal = (ctx: Ctx, action: string) =>
  ctx.t.deps.db.selectFrom('journal').selectAll().where('action', '=', action).orderBy('id').execute()
const myOrder = async (ctx: Ctx, id: number) =>
  ok(await send(ctx.t.app, 'myOrders', {}, ctx.camille)).find((o: { id: number }) => o.id === id)
const atelierId = async (ctx: Ctx) =>
  (await ctx.t.deps.db.selectFrom('orders').select('id').where('raison_sociale', '=', 'Atelier Lumière SARL').executeTakeFirstOrThrow()).id
const putKbis = (ctx: Ctx) =>
  callBearer(ctx.t.app, ctx.camille, 'PUT', `/api-protected/contracts/${ctx.atelierContract}`, {
    kbis: `data:application/pdf;base64,${ctx.pdf.toString('base64')}`,
  })
const waiting = async (ctx: Ctx) => ok(await bo(ctx.t, ctx.conformite, 'GET', '/api/backoffice/justificatifs'))
const atelierKbis = async (ctx: Ctx) =>
  (await waiting(ctx)).find((j: { kind: string; id: number }) => j.kind === 'kbis' && j.id === ctx.atelierContract)

const setup = async (ctx: Ctx) => {
  await demoContext(ctx)
  const { db } = ctx.t.deps
  await addConformiteOperator(ctx.t)
  ctx.admin = await operatorLogin(ctx.t)
  ctx.courrier = await operatorLogin(ctx.t, 'courrier@example.com')
  ctx.conformite = await operatorLogin(ctx.t, 'conformite@example.com')
  ctx.atelierContract = (
    await db
      .selectFrom('contracts')
      .innerJoin('orders', 'orders.id', 'contracts.order_id')
      .select('contracts.id')
      .where('orders.raison_sociale', '=', 'Atelier Lumière SARL')
      .executeTakeFirstOrThrow()
  ).id
}

const kbis = suite<Ctx>('Justificatifs: a Kbis refused with a reason, the banner comes back, another validated')
kbis.before(setup)
kbis.after((ctx) => ctx.t?.close())

kbis('the waiting list: oldest first, with the company name and SIREN; the dashboard counts exactly it', async (ctx) => {
  ok(await putKbis(ctx))
  const list = await waiting(ctx)
  const times = list.map((j: { filedAt: string }) => j.filedAt)
  assert.equal(times, [...times].sort(), 'oldest first')
  assert.ok(list.every((j: { status: string }) => j.status === 'à vérifier'))
  const filed = await atelierKbis(ctx)
  assert.equal([filed.raisonSociale, filed.label, filed.contentType], ['Atelier Lumière SARL', 'Kbis', 'application/pdf'])
  const boulangerie = list.find((j: { raisonSociale: string }) => j.raisonSociale === 'Boulangerie des Lilas SAS')
  assert.is(boulangerie.siren, '823 456 785', 'the demo Boulangerie’s Kbis awaits the check')
  const board = ok(await bo(ctx.t, ctx.conformite, 'GET', '/api/backoffice/dashboard'))
  const queue = board.queues.find((q: { id: string }) => q.id === 'justificatifs')
  assert.is(queue.count, list.length)
  assert.is(new Date(queue.oldestAt).getTime(), new Date(list[0].filedAt).getTime())
})

kbis('the file opened carries its version (ETag); Courrier gets a 403, a customer a 401', async (ctx) => {
  const filed = await atelierKbis(ctx)
  const file = await bo(ctx.t, ctx.conformite, 'GET', `/api/backoffice/justificatifs/kbis/${ctx.atelierContract}/file`)
  assert.is(file.statusCode, 200)
  assert.is(file.headers.etag, filed.version)
  assert.is(file.rawPayload.subarray(0, 5).toString(), '%PDF-')
  for (const [method, url, body] of [
    ['GET', '/api/backoffice/justificatifs', undefined],
    ['GET', `/api/backoffice/justificatifs/kbis/${ctx.atelierContract}/file`, undefined],
    ['POST', `/api/backoffice/justificatifs/kbis/${ctx.atelierContract}:refuse`, { version: filed.version, reason: 'illisible' }],
  ] as const) {
    const courrier = await bo(ctx.t, ctx.courrier, method, url, body)
    assert.is(courrier.statusCode, 403, courrier.body)
    assert.match(courrier.json().message, 'Conformité')
    assert.is((await bo(ctx.t, ctx.camille, method, url, body)).statusCode, 401)
  }
  assert.is((await atelierKbis(ctx)).status, 'à vérifier', 'nothing decided')
})

kbis('bad reasons: a French 400 and nothing changed', async (ctx) => {
  const filed = await atelierKbis(ctx)
  const url = `/api/backoffice/justificatifs/kbis/${ctx.atelierContract}:refuse`
  for (const [body, expected] of [
    [{ version: filed.version, reason: 'autre' }, 'Précisez le motif du refus'],
    [{ version: filed.version, reason: 'autre', detail: '   ' }, 'Précisez le motif du refus'],
    [{ version: filed.version, reason: 'flou' }, 'reason'],
    [{ reason: 'illisible' }, 'version'],
  ] as const) {
    const res = await bo(ctx.t, ctx.conformite, 'POST', url, body)
    assert.is(res.statusCode, 400, res.body)
    assert.match(res.json().message, expected)
  }
  const kinds = await bo(ctx.t, ctx.conformite, 'POST', `/api/backoffice/justificatifs/passeport/${ctx.atelierContract}:refuse`, {
    version: filed.version,
    reason: 'illisible',
  })
  assert.is(kinds.statusCode, 400, kinds.body)
  assert.is((await atelierKbis(ctx)).status, 'à vérifier')
  assert.is((await journal(ctx, 'justificatif.refused')).length, 0)
})

kbis('refused as « illisible »: e-mailed, journaled, the banner’s data back (hasKbis false, the reason); out of the list', async (ctx) => {
  const filed = await atelierKbis(ctx)
  const mails = ctx.t.mails.length
  const refused = ok(
    await bo(ctx.t, ctx.conformite, 'POST', `/api/backoffice/justificatifs/kbis/${ctx.atelierContract}:refuse`, {
      version: filed.version,
      reason: 'illisible',
      detail: 'ignoré pour ce motif',
    }),
  )
  assert.equal(
    [refused.justificatif.status, refused.justificatif.refusal, refused.notified],
    ['refusé', { reason: 'illisible', detail: null, text: 'document illisible' }, true],
  )
  const mail = ctx.t.mails.slice(mails).find((m) => m.to === 'demo@example.com')!
  assert.ok(mail, 'the owner is e-mailed')
  assert.is(mail.subject, 'Votre Kbis a été refusé (Atelier Lumière SARL)')
  assert.match(mail.text, 'Le Kbis déposé pour Atelier Lumière SARL a été refusé : document illisible. Déposez-en un autre')
  const [row] = await journal(ctx, 'justificatif.refused')
  assert.equal([row!.order_id, row!.summary], [await atelierId(ctx), 'Kbis de Atelier Lumière SARL refusé : document illisible'])
  assert.is(row!.operator_id !== null, true)
  const order = await myOrder(ctx, await atelierId(ctx))
  assert.equal(
    [order.status, order.hasKbis, order.kbisRefusal.reason, order.kbisRefusal.detail],
    ['En attente de KBIS', false, 'illisible', null],
  )
  assert.is(await atelierKbis(ctx), undefined, 'no longer waiting')
  const again = await bo(ctx.t, ctx.conformite, 'POST', `/api/backoffice/justificatifs/kbis/${ctx.atelierContract}:validate`, {
    version: filed.version,
  })
  assert.is(again.statusCode, 409, 'decided once')
  assert.match(again.json().message, 'déjà été refusé')
})

kbis('another Kbis: the refusal is gone; the version read before is refused (412), the new one validated', async (ctx) => {
  const old = ok(await bo(ctx.t, ctx.conformite, 'GET', `/api/backoffice/justificatifs/kbis/${ctx.atelierContract}`))
  ok(await putKbis(ctx))
  const order = await myOrder(ctx, await atelierId(ctx))
  assert.equal([order.hasKbis, order.kbisRefusal], [true, null])
  const fresh = await atelierKbis(ctx)
  assert.is.not(fresh.version, old.version)
  const stale = await bo(ctx.t, ctx.conformite, 'POST', `/api/backoffice/justificatifs/kbis/${ctx.atelierContract}:validate`, {
    version: old.version,
  })
  assert.is(stale.statusCode, 412, stale.body)
  assert.match(stale.json().message, 'Le client a envoyé un autre fichier (Kbis) depuis celui que vous avez ouvert')
  assert.is((await atelierKbis(ctx)).status, 'à vérifier', 'never validated unseen')
  const validated = ok(
    await bo(ctx.t, ctx.conformite, 'POST', `/api/backoffice/justificatifs/kbis/${ctx.atelierContract}:validate`, {
      version: fresh.version,
    }),
  )
  assert.is(validated.justificatif.status, 'validé')
  const contract = ok(await callBearer(ctx.t.app, ctx.camille, 'GET', '/api-protected/contracts')).find(
    (c: { id: number }) => c.id === ctx.atelierContract,
  )
  assert.ok(contract.kbisValidatedAt)
  assert.is((await journal(ctx, 'justificatif.validated')).at(-1)!.summary, 'Kbis de Atelier Lumière SARL validé')
})

kbis.run()

const identity = suite<Ctx>('Justificatifs: identity documents refused then validated; the order’s file complete then')
identity.before(setup)
identity.after((ctx) => ctx.t?.close())

const uploadIdentity = (ctx: Ctx, fileName: string) => {
  const body = multipart({ orderId: String(ctx.ids.missingDocsOrder) }, [
    { field: 'identity_manager', filename: fileName, contentType: 'application/pdf', bytes: ctx.pdf },
  ])
  return ctx.t.app.inject({
    method: 'POST',
    url: '/step-upload-identity',
    headers: { ...body.headers, apitoken: ctx.camille },
    payload: body.payload,
  })
}
const uploaded = async (ctx: Ctx) =>
  ok(await send(ctx.t.app, 'uploadedDocuments', { params: { id: ctx.ids.missingDocsOrder } }, ctx.camille))

identity('« autre » with its words: the customer’s list says why, the e-mail too; sent again, the same document waits', async (ctx) => {
  const [sent] = ok(await uploadIdentity(ctx, 'cni.pdf')).uploaded
  const opened = ok(await bo(ctx.t, ctx.conformite, 'GET', `/api/backoffice/justificatifs/identite/${sent.id}`))
  assert.equal([opened.raisonSociale, opened.label, opened.fileName], ['Conseil Horizon EURL', 'Pièce d’identité du gérant', 'cni.pdf'])
  const refused = ok(
    await bo(ctx.t, ctx.conformite, 'POST', `/api/backoffice/justificatifs/identite/${sent.id}:refuse`, {
      version: opened.version,
      reason: 'autre',
      detail: ' La pièce est expirée depuis 2023. ',
    }),
  )
  assert.equal([refused.justificatif.refusal.text, refused.orderValidatedAt], ['La pièce est expirée depuis 2023', null])
  assert.equal(
    (await uploaded(ctx)).map((d: { status: string; refusal: unknown }) => [d.status, d.refusal]),
    [['refusé', { reason: 'autre', text: 'La pièce est expirée depuis 2023' }]],
  )
  assert.match(ctx.t.mails.at(-1)!.text, 'Le document « Pièce d’identité du gérant » envoyé pour Conseil Horizon EURL a été refusé')
  assert.is(ctx.t.mails.at(-1)!.link, `${ctx.t.deps.config.publicUrl}/missing-document`)
  const again = ok(await uploadIdentity(ctx, 'cni-2.pdf')).uploaded[0]
  assert.equal([again.id, again.status, again.refusal], [sent.id, 'à vérifier', null], 'the same document, its check started over')
  const stale = await bo(ctx.t, ctx.conformite, 'POST', `/api/backoffice/justificatifs/identite/${sent.id}:validate`, {
    version: opened.version,
  })
  assert.is(stale.statusCode, 412, stale.body)
  assert.is((await myOrder(ctx, ctx.ids.missingDocsOrder)).missingDocumentsValidatedAt, null)
})

identity('validated: the order’s missingDocumentsValidatedAt is set (spec §4 no longer sends to /missing-document)', async (ctx) => {
  const [document] = await uploaded(ctx)
  const opened = ok(await bo(ctx.t, ctx.admin, 'GET', `/api/backoffice/justificatifs/identite/${document.id}`))
  const validated = ok(
    await bo(ctx.t, ctx.admin, 'POST', `/api/backoffice/justificatifs/identite/${document.id}:validate`, { version: opened.version }),
  )
  assert.ok(validated.orderValidatedAt)
  assert.is((await myOrder(ctx, ctx.ids.missingDocsOrder)).missingDocumentsValidatedAt, validated.orderValidatedAt)
  assert.equal(
    (await uploaded(ctx)).map((d: { status: string }) => d.status),
    ['validé'],
  )
  const [row] = (await journal(ctx, 'justificatif.validated')).filter((r) => r.order_id === ctx.ids.missingDocsOrder)
  assert.is(row!.summary, 'Pièce d’identité du gérant de Conseil Horizon EURL validé')
  assert.equal((row!.after as { missingDocumentsValidatedAt: string }).missingDocumentsValidatedAt, validated.orderValidatedAt)
})

identity.run()

const formalities = suite<Ctx>('Formalités juridiques: moved on by Conformité, forward only, dated, the owner told, journaled')
formalities.before(setup)
formalities.after((ctx) => ctx.t?.close())

formalities('under way first, oldest first; one step forward; never back; Courrier 403', async (ctx) => {
  const list = ok(await bo(ctx.t, ctx.conformite, 'GET', '/api/backoffice/legal-submissions'))
  const firstDone = list.findIndex((s: { status: string }) => s.status === 'Terminée')
  assert.ok(firstDone > 0, 'the demo has a finished one, after those under way')
  assert.ok(list.slice(firstDone).every((s: { status: string }) => s.status === 'Terminée'))
  const studio = list.find((s: { raisonSociale: string }) => s.raisonSociale === 'Studio Nuage SAS')
  assert.is(studio.status, 'En cours')
  const url = `/api/backoffice/legal-submissions/${studio.id}/status`
  assert.is((await bo(ctx.t, ctx.courrier, 'PUT', url, { status: 'Déposée au greffe' })).statusCode, 403)
  assert.is((await bo(ctx.t, ctx.camille, 'PUT', url, { status: 'Déposée au greffe' })).statusCode, 401)
  const mails = ctx.t.mails.length
  const moved = ok(await bo(ctx.t, ctx.conformite, 'PUT', url, { status: 'Déposée au greffe' }))
  assert.equal([moved.status, moved.filedAt !== null], ['Déposée au greffe', true])
  assert.equal(
    ctx.t.mails.slice(mails).map((m) => [m.to, m.link]),
    [['associe@example.com', `${ctx.t.deps.config.publicUrl}/formalites`]],
  )
  const [row] = await journal(ctx, 'formality.moved')
  assert.match(row!.summary, 'de Studio Nuage SAS : En cours → Déposée au greffe')
  assert.ok(row!.operator_id, 'the operator is named')
  const back = await bo(ctx.t, ctx.conformite, 'PUT', url, { status: 'En cours' })
  assert.is(back.statusCode, 409)
  assert.match(back.json().message, 'elle ne peut qu’avancer')
  const unknown = await bo(ctx.t, ctx.conformite, 'PUT', url, { status: 'Archivée' })
  assert.is(unknown.statusCode, 400)
  assert.is((await journal(ctx, 'formality.moved')).length, 1)
})

formalities.run()
