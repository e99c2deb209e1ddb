// A password reset through the e-mailed link (the recovery path) removes the account's passkeys; a change does not.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql, type Transaction } from 'kysely'
import type { FastifyInstance } from 'fastify'
import { messages } from '../../../server/http/errors.ts'
import { passkeyMessages } from '../../../server/routes/session/passkeys.ts'
import { changeEmailWithRevertLink } from '../../../server/db/repositories/people-email-reverts.ts'
import { addPasskeyForSession, openPasskeySession } from '../../../server/db/repositories/session-passkeys.ts'
import { createPasswordResetToken } from '../../../server/db/repositories/session.ts'
import type { Database } from '../../../server/db/schema.ts'
import { hashPassword, sha256 } from '../../../server/lib/crypto.ts'
import { holdLocks, untilLockWaiters } from '../../util/postgres.ts'
import { buildTestApp, call, DEMO_PASSWORD, eventually, login, secondApp, type TestApp } from '../../util/server.ts'
import { SoftPasskey } from '../../util/webauthn.ts'

interface Ctx {
  t: TestApp
}

const soft = () => new SoftPasskey({ origin: 'http://localhost:8080', rpId: 'localhost' })

async function addPasskey(t: TestApp, token: string, name: string): Promise<SoftPasskey> {
  const key = soft()
  const options = (await call(t.app, token, 'POST', '/api-protected/users/me/passkeys/registration-options')).json()
  const added = await call(t.app, token, 'POST', '/api-protected/users/me/passkeys', { credential: key.register(options), name })
  assert.is(added.statusCode, 200, added.body)
  return key
}

async function passkeyLogin(t: TestApp, key: SoftPasskey) {
  const options = (await t.app.inject({ method: 'POST', url: '/api/passkeys/login-options' })).json()
  return t.app.inject({ method: 'POST', url: '/api/passkeys/login', payload: { credential: key.authenticate(options) } })
}

async function resetByLink(t: TestApp, email: string, password: string) {
  const before = t.mails.length
  await t.app.inject({ method: 'POST', url: '/reset-password-request', payload: { email, domain: 'http://localhost:8080' } })
  const mail = await eventually(() => t.mails.slice(before).find((m) => m.to === email && m.link?.includes('/set-password/')))
  return t.app.inject({ method: 'POST', url: '/reset-password', payload: { token: mail.link!.split('/set-password/')[1], password } })
}

const passkeysList = async (t: TestApp, token: string) =>
  (await call(t.app, token, 'GET', '/api-protected/users/me/passkeys')).json() as { name: string }[]

const recovery = suite<Ctx>('passkeys and the recovery of an account')
recovery.before(async (ctx) => {
  ctx.t = await buildTestApp()
})
recovery.after((ctx) => ctx.t?.close())

recovery('a passkey added with a stolen session does not survive the owner’s reset through the e-mailed link', async ({ t }) => {
  const thief = await login(t.app, 'associe@example.com')
  const stolenKey = await addPasskey(t, thief, 'Téléphone du voleur')
  const owner = await login(t.app, 'associe@example.com')
  const ownKey = await addPasskey(t, owner, 'Mon ordinateur')
  assert.is((await passkeysList(t, owner)).length, 2)

  const reset = await resetByLink(t, 'associe@example.com', 'Repris-en-main-2024')
  assert.is(reset.statusCode, 200, reset.body)
  const back = await login(t.app, 'associe@example.com', 'Repris-en-main-2024')
  assert.equal(await passkeysList(t, back), [], 'every key of the account went')
  for (const key of [stolenKey, ownKey]) {
    const again = await passkeyLogin(t, key)
    assert.is(again.statusCode, 401, again.body)
    assert.is(again.json().code, 'UNKNOWN_PASSKEY')
  }
  const rows = await t.deps.db
    .selectFrom('passkeys')
    .innerJoin('users', 'users.id', 'passkeys.user_id')
    .select('passkeys.id')
    .where('users.email', '=', 'associe@example.com')
    .execute()
  assert.is(rows.length, 0)
  assert.is(
    reset.json().message,
    'Votre mot de passe a été modifié, vous pouvez vous connecter. Vos clés d’accès ont été supprimées : vous pourrez en ajouter une depuis « Informations personnelles ».',
  )
  // A new key can be added afterwards, and signs in.
  const fresh = await addPasskey(t, back, 'Nouvelle clé')
  assert.is((await passkeyLogin(t, fresh)).statusCode, 200)
})

