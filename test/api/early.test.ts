// The startup's first calls sent by the entry (src/api/early.ts): the same requests as the client's,
// in spec §4's order, and each answer taken once by the client's own call instead of a second request.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { getUnpaidStatus } from '../../src/api/billing.ts'
import { configureApi } from '../../src/api/client.ts'
import { getContracts, getCurrentUser, getMyOrders } from '../../src/api/session.ts'
import { EARLY_KEPT_MS, EARLY_PATHS, forgetEarly, startEarly, takeEarly } from '../../src/api/early.ts'
import { DASHBOARD_ROUTES, earlyPage, isBarePath } from '../../src/wiring/bare-pages.ts'
import { ApiError } from '../../src/api/errors.ts'

interface Seen {
  url: string
  headers: IncomingHttpHeaders
}
const seen: Seen[] = []
const bodies: Record<string, unknown> = {
  [EARLY_PATHS.user]: { id: 1, firstname: 'Sophie' },
  [EARLY_PATHS.contracts]: [{ id: 3 }],
  [EARLY_PATHS.orders]: [{ id: 5 }],
  [EARLY_PATHS.unpaid]: { hasUnpaid: false, count: 0, amountInclTaxCents: 0 },
}
let status: Record<string, number> = {}
/**
 * A server of each test's own (before.each): a request the previous test left travelling, which a loaded machine may
 * deliver late, reaches that test's server and is not recorded, never in the next test's `seen`. All closed at the end.
 */
