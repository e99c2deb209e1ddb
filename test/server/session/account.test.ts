// Login, password reset and the database-backed rate limit.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { messages } from '../../../server/http/errors.ts'
import { RESET_MAIL_LIMIT } from '../../../server/routes/session/index.ts'
import { randomBytes, scryptSync } from 'node:crypto'
import { sql, type KyselyPlugin } from 'kysely'
import { buildApp } from '../../../server/app.ts'
import { parseTrustProxy } from '../../../server/config.ts'
import { passwordMessages } from '../../../server/services/password-policy.ts'
import { holdLocks, untilLockWaiters } from '../../util/postgres.ts'
import { buildTestApp, call, DEMO_PASSWORD, eventually, login, type TestApp } from '../../util/server.ts'

interface Ctx {
  t: TestApp
}

const post = (t: TestApp, url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object })

/** Asks for a reset link and waits for its e-mail (sent after the answer); the link's token. */
async function resetLinkToken(t: TestApp, email: string, domain = 'http://localhost:8080'): Promise<string> {
  const before = t.mails.length
  assert.is((await post(t, '/reset-password-request', { email, domain })).statusCode, 200)
  const mail = await eventually(() => t.mails.slice(before).find((m) => m.to === email))
  return mail.link!.split('/set-password/')[1]!
}

const loginSuite = suite<Ctx>('login')
loginSuite.before(async (ctx) => {
  ctx.t = await buildTestApp()
})
loginSuite.after((ctx) => ctx.t?.close())

loginSuite('wrong password, unknown account and wrong case of password: "Identifiants incorrects"', async ({ t }) => {
  for (const body of [
    { username: 'demo@example.com', password: 'mauvais' },
    { username: 'inconnu@example.com', password: DEMO_PASSWORD },
    { username: 'demo@example.com', password: DEMO_PASSWORD.toLowerCase() },
  ]) {
    const res = await post(t, '/api/login', body)
    assert.is(res.statusCode, 401)
    assert.equal(res.json(), { message: 'Identifiants incorrects', statusCode: 401, code: 'BAD_CREDENTIALS' })
  }
})

loginSuite('the e-mail is case-insensitive and every login gets its own token', async ({ t }) => {
  const a = await login(t.app, '  DEMO@Example.com ')
  const b = await login(t.app)
  assert.is.not(a, b)
  assert.is((await call(t.app, a, 'GET', '/api-protected/user/me')).json().firstname, 'Camille')
})

