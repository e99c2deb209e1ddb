// A person leaving: closing an account (refused while a domiciliation owned is active, the password typed again, a
// collaborator free to go; sessions, passkeys and personal data gone at once, the address free again, invoices and the
// order kept for the provider) and a collaborator leaving a shared order.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { peopleWantingEachEmail } from '../../../server/db/repositories/notifications.ts'
import { addDays, parisDay } from '../../../server/lib/time.ts'
import { closingMessages } from '../../../server/routes/people/closing.ts'
import { buildTestApp, call, callBearer, DEMO_PASSWORD, login, operatorLogin, type TestApp } from '../../util/server.ts'
import { demoIds, type DemoIds } from '../../util/server-samples.ts'

interface Ctx {
  t: TestApp
  ids: DemoIds
  camille: string
  /** Sophie's only order, Épicerie Solène SARL. */
  epicerie: number
  sophieId: number
}

const CLOSE = '/api-protected/users/me/close'
const close = (ctx: Ctx, token: string, password = DEMO_PASSWORD) => call(ctx.t.app, token, 'POST', CLOSE, { password })
const leave = (ctx: Ctx, token: string, orderId: number) =>
  call(ctx.t.app, token, 'POST', `/api-protected/domiciliation-orders/${orderId}/leave`)
const dayIn = (ctx: Ctx, days: number) => parisDay(addDays(ctx.t.clock.now(), days))

async function setup(ctx: Ctx) {
  ctx.t = await buildTestApp()
  ctx.ids = await demoIds(ctx.t.deps.db)
  ctx.camille = await login(ctx.t.app)
  const { db } = ctx.t.deps
  ctx.epicerie = (
    await db.selectFrom('orders').select('id').where('raison_sociale', '=', 'Épicerie Solène SARL').executeTakeFirstOrThrow()
  ).id
  ctx.sophieId = (await db.selectFrom('users').select('id').where('email', '=', 'solo@example.com').executeTakeFirstOrThrow()).id
}

/** A termination of Sophie's order on `date` (YYYY-MM-DD). */
const terminateEpicerie = (ctx: Ctx, date: string) =>
  ctx.t.deps.db
    .insertInto('termination_requests')
    .values({ order_id: ctx.epicerie, user_id: ctx.sophieId, reason: 'Cessation d’activité', date, comment: null })
    .onConflict((oc) => oc.column('order_id').doUpdateSet({ date }))
    .execute()

const owner = suite<Ctx>('closing the account of a domiciliation’s owner')
owner.before(setup)
owner.after((ctx) => ctx.t?.close())

owner('refused while the domiciliation is active, in French, saying why; nothing changes', async (ctx) => {
  const sophie = await login(ctx.t.app, 'solo@example.com')
  const refused = await close(ctx, sophie)
  assert.is(refused.statusCode, 409, refused.body)
  assert.is(
    refused.json().message,
    'Votre domiciliation Épicerie Solène SARL est active : demandez d’abord sa résiliation dans « Mes abonnements » ; vous pourrez fermer votre compte une fois la date de résiliation passée.',
  )
  // A termination asked for, its day still to come (today included).
  await terminateEpicerie(ctx, dayIn(ctx, 0))
  const until = await close(ctx, sophie)
  assert.is(until.statusCode, 409)
  assert.match(
    until.json().message,
    /^Votre domiciliation Épicerie Solène SARL est active jusqu’au \d{1,2} \S+ \d{4} : vous pourrez fermer/,
  )
  assert.is((await call(ctx.t.app, sophie, 'GET', '/api-protected/user/me')).statusCode, 200, 'still signed in')
  assert.ok(await login(ctx.t.app, 'solo@example.com'), 'still able to sign in')
  assert.not.ok(ctx.t.mails.some((m) => m.subject.includes('votre compte est fermé')))
})

owner('a wrong password is a French 400 and closes nothing', async (ctx) => {
  const sophie = await login(ctx.t.app, 'solo@example.com')
  const wrong = await close(ctx, sophie, 'pas le bon mot de passe')
  assert.is(wrong.statusCode, 400)
  assert.equal(wrong.json(), { message: closingMessages.badPassword, statusCode: 400, code: 'BAD_PASSWORD' })
  const row = await ctx.t.deps.db
    .selectFrom('users')
    .select(['email', 'closed_at'])
    .where('id', '=', ctx.sophieId)
    .executeTakeFirstOrThrow()
  assert.equal(row, { email: 'solo@example.com', closed_at: null })
})

