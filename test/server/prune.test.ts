// Rows that have run out are pruned with the storage sweep (server/services/prune.ts): rate-limit windows passed,
// expired sessions and password-reset links go, e-mail change revert links REVERT_LINKS_KEPT_DAYS after they expired,
// and finished background jobs after their keeping;
// what is still valid stays and still works.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { pruneExpiredRows } from '../../server/services/prune.ts'
import { REVERT_LINKS_KEPT_DAYS } from '../../server/db/repositories/people-email-reverts.ts'
import { DONE_JOBS_KEPT_DAYS, FAILED_JOBS_KEPT_DAYS } from '../../server/db/repositories/jobs.ts'
import { emailRevertMessages } from '../../server/routes/people/email-revert.ts'
import { randomToken, sha256 } from '../../server/lib/crypto.ts'
import { buildTestApp, call, login, type TestApp } from '../util/server.ts'

const prune = suite<{ t: TestApp }>('expired rows pruned')
prune.before(async (ctx) => {
  ctx.t = await buildTestApp()
})
prune.after((ctx) => ctx.t?.close())

prune('expired sessions, reset links and rate-limit windows go; live ones stay and work', async ({ t }) => {
  const { db } = t.deps
  const now = new Date()
  const past = new Date(now.getTime() - 60_000)
  const later = new Date(now.getTime() + 3_600_000)
  const token = await login(t.app)
  const user = await db.selectFrom('users').select('id').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow()
  await db
    .insertInto('api_tokens')
    .values([
      { user_id: user.id, token_hash: sha256('expire-1'), expires_at: past },
      { user_id: user.id, token_hash: sha256('expire-2'), expires_at: past },
    ])
    .execute()
  await db
    .insertInto('password_resets')
    .values([
      { user_id: user.id, token_hash: sha256('reset-old'), expires_at: past },
      { user_id: user.id, token_hash: sha256('reset-live'), expires_at: later },
    ])
    .execute()
  await db.deleteFrom('rate_limits').execute()
  await db
    .insertInto('rate_limits')
    .values([
      { key: 'old', count: 3, reset_at: past },
      { key: 'live', count: 1, reset_at: later },
    ])
    .execute()
  const tokensBefore = await db.selectFrom('api_tokens').select('token_hash').execute()

  assert.equal(await pruneExpiredRows(db, now), { rateLimits: 1, apiTokens: 2, passwordResets: 1, revertLinks: 0, jobs: 0 })

  const tokensAfter = await db.selectFrom('api_tokens').select('token_hash').execute()
  assert.is(tokensAfter.length, tokensBefore.length - 2)
  assert.not.ok(tokensAfter.some((r) => r.token_hash === sha256('expire-1') || r.token_hash === sha256('expire-2')))
  assert.equal(
    (await db.selectFrom('password_resets').select('token_hash').execute()).map((r) => r.token_hash),
    [sha256('reset-live')],
  )
  assert.equal(
    (await db.selectFrom('rate_limits').select('key').execute()).map((r) => r.key),
    ['live'],
  )
  // The live session still answers; pruning again finds nothing.
  assert.is((await call(t.app, token, 'GET', '/api-protected/user/me')).statusCode, 200)
  assert.equal(await pruneExpiredRows(db, now), { rateLimits: 0, apiTokens: 0, passwordResets: 0, revertLinks: 0, jobs: 0 })
})

const DAY = 86_400_000
/** Revert links of the user's, each expired (or expiring) `expiredDaysAgo` days before `now`, used or not; their tokens by name. */
async function revertLinks(
  db: TestApp['deps']['db'],
  userId: number,
  now: Date,
  links: Record<string, { expiredDaysAgo: number; used?: boolean }>,
) {
  const tokens: Record<string, string> = {}
  for (const [name, { expiredDaysAgo, used }] of Object.entries(links)) {
    tokens[name] = randomToken()
    await db
      .insertInto('email_change_reverts')
      .values({
        user_id: userId,
        token_hash: sha256(tokens[name]),
        old_email: `${name}@example.com`,
        new_email: `${name}.nouvelle@example.com`,
        created_at: new Date(now.getTime() - (expiredDaysAgo + 30) * DAY),
        expires_at: new Date(now.getTime() - expiredDaysAgo * DAY),
        used_at: used ? new Date(now.getTime() - (expiredDaysAgo + 29) * DAY) : null,
      })
      .execute()
  }
  return tokens
}