recovery('one key removed is said in the singular; none, nothing is said of keys; another account keeps its keys', async ({ t }) => {
  const camille = await login(t.app, 'demo@example.com')
  const camilleKey = await addPasskey(t, camille, 'Téléphone de Camille')
  const sophie = await login(t.app, 'solo@example.com')
  await addPasskey(t, sophie, 'Téléphone de Sophie')
  const one = await resetByLink(t, 'solo@example.com', 'Un-autre-secret-2024')
  assert.is(
    one.json().message,
    'Votre mot de passe a été modifié, vous pouvez vous connecter. Votre clé d’accès a été supprimée : vous pourrez en ajouter une depuis « Informations personnelles ».',
  )
  const none = await resetByLink(t, 'solo@example.com', 'Encore-un-secret-2024')
  assert.is(none.json().message, 'Votre mot de passe a été modifié, vous pouvez vous connecter.')
  assert.is((await passkeysList(t, camille)).length, 1, 'Camille’s key stays')
  assert.is((await passkeyLogin(t, camilleKey)).statusCode, 200)
})

recovery('an ordinary password change (the current password given) keeps the keys', async ({ t }) => {
  const camille = await login(t.app, 'demo@example.com')
  const before = await passkeysList(t, camille)
  assert.ok(before.length > 0)
  const key = await addPasskey(t, camille, 'Tablette')
  const changed = await call(t.app, camille, 'PUT', '/api-protected/users/me/password', {
    currentPassword: DEMO_PASSWORD,
    newPassword: 'Change-sans-perte-2024',
  })
  assert.is(changed.statusCode, 200, changed.body)
  assert.is((await passkeysList(t, camille)).length, before.length + 1)
  assert.is((await passkeyLogin(t, key)).statusCode, 200)
})

recovery.run()

// ——— Passkeys racing the account's recovery. A reset by the e-mailed link and a revert link (« Ce n’était pas vous ? »)
// remove every key and end every session, in one transaction holding the user's row. A registration or a passkey
// sign-in that finishes meanwhile must leave behind it neither a key nor a session: the thief's key or session would
// outlive the recovery meant to shut them out.

const PASSWORD = 'le mot de passe du titulaire'
const passwordHash = hashPassword(PASSWORD)
let accounts = 0
/** An account of the test's own (a reset or a revert changes the password: the demo accounts are left alone). */
async function account(t: TestApp) {
  const email = `course.${++accounts}@example.com`
  const { id } = await t.deps.db
    .insertInto('users')
    .values({ email, password_hash: await passwordHash, firstname: 'Titulaire', lastname: 'Test' })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id, email, session: await login(t.app, email, PASSWORD) }
}
const keysOf = async (t: TestApp, userId: number) =>
  (await t.deps.db.selectFrom('passkeys').select('id').where('user_id', '=', userId).execute()).length
const sessionsOf = async (t: TestApp, userId: number) =>
  (await t.deps.db.selectFrom('api_tokens').select('id').where('user_id', '=', userId).execute()).length
const registrationOptions = async (app: FastifyInstance, session: string) =>
  (await call(app, session, 'POST', '/api-protected/users/me/passkeys/registration-options')).json()
const register = (app: FastifyInstance, session: string, credential: unknown) =>
  call(app, session, 'POST', '/api-protected/users/me/passkeys', { credential })
const signInWith = (app: FastifyInstance, credential: unknown) =>
  app.inject({ method: 'POST', url: '/api/passkeys/login', payload: { credential } })