owner(
  'once the termination day has passed: closed, sessions and passkeys gone, data erased, invoices kept for the provider',
  async (ctx) => {
    const { db } = ctx.t.deps
    await terminateEpicerie(ctx, dayIn(ctx, -1))
    const sophie = await login(ctx.t.app, 'solo@example.com')
    const otherDevice = await login(ctx.t.app, 'solo@example.com')
    await db
      .insertInto('passkeys')
      .values({
        user_id: ctx.sophieId,
        credential_id: 'cle-de-sophie',
        public_key: 'pQECAyYgASFYIA',
        counter: 0,
        transports: '[]',
        name: 'Téléphone',
      })
      .execute()
    const admin = await operatorLogin(ctx.t)
    const before = (await callBearer(ctx.t.app, admin, 'GET', `/api/backoffice/orders/${ctx.epicerie}`)).json()
    assert.ok(before.invoices.length > 0, 'the demo order has invoices')

    const closed = await close(ctx, sophie)
    assert.is(closed.statusCode, 200, closed.body)
    assert.is(closed.json().message, closingMessages.closed)

    // The confirmation went to the address the account had, in French.
    const mail = ctx.t.mails.at(-1)!
    assert.is(mail.to, 'solo@example.com')
    assert.match(mail.subject, 'votre compte est fermé')
    assert.match(mail.text, 'Bonjour Sophie')
    assert.match(mail.text, 'L123-22')
    assert.match(mail.text, 'L561-12')

    // Every session ends at once, on every device; signing in fails.
    for (const token of [sophie, otherDevice]) assert.is((await call(ctx.t.app, token, 'GET', '/api-protected/user/me')).statusCode, 401)
    const signIn = await ctx.t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'solo@example.com', password: DEMO_PASSWORD },
    })
    assert.is(signIn.statusCode, 401)
    assert.is((await db.selectFrom('passkeys').select('id').where('user_id', '=', ctx.sophieId).execute()).length, 0)
    assert.is((await db.selectFrom('api_tokens').select('id').where('user_id', '=', ctx.sophieId).execute()).length, 0)

    // The row stays for the order it owns, without anything that names or reaches her.
    const row = await db.selectFrom('users').selectAll().where('id', '=', ctx.sophieId).executeTakeFirstOrThrow()
    assert.equal([row.firstname, row.lastname, row.phone, row.password_hash], ['Compte', 'fermé', null, ''])
    assert.match(row.email, /^compte-ferme-\d+-[a-z0-9_-]+@ferme\.invalid$/)
    assert.ok(row.closed_at)

    // The provider still lists the order's invoices, and its timeline tells who closed the account.
    const after = (await callBearer(ctx.t.app, admin, 'GET', `/api/backoffice/orders/${ctx.epicerie}`)).json()
    assert.equal(after.invoices, before.invoices)
    assert.is(after.owner.email.endsWith('@ferme.invalid'), true)
    const timeline = (await callBearer(ctx.t.app, admin, 'GET', `/api/backoffice/orders/${ctx.epicerie}/timeline?page=1`)).json()
    const entry = timeline.entries.find((e: { label: string }) => e.label.startsWith('Le titulaire a fermé son compte'))
    assert.ok(entry, JSON.stringify(timeline.entries.slice(0, 3)))
    assert.is(entry.by, 'le client (fermeture de son compte)')
    assert.equal(await peopleWantingEachEmail(db, ctx.epicerie), [], 'a letter that still comes e-mails no one')
    const journal = await db.selectFrom('journal').selectAll().where('action', '=', 'account.closed').execute()
    assert.equal(
      journal.map((j) => [j.order_id, j.system_actor, j.operator_id, j.api_key_id]),
      [[ctx.epicerie, 'customer', null, null]],
    )
  },
)