prune(
  'revert links go once expired for more than REVERT_LINKS_KEPT_DAYS, used or not; until then a late click is told the truth',
  async ({ t }) => {
    const { db } = t.deps
    const now = t.clock.now()
    const user = await db.selectFrom('users').select('id').where('email', '=', 'solo@example.com').executeTakeFirstOrThrow()
    const tokens = await revertLinks(db, user.id, now, {
      live: { expiredDaysAgo: -10 },
      expiredYesterday: { expiredDaysAgo: 1 },
      usedKept: { expiredDaysAgo: REVERT_LINKS_KEPT_DAYS - 1, used: true },
      expiredLongAgo: { expiredDaysAgo: REVERT_LINKS_KEPT_DAYS + 1 },
      usedLongAgo: { expiredDaysAgo: REVERT_LINKS_KEPT_DAYS + 1, used: true },
    })
    const click = (name: string) => t.app.inject({ method: 'POST', url: `/api/email-change-reverts/${tokens[name]}` })

    assert.is((await pruneExpiredRows(db, now)).revertLinks, 2)
    const kept = await db.selectFrom('email_change_reverts').select('old_email').where('user_id', '=', user.id).orderBy('id').execute()
    assert.equal(
      kept.map((r) => r.old_email),
      ['live@example.com', 'expiredYesterday@example.com', 'usedKept@example.com'],
    )
    // Kept: a late click is told the link expired (write to the support) or served; pruned: the 404 of an unknown link.
    assert.equal((await click('expiredYesterday')).json().message, emailRevertMessages.expired(t.deps.config.supportEmail))
    assert.equal((await click('usedKept')).json().message, emailRevertMessages.used)
    for (const name of ['expiredLongAgo', 'usedLongAgo'])
      assert.equal((await click(name)).json().message, emailRevertMessages.unknown, name)
    // The live link still holds its address: another account cannot take it.
    const other = await login(t.app, 'demo@example.com')
    assert.is((await call(t.app, other, 'PUT', '/api-protected/users/me/email', { newEmail: 'live@example.com' })).statusCode, 409)
    assert.is((await pruneExpiredRows(db, now)).revertLinks, 0)
  },
)

prune('finished jobs go a week after they were done, or 90 days after they failed; queued, running and recent ones stay', async ({ t }) => {
  const { db } = t.deps
  const now = t.clock.now()
  const ago = (days: number) => new Date(now.getTime() - days * DAY)
  await db.deleteFrom('jobs').execute()
  const rows = [
    { name: 'doneOld', state: 'done', finished_at: ago(DONE_JOBS_KEPT_DAYS + 1) },
    { name: 'doneRecent', state: 'done', finished_at: ago(DONE_JOBS_KEPT_DAYS - 1) },
    { name: 'failedOld', state: 'failed', finished_at: ago(FAILED_JOBS_KEPT_DAYS + 1) },
    { name: 'failedRecent', state: 'failed', finished_at: ago(DONE_JOBS_KEPT_DAYS + 1) },
    { name: 'queuedOld', state: 'queued', finished_at: null, run_at: ago(FAILED_JOBS_KEPT_DAYS + 1) },
    { name: 'running', state: 'running', finished_at: null },
  ] as const
  await db
    .insertInto('jobs')
    .values(rows.map(({ name, ...row }) => ({ kind: 'essai', payload: JSON.stringify({ name }), ...row })))
    .execute()
  assert.is((await pruneExpiredRows(db, now)).jobs, 2)
  const kept = await db.selectFrom('jobs').select('payload').orderBy('id').execute()
  assert.equal(
    kept.map((r) => (r.payload as { name: string }).name),
    ['doneRecent', 'failedRecent', 'queuedOld', 'running'],
  )
  assert.is((await pruneExpiredRows(db, now)).jobs, 0)
})

// PostgreSQL only (PGlite runs one statement at a time): a row a request holds is skipped, not waited for. Before, the
// prune's multi-row delete waited for it, and a request waiting in turn for a row the prune held was a deadlock.
if (process.env.DATABASE_URL) {
  prune('a row held by a request is left to the next prune: the prune neither waits for it nor deadlocks', async ({ t }) => {
    const { db } = t.deps
    const now = new Date()
    const past = new Date(now.getTime() - 60_000)
    const user = await db.selectFrom('users').select('id').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow()
    await db
      .insertInto('password_resets')
      .values([
        { user_id: user.id, token_hash: sha256('held'), expires_at: past },
        { user_id: user.id, token_hash: sha256('free'), expires_at: past },
      ])
      .execute()
    await db
      .insertInto('rate_limits')
      .values([
        { key: 'held', count: 1, reset_at: past },
        { key: 'free', count: 1, reset_at: past },
      ])
      .execute()
    const reverts = await revertLinks(db, user.id, now, {
      held: { expiredDaysAgo: REVERT_LINKS_KEPT_DAYS + 1 },
      free: { expiredDaysAgo: REVERT_LINKS_KEPT_DAYS + 1 },
    })
    const outcome = await db.transaction().execute(async (trx) => {
      await trx.selectFrom('password_resets').select('id').where('token_hash', '=', sha256('held')).forUpdate().execute()
      await trx.selectFrom('rate_limits').select('key').where('key', '=', 'held').forUpdate().execute()
      // As a click on the link does (revertEmailChange: the user's row, then the link's).
      await trx.selectFrom('email_change_reverts').select('id').where('token_hash', '=', sha256(reverts.held!)).forUpdate().execute()
      return Promise.race([pruneExpiredRows(db, now), new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 10_000))])
    })
    assert.equal(
      outcome,
      { rateLimits: 1, apiTokens: 0, passwordResets: 1, revertLinks: 1, jobs: 0 },
      'the prune went on without the held rows',
    )
    assert.equal(
      (
        await db
          .selectFrom('password_resets')
          .select('token_hash')
          .where('token_hash', 'in', [sha256('held'), sha256('free')])
          .execute()
      ).map((r) => r.token_hash),
      [sha256('held')],
    )
    assert.equal(
      (await db.selectFrom('email_change_reverts').select('old_email').where('user_id', '=', user.id).execute()).map((r) => r.old_email),
      ['held@example.com'],
    )
    assert.equal(
      await pruneExpiredRows(db, now),
      { rateLimits: 1, apiTokens: 0, passwordResets: 1, revertLinks: 1, jobs: 0 },
      'the next prune takes them',
    )
  })
}

prune.run()