const servers: Server[] = []
async function serve(): Promise<string> {
  const server: Server = createServer((req, res) => {
    if (servers.at(-1) === server) seen.push({ url: req.url!, headers: req.headers })
    const code = status[req.url!] ?? 200
    res.writeHead(code, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify(
        code === 200
          ? (bodies[req.url!] ?? {})
          : { message: 'Votre session a expiré. Veuillez vous reconnecter.', code: 'SESSION_EXPIRED' },
      ),
    )
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}
let baseURL = await serve()

let token = 'tok_early'
const unauthorized: ApiError[] = []

// Long enough for a request sent to arrive on a loaded machine (30 ms was not, once, in CI).
const settle = () => new Promise((resolve) => setTimeout(resolve, 150))
/** The ApiError a call ends with (fails the test if it succeeds). */
async function apiErrorOf(pending: Promise<unknown>): Promise<ApiError> {
  const error = await pending.then(
    () => assert.unreachable('the call succeeded'),
    (e: unknown) => e,
  )
  assert.instance(error, ApiError)
  return error as ApiError
}
const paths = () => seen.map((s) => s.url)

const Early = suite('startup calls sent by the entry')

Early.before.each(async () => {
  baseURL = await serve()
  seen.length = 0
  unauthorized.length = 0
  status = {}
  token = 'tok_early'
  forgetEarly()
  // (Each suite of test:api configures the client for itself.)
  configureApi({ baseURL, getToken: () => token, onUnauthorized: (e) => void unauthorized.push(e) })
})
Early.after(() => {
  for (const server of servers) server.close()
})

Early('user and contracts leave at once with the client’s headers, the orders once both answered', async () => {
  assert.ok(startEarly({ baseURL, token, page: earlyPage('/mes-courriers/courriers') }))
  await settle()
  assert.equal(paths().slice(0, 2).sort(), [EARLY_PATHS.contracts, EARLY_PATHS.user])
  assert.is(paths()[2], EARLY_PATHS.orders)
  assert.is(seen.length, 3, 'outside the dashboard, the startup’s three calls only')
  const header = (url: string) => seen.find((s) => s.url === url)!.headers
  assert.is(header(EARLY_PATHS.user).apitoken, token)
  assert.is(header(EARLY_PATHS.contracts).authorization, `Bearer ${token}`)
  assert.is(header(EARLY_PATHS.orders).apitoken, token)
})

Early('on the dashboard, the unpaid-invoice status leaves with the orders, with the client’s header', async () => {
  for (const path of [...DASHBOARD_ROUTES, '/tableau-de-bord/']) {
    forgetEarly()
    seen.length = 0
    assert.ok(startEarly({ baseURL, token, page: earlyPage(path) }), path)
    await settle()
    assert.equal(paths().slice(0, 2).sort(), [EARLY_PATHS.contracts, EARLY_PATHS.user], path)
    assert.equal(paths().slice(2).sort(), [EARLY_PATHS.orders, EARLY_PATHS.unpaid], path)
    assert.is(seen.find((s) => s.url === EARLY_PATHS.unpaid)!.headers.apitoken, token)
  }
})

Early('the client’s own calls take those answers: four requests in all, not eight', async () => {
  startEarly({ baseURL, token, page: earlyPage('/tableau-de-bord') })
  const [user, contracts] = await Promise.all([getCurrentUser(), getContracts()])
  assert.equal(user, bodies[EARLY_PATHS.user])
  assert.equal(contracts, bodies[EARLY_PATHS.contracts])
  assert.equal(await getMyOrders(), bodies[EARLY_PATHS.orders])
  assert.equal(await getUnpaidStatus(), bodies[EARLY_PATHS.unpaid])
  await settle()
  assert.is(seen.length, 4)
})

Early('an answer is taken once: the next call asks the server again', async () => {
  startEarly({ baseURL, token, page: earlyPage('/') })
  await getCurrentUser()
  await getCurrentUser()
  await settle()
  assert.is(paths().filter((p) => p === EARLY_PATHS.user).length, 2)
})

Early('a user/me refused: no orders are asked, and the client reports the 401 with the server’s message', async () => {
  status = { [EARLY_PATHS.user]: 401 }
  startEarly({ baseURL, token, page: earlyPage('/tableau-de-bord') })
  await settle()
  assert.not.ok(paths().includes(EARLY_PATHS.orders))
  assert.not.ok(paths().includes(EARLY_PATHS.unpaid), 'nor the unpaid status')
  const error = await apiErrorOf(getCurrentUser())
  assert.equal([error.status, error.message, error.code], [401, 'Votre session a expiré. Veuillez vous reconnecter.', 'SESSION_EXPIRED'])
  assert.is(unauthorized.length, 1)
  assert.is(seen.length, 2)
})

Early('contracts failing: no orders are asked either', async () => {
  status = { [EARLY_PATHS.contracts]: 500 }
  startEarly({ baseURL, token, page: earlyPage('/tableau-de-bord') })
  await settle()
  assert.equal(paths().sort(), [EARLY_PATHS.contracts, EARLY_PATHS.user])
  assert.is((await apiErrorOf(getContracts())).status, 500)
})

Early('another token (signed out and in again) or an answer older than EARLY_KEPT_MS: the client asks itself', async () => {
  let now = 1_000
  startEarly({ baseURL, token, page: earlyPage('/tableau-de-bord'), now: () => now })
  await settle()
  assert.is(
    takeEarly(EARLY_PATHS.user, 'tok_other', () => now),
    undefined,
  )
  now += EARLY_KEPT_MS
  assert.is(
    takeEarly(EARLY_PATHS.contracts, token, () => now),
    undefined,
  )
  assert.ok(takeEarly(EARLY_PATHS.orders, token, () => now - 1))
  token = 'tok_other'
  await getCurrentUser()
  assert.is(seen.at(-1)!.headers.apitoken, 'tok_other')
  assert.is(seen.length, 5, 'user, contracts, orders, the unpaid status, and the user again')
})

Early('once per page, and again at each sign-in: the new token’s answers replace those sent before', async () => {
  assert.ok(startEarly({ baseURL, token: 'tok_expired', page: earlyPage('/factures') }))
  assert.not.ok(startEarly({ baseURL, token: 'tok_expired', page: earlyPage('/factures') }), 'the page’s start is done once')
  await settle()
  // Signed in (again) on this page: sent for the new token at once, whatever was sent before.
  assert.ok(startEarly({ baseURL, token, page: earlyPage('/tableau-de-bord'), signedIn: true }))
  const [user, contracts] = await Promise.all([getCurrentUser(), getContracts()])
  assert.equal([user, contracts], [bodies[EARLY_PATHS.user], bodies[EARLY_PATHS.contracts]])
  assert.equal(await getMyOrders(), bodies[EARLY_PATHS.orders])
  await settle()
  const mine = seen.filter((s) => s.headers.apitoken === token || s.headers.authorization === `Bearer ${token}`).map((s) => s.url)
  assert.equal(mine.slice(0, 2).sort(), [EARLY_PATHS.contracts, EARLY_PATHS.user])
  assert.equal(mine.slice(2).sort(), [EARLY_PATHS.orders, EARLY_PATHS.unpaid])
  assert.is(seen.length, 7, 'three for the expired token, four for the new one: the client’s calls took these')
  assert.not.ok(startEarly({ baseURL, token, page: 'bare', signedIn: true }), 'a sign-in leading to a bare page sends nothing')
})

Early('no server: the taker gets the client’s French “cannot reach” error', async () => {
  startEarly({ baseURL: 'http://127.0.0.1:1', token, page: earlyPage('/tableau-de-bord') })
  const error = await apiErrorOf(getCurrentUser())
  assert.is(error.status, 0)
  assert.match(error.message, 'Impossible de joindre le serveur')
})

Early('a call cancelled while its early answer travels ends as cancelled', async () => {
  startEarly({ baseURL, token, page: earlyPage('/tableau-de-bord') })
  const controller = new AbortController()
  const pending = getCurrentUser({ signal: controller.signal })
  controller.abort()
  try {
    await pending
    assert.unreachable()
  } catch (error) {
    assert.is((error as Error).name, 'AbortError')
  }
})

Early('nothing is sent on the pages outside the dashboard layout, nor without a token', async () => {
  // A token of this test's own: a request the previous test left travelling (a loaded machine) carries its token, not this one.
  const bare = 'tok_bare_pages'
  for (const path of ['/login', '/reset-password', '/set-password/abc', '/missing-document', '/invitation/abc', '/verification/XYZ']) {
    assert.ok(isBarePath(path), path)
    assert.not.ok(startEarly({ baseURL, token: bare, page: earlyPage(path) }), path)
  }
  for (const path of ['/', '/tableau-de-bord', '/mes-courriers/courriers', '/loginx', '/verifications'])
    assert.not.ok(isBarePath(path), path)
  assert.not.ok(startEarly({ baseURL, token: '', page: 'dashboard' }))
  await settle()
  assert.equal(
    seen.filter((s) => s.headers.apitoken === bare || !s.headers.apitoken).map((s) => s.url),
    [],
  )
})

Early.run()