const loginOptions = async (app: FastifyInstance) => (await app.inject({ method: 'POST', url: '/api/passkeys/login-options' })).json()

/**
 * The two recoveries: a link made for the account, the row of that link (its lock stops the recovery just after it holds the user's row),
 * and the call.
 */
const recoveries = {
  reset: {
    link: async (t: TestApp, user: { id: number }) => createPasswordResetToken(t.deps.db, user.id, new Date(Date.now() + 3_600_000)),
    lockLink: (tx: Transaction<Database>, token: string) =>
      tx.selectFrom('password_resets').select('id').where('token_hash', '=', sha256(token)).forUpdate().execute(),
    run: (app: FastifyInstance, token: string) =>
      app.inject({ method: 'POST', url: '/reset-password', payload: { token, password: 'Repris-en-main-apres-vol' } }),
  },
  revert: {
    link: async (t: TestApp, user: { id: number; email: string }) => {
      const changed = await changeEmailWithRevertLink(t.deps.db, {
        userId: user.id,
        newEmail: `pirate.${user.id}@example.com`,
        now: new Date(),
        expiresAt: new Date(Date.now() + 86_400_000),
      })
      if (changed === 'reserved' || changed === 'ended' || changed.token === null) throw new Error('pas de lien de rétablissement')
      return changed.token
    },
    lockLink: (tx: Transaction<Database>, token: string) =>
      tx.selectFrom('email_change_reverts').select('id').where('token_hash', '=', sha256(token)).forUpdate().execute(),
    run: (app: FastifyInstance, token: string) => app.inject({ method: 'POST', url: `/api/email-change-reverts/${token}` }),
  },
} as const

// One after the other (PGlite runs one transaction at a time; PostgreSQL too): what a registration or a sign-in whose
// checks passed before the recovery writes after it.
const inTurn = suite<Ctx>('passkeys and a reset or a revert link, one after the other')
inTurn.before(async (ctx) => {
  ctx.t = await buildTestApp({ seed: false })
})
inTurn.after((ctx) => ctx.t?.close())

for (const [name, recovery] of Object.entries(recoveries)) {
  inTurn(
    `${name}: a key whose session it ended is not stored (the registration’s checks passed before it); one stored before goes`,
    async ({ t }) => {
      const user = await account(t)
      const before = soft()
      assert.is((await register(t.app, user.session, before.register(await registrationOptions(t.app, user.session)))).statusCode, 200)
      const credential = soft().register(await registrationOptions(t.app, user.session))
      assert.is((await recovery.run(t.app, await recovery.link(t, user))).statusCode, 200)
      assert.is(await keysOf(t, user.id), 0, 'the key stored before went')
      // The store of a registration checked before the recovery: refused, nothing written.
      const stored = await addPasskeyForSession(t.deps.db, {
        userId: user.id,
        credentialId: `cle-verifiee-avant-${user.id}`,
        publicKey: 'cle',
        counter: 0,
        transports: [],
        name: 'Téléphone du voleur',
        tokenHash: sha256(user.session),
        now: new Date(),
      })
      assert.is(stored, 'ended')
      assert.is(await keysOf(t, user.id), 0)
      const registered = await register(t.app, user.session, credential)
      assert.equal(registered.json(), { message: messages.badToken, statusCode: 401, code: 'INVALID_TOKEN' })
      if (name === 'reset') {
        // A session opened after the reset stores its key: the session is what is refused, not the account.
        const owner = await login(t.app, user.email, 'Repris-en-main-apres-vol')
        assert.is((await register(t.app, owner, soft().register(await registrationOptions(t.app, owner)))).statusCode, 200)
      }
    },
  )

  inTurn(
    `${name}: a sign-in whose key it removed opens no session (its signature checked before it); one opened before ends`,
    async ({ t }) => {
      const user = await account(t)
      const key = soft()
      const added = await register(t.app, user.session, key.register(await registrationOptions(t.app, user.session)))
      const before = await signInWith(t.app, key.authenticate(await loginOptions(t.app)))
      assert.is(before.statusCode, 200, before.body)
      const late = key.authenticate(await loginOptions(t.app))
      assert.is((await recovery.run(t.app, await recovery.link(t, user))).statusCode, 200)
      assert.is(
        (await call(t.app, before.json().apiToken, 'GET', '/api-protected/user/me')).statusCode,
        401,
        'the session opened before ended',
      )
      // The session of a sign-in checked before the recovery: refused, nothing written.
      const opened = await openPasskeySession(t.deps.db, {
        passkeyId: added.json().id,
        userId: user.id,
        counter: 10,
        expiresAt: new Date(Date.now() + 86_400_000),
        userAgent: null,
        now: new Date(),
      })
      assert.is(opened, 'unknown')
      assert.is(await sessionsOf(t, user.id), 0, 'no session outlives the recovery')
      assert.equal((await signInWith(t.app, late)).json(), { message: passkeyMessages.unknown, statusCode: 401, code: 'UNKNOWN_PASSKEY' })
    },
  )
}