owner('the address can be used again for a new account', async (ctx) => {
  const invited = await call(ctx.t.app, ctx.camille, 'POST', `/api-protected/domiciliation-orders/${ctx.ids.order}/invite`, {
    emails: ['solo@example.com'],
  })
  assert.is(invited.statusCode, 200, invited.body)
  const token = ctx.t.mails
    .filter((m) => m.to === 'solo@example.com')
    .at(-1)!
    .link!.split('/invitation/')[1]!
  const info = (await call(ctx.t.app, null, 'GET', `/api/invitations/${token}`)).json()
  assert.is(info.hasAccount, false, 'the closed account no longer holds it')
  const made = await call(ctx.t.app, null, 'POST', `/api/invitations/${token}/account`, {
    firstname: 'Sophie',
    lastname: 'Bernard',
    password: 'trois mots au hasard',
  })
  assert.is(made.statusCode, 200, made.body)
  assert.ok(await login(ctx.t.app, 'solo@example.com', 'trois mots au hasard'))
})

owner('closing twice: the second call has no session left', async (ctx) => {
  const token = await login(ctx.t.app, 'solo@example.com', 'trois mots au hasard')
  assert.is((await close(ctx, token, 'trois mots au hasard')).statusCode, 200, 'a collaborator only: free to go')
  assert.is((await close(ctx, token, 'trois mots au hasard')).statusCode, 401)
})

owner.run()

const collaborator = suite<Ctx>('a collaborator: closing the account, leaving a shared order')
collaborator.before(setup)
collaborator.after((ctx) => ctx.t?.close())

collaborator(
  'a person who only collaborates closes their account while the order stays active; its owner no longer lists them',
  async (ctx) => {
    await call(ctx.t.app, ctx.camille, 'POST', `/api-protected/domiciliation-orders/${ctx.ids.order}/invite`, {
      emails: ['lea@example.com'],
    })
    const token = ctx.t.mails
      .filter((m) => m.to === 'lea@example.com')
      .at(-1)!
      .link!.split('/invitation/')[1]!
    const lea = (
      await call(ctx.t.app, null, 'POST', `/api/invitations/${token}/account`, {
        firstname: 'Léa',
        lastname: 'Fontaine',
        password: 'trois mots au hasard',
      })
    ).json().user.apiToken
    assert.is((await call(ctx.t.app, lea, 'GET', `/api-protected/documents?orderId=${ctx.ids.order}`)).statusCode, 200)
    const closed = await close(ctx, lea, 'trois mots au hasard')
    assert.is(closed.statusCode, 200, closed.body)
    const shares = (await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/domiciliation-orders/${ctx.ids.order}/shares`)).json()
    assert.not.ok(shares.some((s: { email: string }) => s.email === 'lea@example.com'))
    assert.is(
      (await ctx.t.deps.db.selectFrom('journal').select('id').where('action', '=', 'account.closed').execute()).length,
      0,
      'no order of hers to tell',
    )
  },
)

collaborator('Julien leaves the Boulangerie: its mail is no longer his; his own order stays; the owner cannot leave', async (ctx) => {
  const julien = await login(ctx.t.app, 'associe@example.com')
  const sophie = await login(ctx.t.app, 'solo@example.com')
  assert.is((await leave(ctx, sophie, ctx.ids.order)).statusCode, 404, 'a stranger learns nothing')
  const owned = await leave(ctx, ctx.camille, ctx.ids.order)
  assert.is(owned.statusCode, 409)
  assert.is(owned.json().message, closingMessages.owner)
  const left = await leave(ctx, julien, ctx.ids.order)
  assert.is(left.statusCode, 200, left.body)
  assert.is(left.json().message, 'Vous n’avez plus accès au courrier de Boulangerie des Lilas SAS.')
  assert.is((await call(ctx.t.app, julien, 'GET', `/api-protected/documents?orderId=${ctx.ids.order}`)).statusCode, 404)
  const orders = (await call(ctx.t.app, julien, 'GET', '/api-protected/my-domiciliation-orders')).json()
  assert.equal(
    orders.map((o: { raisonSociale: string }) => o.raisonSociale),
    ['Studio Nuage SAS'],
  )
  const shares = (await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/domiciliation-orders/${ctx.ids.order}/shares`)).json()
  assert.not.ok(shares.some((s: { email: string }) => s.email === 'associe@example.com'))
  assert.is((await leave(ctx, julien, ctx.ids.order)).statusCode, 404, 'once')
})

collaborator.run()
