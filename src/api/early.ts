// The startup's first round trips, sent by the entry itself (main.tsx) when the page opens with a
// stored user: the user and their contracts, then, once both answered, their domiciliation orders
// (spec §4, in that order). They would otherwise leave only once the session's and the startup's code
// has arrived and run; sent from here they travel while that code loads. The client (client.ts) then
// hands each answer, once, to the startup machine's own call for the same path with the same token,
// instead of sending that call: the same calls, in the same order, with the same headers, each made
// once. An answer nobody took within EARLY_KEPT_MS is dropped (the machine then asks again).
// A sign-in sends them the same way as soon as it has the token (the session, src/wiring/session-actor.ts): they
// travel while the startup is built and spawned, instead of after it.
// On the dashboard, the unpaid-invoice status (GET user-unpaid-status, the dashboard's own call, not the
// startup's) leaves with the orders: the dashboard shows its banner and its lists together, and would
// otherwise ask it only once its code has run, a round trip after the lists.
// Kept small and free of imports: it is part of every page's first load, and inlined in the signed-in page
// (esbuild.config.mjs) with src/wiring/early-start.ts, which tells it which page opens (src/wiring/bare-pages.ts).

export const EARLY_KEPT_MS = 10_000

export const EARLY_PATHS = {
  user: '/api-protected/user/me',
  contracts: '/api-protected/contracts',
  orders: '/api-protected/my-domiciliation-orders',
  unpaid: '/api-protected/user-unpaid-status',
} as const

/** The page that opens: a bare one (nothing is sent), the dashboard (its unpaid-invoice status leaves too), another. */
export type EarlyPage = 'bare' | 'dashboard' | 'other'

interface Sent {
  token: string
  at: number
  response: Promise<Response>
}

// Shared through the page's global object: a production build runs this module twice, inline in the
// signed-in page (so that the calls leave while the HTML is parsed, before any script is fetched) and
// in the entry's code, whose client takes the answers; the second start is then a no-op.
interface Registry {
  started: boolean
  sent: Map<string, Sent>
}
const registry: Registry = ((globalThis as { __portalEarly?: Registry }).__portalEarly ??= { started: false, sent: new Map() })
const { sent } = registry

export interface EarlyStart {
  /** API_BASE_URL (config.ts). */
  baseURL: string
  /** The stored user's token (storage.ts). */
  token: string
  /** The page that opens. */
  page: EarlyPage
  now?: () => number
  /**
   * A sign-in on this page has just given the token (src/wiring/session-actor.ts): sent even if the page's opening sent
   * some already (another user's, or an expired token's), whose answers the new ones replace.
   */
  signedIn?: boolean
}

/**
 * Sends the user and contracts, then the orders once both succeeded (and, on the dashboard, the unpaid-invoice
 * status), once per page, and again on each sign-in. Answers whether it sent.
 */
export function startEarly({ baseURL, token, page, now = Date.now, signedIn = false }: EarlyStart): boolean {
  if ((registry.started && !signedIn) || !token || page === 'bare') return false
  registry.started = true
  const send = (url: string, headers: Record<string, string>) => {
    const response = fetch(baseURL + url, { headers })
    // A failure is the taker's to report (as the client would); unhandled until taken, it stays silent.
    response.catch(() => {})
    sent.set(url, { token, at: now(), response })
    return response
  }
  const user = send(EARLY_PATHS.user, { apiToken: token })
  const contracts = send(EARLY_PATHS.contracts, { Authorization: `Bearer ${token}` })
  Promise.all([user, contracts]).then(
    ([u, c]) => {
      if (!u.ok || !c.ok) return
      send(EARLY_PATHS.orders, { apiToken: token })
      if (page === 'dashboard') send(EARLY_PATHS.unpaid, { apiToken: token })
    },
    () => {},
  )
  return true
}

/** The answer sent early for this GET with this token, once, if it is still fresh. */
export function takeEarly(path: string, token: string | null, now = Date.now): Promise<Response> | undefined {
  const early = sent.get(path)
  if (!early) return undefined
  sent.delete(path)
  return early.token === token && now() - early.at < EARLY_KEPT_MS ? early.response : undefined
}

/** For tests: forgets what was sent, and that it was. */
export function forgetEarly(): void {
  sent.clear()
  registry.started = false
}