inTurn.run()

// PostgreSQL only: two API instances, and a connection of the test's own holding the row where the two calls must meet.
if (process.env.DATABASE_URL) {
  type RaceCtx = Ctx & { second: FastifyInstance; holder: Awaited<ReturnType<TestApp['connectAgain']>> }
  const race = suite<RaceCtx>('passkeys racing a reset or a revert link (PostgreSQL, two instances)')
  race.before(async (ctx) => {
    ctx.t = await buildTestApp({ seed: false })
    ctx.second = await secondApp(ctx.t)
    ctx.holder = await ctx.t.connectAgain()
  })
  race.after(async (ctx) => {
    await ctx.second.close()
    await ctx.t.close()
  })
  const hold = (ctx: RaceCtx, take: Parameters<typeof holdLocks>[1]) => holdLocks(ctx.holder.db, take)
  /** The recovery holds the user's row and waits on its link (held here); `then` starts and waits too; both go on. */
  const recoveryFirst = async <T>(
    ctx: RaceCtx,
    recovery: (typeof recoveries)[keyof typeof recoveries],
    token: string,
    then: () => Promise<T>,
  ) => {
    const link = await hold(ctx, (tx) => recovery.lockLink(tx, token))
    const recovering = recovery.run(ctx.t.app, token)
    await untilLockWaiters(ctx.t.deps.db, 1)
    const other = then()
    await untilLockWaiters(ctx.t.deps.db, 2)
    await link.release()
    return Promise.all([recovering, other])
  }
  /** `first` starts and waits on what `take` holds here; the recovery comes and waits too; both go on. */
  const underWayFirst = async <T>(
    ctx: RaceCtx,
    take: Parameters<typeof holdLocks>[1],
    first: () => Promise<T>,
    recovery: (typeof recoveries)[keyof typeof recoveries],
    token: string,
  ) => {
    const held = await hold(ctx, take)
    const started = first()
    await untilLockWaiters(ctx.t.deps.db, 1)
    const recovering = recovery.run(ctx.t.app, token)
    await untilLockWaiters(ctx.t.deps.db, 2)
    await held.release()
    return Promise.all([started, recovering])
  }

  for (const [name, recovery] of Object.entries(recoveries)) {
    race(`${name}: a registration checked before it and stored after it is refused (401, nothing kept)`, async (ctx) => {
      const { t } = ctx
      const user = await account(t)
      const key = soft()
      const credential = key.register(await registrationOptions(t.app, user.session))
      const token = await recovery.link(t, user)
      // The recovery holds the user's row and waits on its link; the registration, its session and challenge checked,
      // comes to store the key. Before, it waited only for the recovery's commit, then stored the key: it outlived it.
      const mailsBefore = t.mails.length
      const [recovered, registered] = await recoveryFirst(ctx, recovery, token, () => register(ctx.second, user.session, credential))
      assert.is(recovered.statusCode, 200, recovered.body)
      assert.equal(registered.json(), { message: messages.badToken, statusCode: 401, code: 'INVALID_TOKEN' })
      assert.is(await keysOf(t, user.id), 0, 'no key outlives the recovery')
      assert.not.ok(
        t.mails.slice(mailsBefore).some((m) => m.subject.includes('clé d’accès a été ajoutée')),
        'no notice of a key not kept',
      )
      assert.is((await signInWith(t.app, key.authenticate(await loginOptions(t.app)))).statusCode, 401)
    })

    race(`${name}: a registration under way when it comes is waited for, then its key removed`, async (ctx) => {
      const { t } = ctx
      const user = await account(t)
      const key = soft()
      const credential = key.register(await registrationOptions(t.app, user.session))
      const token = await recovery.link(t, user)
      // The registration is storing its key (the table held) when the recovery comes.
      const [registered, recovered] = await underWayFirst(
        ctx,
        (tx) => sql`lock table passkeys in share mode`.execute(tx),
        () => register(ctx.second, user.session, credential),
        recovery,
        token,
      )
      assert.is(registered.statusCode, 200, registered.body)
      assert.is(recovered.statusCode, 200, recovered.body)
      if (name === 'reset')
        assert.match(recovered.json().message, 'Votre clé d’accès a été supprimée', 'the reset removed the key just stored')
      assert.is(await keysOf(t, user.id), 0, 'no key outlives the recovery')
      assert.is((await signInWith(t.app, key.authenticate(await loginOptions(t.app)))).statusCode, 401)
    })

    race(`${name}: a passkey sign-in checked before it and opening its session after it is refused (401, no session)`, async (ctx) => {
      const { t } = ctx
      const user = await account(t)
      const key = soft()
      assert.is((await register(t.app, user.session, key.register(await registrationOptions(t.app, user.session)))).statusCode, 200)
      const credential = key.authenticate(await loginOptions(t.app))
      const token = await recovery.link(t, user)
      // Before, the sign-in wrote the key's counter, then waited only for the recovery's commit to open its session: a live one.
      const [recovered, signedIn] = await recoveryFirst(ctx, recovery, token, () => signInWith(ctx.second, credential))
      assert.is(recovered.statusCode, 200, recovered.body)
      assert.equal(signedIn.json(), { message: passkeyMessages.unknown, statusCode: 401, code: 'UNKNOWN_PASSKEY' })
      assert.is(await sessionsOf(t, user.id), 0, 'no session outlives the recovery')
    })

    race(`${name}: a passkey sign-in under way when it comes is waited for, then its session ended`, async (ctx) => {
      const { t } = ctx
      const user = await account(t)
      const key = soft()
      const added = await register(t.app, user.session, key.register(await registrationOptions(t.app, user.session)))
      assert.is(added.statusCode, 200)
      const credential = key.authenticate(await loginOptions(t.app))
      const token = await recovery.link(t, user)
      // The sign-in is writing the key's counter (its row held) when the recovery comes.
      const [signedIn, recovered] = await underWayFirst(
        ctx,
        (tx) => tx.selectFrom('passkeys').select('id').where('id', '=', added.json().id).forUpdate().execute(),
        () => signInWith(ctx.second, credential),
        recovery,
        token,
      )
      assert.is(recovered.statusCode, 200, recovered.body)
      // Whichever got the key's row first: refused, or signed in and then signed out by the recovery.
      assert.ok(signedIn.statusCode === 200 || signedIn.statusCode === 401, signedIn.body)
      if (signedIn.statusCode === 200)
        assert.is((await call(t.app, signedIn.json().apiToken, 'GET', '/api-protected/user/me')).statusCode, 401, 'its session ended')
      assert.is(await sessionsOf(t, user.id), 0, 'no session outlives the recovery')
      assert.is(await keysOf(t, user.id), 0)
    })
  }

  race.run()
}