loginSuite("passwords are stored as argon2id hashes at OWASP's setting", async ({ t }) => {
  const row = await t.deps.db.selectFrom('users').select('password_hash').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow()
  assert.match(row.password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
  assert.not.match(row.password_hash, DEMO_PASSWORD)
})

loginSuite('a hash of the older scheme (scrypt) still signs in, and becomes argon2id then', async ({ t }) => {
  const salt = randomBytes(16)
  const key = scryptSync('Ancien-mot-de-passe', salt, 64, { N: 16384, r: 8, p: 1 })
  const legacy = ['scrypt', 16384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$')
  await t.deps.db.updateTable('users').set({ password_hash: legacy }).where('email', '=', 'associe@example.com').execute()
  assert.is((await post(t, '/api/login', { username: 'associe@example.com', password: 'mauvais' })).statusCode, 401)
  const stored = async () =>
    (await t.deps.db.selectFrom('users').select('password_hash').where('email', '=', 'associe@example.com').executeTakeFirstOrThrow())
      .password_hash
  assert.is(await stored(), legacy, 'a failed sign-in changes nothing')
  assert.ok(await login(t.app, 'associe@example.com', 'Ancien-mot-de-passe'))
  assert.match(await stored(), /^\$argon2id\$/)
  assert.ok(await login(t.app, 'associe@example.com', 'Ancien-mot-de-passe'), 'the same password, now under argon2id')
})

loginSuite('changing the password needs the current one, follows the rule and ends the other sessions', async ({ t }) => {
  const here = await login(t.app, 'solo@example.com')
  const elsewhere = await login(t.app, 'solo@example.com')
  const change = (currentPassword: string, newPassword: string) =>
    call(t.app, here, 'PUT', '/api-protected/users/me/password', { currentPassword, newPassword })
  const wrong = await change('faux', 'Un-nouveau-mot-2')
  assert.is(wrong.statusCode, 400)
  assert.is(wrong.json().message, 'Le mot de passe actuel est incorrect.')
  const short = await change(DEMO_PASSWORD, 'Court-1234!')
  assert.is(short.statusCode, 400)
  assert.match(short.json().message, '12 caractères')
  const common = await change(DEMO_PASSWORD, 'QWERTY123456')
  assert.is(common.statusCode, 400)
  assert.is(common.json().message, passwordMessages.common, 'among the most common, whatever the case')
  const spaces = await change(DEMO_PASSWORD, ' '.repeat(12))
  assert.is(spaces.statusCode, 400)
  assert.is(spaces.json().message, passwordMessages.tooSimple, 'twelve spaces are twelve characters, and no password')
  assert.is((await change(DEMO_PASSWORD, 'azerazerazer')).json().message, passwordMessages.tooSimple, 'a block repeated')
  const guessed = await change(DEMO_PASSWORD, 'Motdepasse123!')
  assert.is(guessed.statusCode, 400)
  assert.match(guessed.json().message, /plus long et moins prévisible/, 'guessed fast by a cracking program')
  assert.is((await call(t.app, elsewhere, 'GET', '/api-protected/user/me')).statusCode, 200, 'refusals end nothing')
  assert.is((await change(DEMO_PASSWORD, 'Un-nouveau-mot-2')).statusCode, 200)
  assert.is((await call(t.app, here, 'GET', '/api-protected/user/me')).statusCode, 200)
  assert.is((await call(t.app, elsewhere, 'GET', '/api-protected/user/me')).statusCode, 401)
  assert.ok(await login(t.app, 'solo@example.com', 'Un-nouveau-mot-2'))
})

loginSuite('the existing demo password (9 characters) keeps signing in: the rule applies when one is chosen', async ({ t }) => {
  assert.ok(await login(t.app, 'demo@example.com', DEMO_PASSWORD))
})

loginSuite(
  'a sign-in racing a password reset: the reset wins (no session with the old password survives, the rehash never writes it back)',
  async ({ t }) => {
    const email = 'solo@example.com'
    const user = await t.deps.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
    for (let round = 0; round < 6; round++) {
      // An hour later each round: an account gets no more than RESET_MAIL_LIMIT.max reset links an hour.
      t.clock.advance(RESET_MAIL_LIMIT.windowMs)
      // An account not signed in since argon2id: its sign-in rewrites the hash, the write the reset must not lose.
      const salt = randomBytes(16)
      const legacy = [
        'scrypt',
        16384,
        8,
        1,
        salt.toString('base64url'),
        scryptSync('Ancien-mot-de-passe', salt, 64, { N: 16384, r: 8, p: 1 }).toString('base64url'),
      ].join('$')
      await t.deps.db.updateTable('users').set({ password_hash: legacy }).where('id', '=', user.id).execute()
      const token = await resetLinkToken(t, email)
      const fresh = `Tout-nouveau-secret-${round}-42`
      const [reset, ...logins] = await Promise.all([
        post(t, '/reset-password', { token, password: fresh }),
        ...[0, 2, 4, 8].map((ms) =>
          new Promise((resolve) => setTimeout(resolve, ms)).then(() =>
            post(t, '/api/login', { username: email, password: 'Ancien-mot-de-passe' }),
          ),
        ),
      ])
      assert.is(reset!.statusCode, 200, reset!.body)
      for (const signedIn of logins.filter((r) => r.statusCode === 200)) {
        assert.is(
          (await call(t.app, signedIn.json().apiToken, 'GET', '/api-protected/user/me')).statusCode,
          401,
          `round ${round}: a session opened with the old password survived the reset`,
        )
      }
      assert.is(
        (await post(t, '/api/login', { username: email, password: 'Ancien-mot-de-passe' })).statusCode,
        401,
        `round ${round}: the old password came back`,
      )
      assert.is((await post(t, '/api/login', { username: email, password: fresh })).statusCode, 200)
    }
    t.clock.set(new Date())
  },
)

loginSuite.run()

const links = suite<Ctx>('reset links end together')
links.before(async (ctx) => {
  ctx.t = await buildTestApp()
})
links.after((ctx) => ctx.t?.close())

links('a link used, a password changed or an address changed: every other reset link of the account stops working', async ({ t }) => {
  const email = 'associe@example.com'
  const setWith = (token: string, password: string) => post(t, '/reset-password', { token, password })
  const refused = (res: { statusCode: number; json: () => { code: string } }) =>
    res.statusCode === 400 && res.json().code === 'INVALID_RESET_TOKEN'
  // Two links asked for; the second used: the first is spent with it.
  const first = await resetLinkToken(t, email)
  const second = await resetLinkToken(t, email)
  assert.is((await setWith(second, 'Un-secret-bien-long-1')).statusCode, 200)
  assert.ok(refused(await setWith(first, 'Un-autre-secret-long-2')), 'the older link no longer sets the password')
  // A link asked for, then the password changed while signed in.
  const pending = await resetLinkToken(t, email)
  const token = await login(t.app, email, 'Un-secret-bien-long-1')
  assert.is(
    (
      await call(t.app, token, 'PUT', '/api-protected/users/me/password', {
        currentPassword: 'Un-secret-bien-long-1',
        newPassword: 'Un-secret-bien-long-3',
      })
    ).statusCode,
    200,
  )
  assert.ok(refused(await setWith(pending, 'Un-autre-secret-long-4')), 'a link from before the change no longer works')
  // A link sent to the old address (an hour later: a fourth link within the hour would not be sent), then the address changed.
  t.clock.advance(RESET_MAIL_LIMIT.windowMs)
  const toOldAddress = await resetLinkToken(t, email)
  assert.is((await call(t.app, token, 'PUT', '/api-protected/users/me/email', { newEmail: 'julien.nouveau@example.com' })).statusCode, 200)
  assert.ok(refused(await setWith(toOldAddress, 'Un-autre-secret-long-5')), 'a link sent to the old mailbox no longer works')
  assert.is((await post(t, '/api/login', { username: 'julien.nouveau@example.com', password: 'Un-secret-bien-long-3' })).statusCode, 200)
  t.clock.set(new Date())
})

links.run()

const reset = suite<Ctx>('password reset')
reset.before(async (ctx) => {
  ctx.t = await buildTestApp()
})
reset.after((ctx) => ctx.t?.close())

reset('the same answer whether or not the account exists; a mail only for a real account', async ({ t }) => {
  const before = t.mails.length
  const known = await post(t, '/reset-password-request', { email: 'demo@example.com', domain: 'http://localhost:8080' })
  const unknown = await post(t, '/reset-password-request', { email: 'personne@example.com', domain: 'http://localhost:8080' })
  assert.is(known.statusCode, 200)
  assert.is(unknown.statusCode, known.statusCode)
  assert.is(unknown.body, known.body)
  const mail = await eventually(() => t.mails[before])
  await new Promise((resolve) => setTimeout(resolve, 50))
  assert.is(t.mails.length, before + 1)
  assert.is(mail.to, 'demo@example.com')
  assert.match(mail.text, mail.link!)
})

reset('the same work before the answer whether or not the account exists: the e-mail goes after it', async ({ t }) => {
  // The app on a database that records every statement, and a mailer that records every send, each
  // stamped with whether the answer had left: what happens before the answer must not depend on the account.
  const log: string[] = []
  let answered = false
  const recorder: KyselyPlugin = {
    transformQuery: (args) => (log.push(`${answered ? 'après' : 'avant'} ${args.node.kind}`), args.node),
    transformResult: async (args) => args.result,
  }
  const mails: string[] = []
  const app = await buildApp(
    {
      ...t.deps,
      db: t.deps.db.withPlugin(recorder),
      mailer: { send: async (m) => void mails.push(`${answered ? 'après' : 'avant'} ${m.to}`) },
    },
    { databaseKind: 'pglite' },
  )
  // The answer has left when Fastify says the response finished (before the handler goes on).
  app.addHook('onResponse', async () => {
    answered = true
  })
  try {
    const workBeforeAnswer = async (email: string) => {
      log.length = 0
      mails.length = 0
      answered = false
      const res = await app.inject({ method: 'POST', url: '/reset-password-request', payload: { email, domain: 'http://localhost:8080' } })
      assert.is(res.statusCode, 200)
      return { queries: log.filter((q) => q.startsWith('avant')), mails: mails.filter((m) => m.startsWith('avant')), body: res.body }
    }
    const unknown = await workBeforeAnswer('personne@example.com')
    // Its lookup, after the answer, is over well before this.
    await new Promise((resolve) => setTimeout(resolve, 150))
    const known = await workBeforeAnswer('demo@example.com')
    assert.equal(known, unknown)
    assert.equal(known.mails, [], 'no e-mail before the answer')
    await eventually(() => mails.includes('après demo@example.com'))
  } finally {
    await app.close()
  }
})

reset('the link uses the portal domain only when it is one of ours', async ({ t }) => {
  // This suite asks for links to its three accounts, RESET_MAIL_LIMIT.max at most each (within the hour).
  const pirate = await resetLinkToken(t, 'solo@example.com', 'https://pirate.example.net')
  assert.match(t.mails.at(-1)!.link!, /^http:\/\/localhost:8080\/set-password\/[\w-]{43}$/)
  assert.ok(pirate)
  await resetLinkToken(t, 'solo@example.com', 'pas une adresse')
  assert.match(t.mails.at(-1)!.link!, /^http:\/\/localhost:8080\//)
})

reset('the new password follows the rule: 12 characters at least, not a common one', async ({ t }) => {
  const token = await resetLinkToken(t, 'solo@example.com')
  const common = await post(t, '/reset-password', { token, password: 'motdepasse123' })
  assert.is(common.statusCode, 400)
  assert.is(common.json().message, passwordMessages.common)
  const run = await post(t, '/reset-password', { token, password: 'abcdefghijklm' })
  assert.is(run.statusCode, 400)
  assert.is(run.json().message, passwordMessages.tooSimple, 'a run of letters')
  assert.is(
    (await post(t, '/reset-password', { token, password: 'une phrase de passe' })).statusCode,
    200,
    'the token was not spent by the refusal',
  )
})

// An outside probe had each accepted: 12 characters or more, none in the list, none a plain repetition or run.
const GUESSED_FAST = [
  'P@ssw0rd1234',
  'Password123!',
  'passwordpassword',
  'iloveyou1234',
  'Bonjour12345',
  'Motdepasse123!',
  'azertyazerty',
  'Azerty123456!',
]

const strength = suite<Ctx>('passwords a cracking program guesses fast')
strength.before(async (ctx) => {
  ctx.t = await buildTestApp()
})
strength.after((ctx) => ctx.t?.close())

strength('refused with a French reason (zxcvbn-ts) by the reset link, which stays good, and nothing changes', async ({ t }) => {
  const token = await resetLinkToken(t, 'solo@example.com')
  const before = (
    await t.deps.db.selectFrom('users').select('password_hash').where('email', '=', 'solo@example.com').executeTakeFirstOrThrow()
  ).password_hash
  for (const password of GUESSED_FAST) {
    const res = await post(t, '/reset-password', { token, password })
    assert.is(res.statusCode, 400, password)
    assert.match(
      res.json().message,
      /Choisissez-en un plus long et moins prévisible, par exemple une phrase de plusieurs mots\.$/,
      password,
    )
  }
  assert.match(
    (await post(t, '/reset-password', { token, password: 'Password123!' })).json().message,
    /^Ce mot de passe ressemble à un mot de passe couramment utilisé\./,
  )
  const after = (
    await t.deps.db.selectFrom('users').select('password_hash').where('email', '=', 'solo@example.com').executeTakeFirstOrThrow()
  ).password_hash
  assert.is(after, before, 'the password is as it was')
  assert.is(
    (await post(t, '/reset-password', { token, password: 'Lilas-des-Prés-1987' })).statusCode,
    200,
    'the token was not spent by the refusals',
  )
})

strength.run()

reset('a token works once', async ({ t }) => {
  const token = await resetLinkToken(t, 'associe@example.com')
  const first = await post(t, '/reset-password', { token, password: 'Premier-essai-1' })
  assert.is(first.statusCode, 200, first.body)
  const second = await post(t, '/reset-password', { token, password: 'Second-essai-2' })
  assert.is(second.statusCode, 400)
  assert.match(second.json().message, 'invalide')
  assert.ok(await login(t.app, 'associe@example.com', 'Premier-essai-1'))
})

reset('a token expires after one hour', async ({ t }) => {
  const token = await resetLinkToken(t, 'demo@example.com')
  t.clock.advance(61 * 60_000)
  const res = await post(t, '/reset-password', { token, password: 'Trop-tard-12345' })
  t.clock.set(new Date())
  assert.is(res.statusCode, 400)
  assert.ok(await login(t.app, 'demo@example.com'), 'the password did not change')
})

reset('an unknown token and a short password are refused', async ({ t }) => {
  assert.is((await post(t, '/reset-password', { token: 'nimporte-quoi', password: 'Assez-long-123' })).statusCode, 400)
  const short = await post(t, '/reset-password', { token: 'nimporte-quoi', password: 'court' })
  assert.is(short.statusCode, 400)
  assert.match(short.json().message, 'password')
})

reset('reset tokens are stored hashed', async ({ t }) => {
  const token = await resetLinkToken(t, 'associe@example.com')
  const rows = await t.deps.db.selectFrom('password_resets').select('token_hash').execute()
  assert.not.ok(rows.some((r) => r.token_hash === token))
})

reset.run()

const perAccount = suite<Ctx>('reset links per account')
perAccount.before(async (ctx) => {
  ctx.t = await buildTestApp()
})
perAccount.after((ctx) => ctx.t?.close())

perAccount(
  `${RESET_MAIL_LIMIT.max} reset links an hour per account, whatever the IPs; past them the answer of an unknown address, no e-mail, no link`,
  async ({ t }) => {
    // Four IPs, each well within AUTH_RATE_LIMIT: before, 40 requests sent 40 e-mails and left 40 live links.
    const ask = (email: string, i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/reset-password-request',
        remoteAddress: `198.51.100.${1 + (i % 4)}`,
        payload: { email, domain: 'http://localhost:8080' },
      })
    const demo = await t.deps.db.selectFrom('users').select('id').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow()
    const unknown = await ask('personne@example.com', 0)
    const answers = []
    for (let i = 0; i < 12; i++) answers.push(await ask('demo@example.com', i))
    for (const answer of answers) {
      assert.equal(
        [answer.statusCode, answer.headers['content-type'], answer.body],
        [unknown.statusCode, unknown.headers['content-type'], unknown.body],
      )
    }
    // The lookups run after the answers: wait until all twelve were counted, and their e-mails had time to leave.
    const counted = async () =>
      (
        await t.deps.db
          .selectFrom('rate_limits')
          .select('count')
          .where('key', '=', `user:${demo.id}:${RESET_MAIL_LIMIT.name}`)
          .executeTakeFirst()
      )?.count
    for (const until = Date.now() + 5000; (await counted()) !== 12; ) {
      if (Date.now() > until) throw new Error(`only ${await counted()} reset requests counted`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
    assert.is(t.mails.filter((m) => m.to === 'demo@example.com').length, RESET_MAIL_LIMIT.max)
    const links = await t.deps.db.selectFrom('password_resets').select('id').where('user_id', '=', demo.id).execute()
    assert.is(links.length, RESET_MAIL_LIMIT.max, 'no link made past the limit')
    assert.ok(await resetLinkToken(t, 'solo@example.com'), 'another account is not held')
    t.clock.advance(RESET_MAIL_LIMIT.windowMs)
    try {
      assert.ok(await resetLinkToken(t, 'demo@example.com'), 'an hour later')
    } finally {
      t.clock.set(new Date())
    }
  },
)

perAccount.run()

const limits = suite<Ctx>('rate limit on login and password reset')
limits.before(async (ctx) => {
  ctx.t = await buildTestApp({ config: { authRateLimit: 3 } })
})
limits.after((ctx) => ctx.t?.close())

limits('the fourth attempt in a minute gets a French 429; the window then starts again', async ({ t }) => {
  const attempt = () => post(t, '/api/login', { username: 'demo@example.com', password: 'mauvais' })
  for (let i = 0; i < 3; i++) assert.is((await attempt()).statusCode, 401)
  const limited = await attempt()
  assert.is(limited.statusCode, 429)
  assert.equal(limited.json(), { message: messages.rateLimited, statusCode: 429, code: 'RATE_LIMITED' })
  assert.is(
    (await post(t, '/api/login', { username: 'demo@example.com', password: DEMO_PASSWORD })).statusCode,
    429,
    'even with the right password',
  )
  assert.is(
    (await post(t, '/reset-password-request', { email: 'demo@example.com', domain: 'x' })).statusCode,
    200,
    'each route counts apart',
  )
  t.clock.advance(61_000)
  assert.is((await attempt()).statusCode, 401)
  t.clock.set(new Date())
})

limits('the counters live in the database: a second process behind the load balancer sees them', async ({ t }) => {
  const second = await buildApp(t.deps, { databaseKind: 'pglite' })
  try {
    const attempt = (app: typeof second) =>
      app.inject({ method: 'POST', url: '/reset-password', payload: { token: 'x', password: 'Assez-long-123' } })
    assert.is((await attempt(t.app)).statusCode, 400)
    assert.is((await attempt(second)).statusCode, 400)
    assert.is((await attempt(t.app)).statusCode, 400)
    assert.is((await attempt(second)).statusCode, 429)
    const rows = await t.deps.db.selectFrom('rate_limits').selectAll().where('key', 'like', '%resetPassword').execute()
    assert.is(rows.length, 1)
    assert.is(rows[0]!.count, 4)
  } finally {
    await second.close()
  }
})

limits(
  'TRUST_PROXY: with the balancers’ addresses, the client is the last address they did not write, so one cannot escape the limit by writing X-Forwarded-For',
  async ({ t }) => {
    const databaseKind = process.env.DATABASE_URL ? ('postgres' as const) : ('pglite' as const)
    const behind = await buildApp(t.deps, { databaseKind, trustProxy: parseTrustProxy('10.0.0.0/8, 192.0.2.7') })
    const everyone = await buildApp(t.deps, { databaseKind, trustProxy: parseTrustProxy('true') })
    try {
      // The balancer (10.0.0.2) appends the address it saw (203.0.113.7) to what the client wrote.
      const attempt = (app: typeof behind, written: string) =>
        app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress: '10.0.0.2',
          headers: { 'x-forwarded-for': `${written}, 203.0.113.7` },
          payload: { username: 'demo@example.com', password: 'mauvais' },
        })
      for (let i = 0; i < 3; i++) assert.is((await attempt(behind, `198.51.100.${i}`)).statusCode, 401)
      assert.is((await attempt(behind, '198.51.100.3')).statusCode, 429, 'a new address written by the client is not a new counter')
      // Trusting every proxy takes the client's own first entry: only behind a balancer that replaces the header.
      assert.is((await attempt(everyone, '198.51.100.4')).statusCode, 401)
      const rows = await t.deps.db.selectFrom('rate_limits').select('key').where('key', 'like', '%login').execute()
      assert.ok(
        rows.some((r) => r.key.includes('203.0.113.7')),
        'counted for the address the balancer saw',
      )
    } finally {
      await behind.close()
      await everyone.close()
    }
  },
)

limits('TRUST_PROXY is read as false, true, or addresses and ranges; anything else stops the start with a French message', () => {
  assert.is(parseTrustProxy(undefined), false)
  assert.is(parseTrustProxy(''), false)
  assert.is(parseTrustProxy('false'), false)
  assert.is(parseTrustProxy('true'), true)
  assert.is(parseTrustProxy(' 10.0.0.0/8 ,192.0.2.7, ::1, fd00::/8, loopback '), '10.0.0.0/8,192.0.2.7,::1,fd00::/8,loopback')
  for (const wrong of ['oui', '1', '10.0.0.0/33', '10.0.0', 'fd00::/129', '10.0.0.1,', '10.0.0.0/8/1']) {
    assert.throws(() => parseTrustProxy(wrong), /TRUST_PROXY vaut « .+ » : indiquez true, false, ou les adresses/, wrong)
  }
})

limits.run()

// PostgreSQL only: two API instances on one database, and a third connection holding a row so that the calls meet where
// the race is (PGlite has one connection: a transaction holding a row stops every other statement).
if (process.env.DATABASE_URL) {
  const race = suite<Ctx & { second: Awaited<ReturnType<typeof buildApp>>; holder: Awaited<ReturnType<TestApp['connectAgain']>> }>(
    'reset links under concurrency (PostgreSQL, two instances)',
  )
  race.before(async (ctx) => {
    ctx.t = await buildTestApp()
    const handle = await ctx.t.connectAgain()
    ctx.second = await buildApp({ ...ctx.t.deps, db: handle.db, listen: handle.listen }, { databaseKind: 'postgres' })
    await ctx.second.ready()
    ctx.holder = await ctx.t.connectAgain()
  })
  race.after(async (ctx) => {
    await ctx.second.close()
    await ctx.t.close()
  })
  const untilWaiting = (t: TestApp, n: number) => untilLockWaiters(t.deps.db, n)
  const hold = (ctx: { holder: { db: TestApp['deps']['db'] } }, take: Parameters<typeof holdLocks>[1]) => holdLocks(ctx.holder.db, take)

  race(
    'two reset links of one account used at the same moment: one sets the password, the other is the French 400, never a deadlock',
    async (ctx) => {
      const { t } = ctx
      const user = await t.deps.db.selectFrom('users').select('id').where('email', '=', 'solo@example.com').executeTakeFirstOrThrow()
      const first = await resetLinkToken(t, 'solo@example.com')
      const second = await resetLinkToken(t, 'solo@example.com')
      // The user's row held: both resets get as far as they can, then wait. Before, each had locked its own link by then,
      // and the first to get the row waited on the other's link: 40P01, a 500.
      const holder = await hold(ctx, (tx) => tx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().execute())
      const answers = Promise.all([
        post(t, '/reset-password', { token: first, password: 'Premier-secret-bien-long' }),
        ctx.second.inject({ method: 'POST', url: '/reset-password', payload: { token: second, password: 'Second-secret-bien-long' } }),
      ])
      await untilWaiting(t, 2)
      await holder.release()
      const [a, b] = await answers
      assert.equal([a!.statusCode, b!.statusCode].sort(), [200, 400], `${a!.body} ${b!.body}`)
      const refused = [a!, b!].find((r) => r.statusCode === 400)!
      assert.equal(refused.json(), {
        message: 'Ce lien de réinitialisation est invalide, a déjà servi ou a expiré : demandez-en un nouveau.',
        statusCode: 400,
        code: 'INVALID_RESET_TOKEN',
      })
      assert.ok(
        await login(t.app, 'solo@example.com', a!.statusCode === 200 ? 'Premier-secret-bien-long' : 'Second-secret-bien-long'),
        'the password of the link that worked',
      )
    },
  )

  race(
    'a reset link used while the password or the address is changed: both end (the user first, then the links), never a deadlock',
    async (ctx) => {
      const { t } = ctx
      const user = await t.deps.db.selectFrom('users').select('id').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow()
      for (const [what, change, expected] of [
        // The reset committed first: the change checked the old password, so it is told the password changed meanwhile.
        [
          'password',
          (session: string) =>
            call(ctx.second, session, 'PUT', '/api-protected/users/me/password', {
              currentPassword: DEMO_PASSWORD,
              newPassword: 'Un-changement-bien-long',
            }),
          409,
        ],
        // The reset committed first and ended every session: the change, its session checked again once it has the row
        // (b97701f), is refused and changes nothing.
        [
          'address',
          (session: string) =>
            call(ctx.second, session, 'PUT', '/api-protected/users/me/email', { newEmail: 'camille.nouvelle@example.com' }),
          401,
        ],
      ] as const) {
        const session = await login(t.app, 'demo@example.com', what === 'password' ? DEMO_PASSWORD : 'Remis-a-zero-password-42')
        const token = await resetLinkToken(t, 'demo@example.com')
        const holder = await hold(ctx, (tx) => tx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().execute())
        // The reset waits first, then the change. Before, the change locked the account's links, then waited for the row,
        // which the reset got next and then waited on its link: 40P01, a 500.
        const reset = post(t, '/reset-password', { token, password: `Remis-a-zero-${what}-42` })
        await untilWaiting(t, 1)
        const changed = change(session)
        await untilWaiting(t, 2)
        await holder.release()
        const [r, c] = await Promise.all([reset, changed])
        assert.is(r.statusCode, 200, `${what}: ${r.body}`)
        assert.is(c.statusCode, expected, `${what}: ${c.body}`)
        if (expected === 409) assert.match(c.json().message, 'vient d’être modifié par ailleurs')
      }
      assert.ok(await login(t.app, 'demo@example.com', 'Remis-a-zero-address-42'), 'the address unchanged')
    },
  )

  race('a reset link asked for the old address while the address changes: no live link ever reaches the old mailbox', async (ctx) => {
    const { t } = ctx
    const user = await t.deps.db.selectFrom('users').select('id').where('email', '=', 'associe@example.com').executeTakeFirstOrThrow()
    const liveLinks = async () =>
      (await t.deps.db.selectFrom('password_resets').select('id').where('user_id', '=', user.id).where('used_at', 'is', null).execute())
        .length
    const counted = async () =>
      (
        await t.deps.db
          .selectFrom('rate_limits')
          .select('count')
          .where('key', '=', `user:${user.id}:${RESET_MAIL_LIMIT.name}`)
          .executeTakeFirst()
      )?.count
    const session = await login(t.app, 'associe@example.com')
    const ask = (email: string) => post(t, '/reset-password-request', { email, domain: 'http://localhost:8080' })
    const changeTo = (newEmail: string) => call(ctx.second, session, 'PUT', '/api-protected/users/me/email', { newEmail })

    // 1. The request has looked the account up under its old address when the change commits (its per-account counter
    // is held, the step between the lookup and the link). Before, it then made a live link and mailed it there.
    let mails = t.mails.length
    const counter = await hold(ctx, (tx) =>
      tx
        .insertInto('rate_limits')
        .values({ key: `user:${user.id}:${RESET_MAIL_LIMIT.name}`, count: 0, reset_at: new Date(Date.now() + 3_600_000) })
        .onConflict((oc) => oc.column('key').doUpdateSet({ count: 0 }))
        .execute(),
    )
    assert.is((await ask('associe@example.com')).statusCode, 200)
    await untilWaiting(t, 1)
    const changed = await changeTo('julien.un@example.com')
    assert.is(changed.statusCode, 200, changed.body)
    await counter.release()
    for (let i = 0; i < 250 && (await counted()) !== 1; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.is(await liveLinks(), 0, 'no link for an address the account no longer has')
    assert.not.ok(
      t.mails.slice(mails).some((m) => m.to === 'associe@example.com' && m.link?.includes('/set-password/')),
      'nothing sent to the old address',
    )

    // 2. The request holds the account (it is inserting its link) when the change comes: the change waits, then closes the link.
    mails = t.mails.length
    const table = await hold(ctx, (tx) => sql`lock table password_resets in share mode`.execute(tx))
    assert.is((await ask('julien.un@example.com')).statusCode, 200)
    await untilWaiting(t, 1)
    const changing = changeTo('julien.deux@example.com')
    await untilWaiting(t, 2)
    await table.release()
    assert.is((await changing).statusCode, 200)
    const mail = await eventually(() => t.mails.slice(mails).find((m) => m.link?.includes('/set-password/')))
    assert.is(mail.to, 'julien.un@example.com', 'the address the account had when the link was made')
    assert.is(await liveLinks(), 0, 'closed by the change')
    const used = await post(t, '/reset-password', {
      token: mail.link!.split('/set-password/')[1]!,
      password: 'Pris-par-la-vieille-boite-42',
    })
    assert.is(used.statusCode, 400, 'the link left in the old mailbox does not work')
    assert.ok(await login(t.app, 'julien.deux@example.com'), 'the password is unchanged')
  })

  race.run()
}
