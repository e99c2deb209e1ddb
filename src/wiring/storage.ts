// Everything the browser keeps between visits, in one place: the user object under one key (spec §4,
// §9), each person's default order, the menu's expanded flag and the accounting inbox address. Storage can be
// unavailable (private browsing, quotas): nothing here throws, a value is then simply not kept.
import type { AuthUser } from '../../server/contract/session.ts'
import type { StoredChoice } from '../machines/session/startup.machine.ts'

export const USER_KEY = 'user'
/** The default order of each person who signed in on this browser, by user id: it outlives their sign-out. */
export const DEFAULT_ORDERS_KEY = 'defaultOrders'
/** Before: one default order for the browser, removed with the user at every sign-out (adoptUnkeyedChoice). */
export const UNKEYED_DEFAULT_ORDER_KEY = 'defaultOrder'
export const MENU_EXPANDED_KEY = 'menuExpanded'
export const DEXT_EMAIL_KEY = 'dextEmail'

function attempt<T>(fn: () => T, fallback: T): T {
  try {
    return fn()
  } catch {
    return fallback
  }
}
const read = (key: string) => attempt(() => localStorage.getItem(key), null)
const write = (key: string, value: string) => attempt(() => localStorage.setItem(key, value), undefined)
/** For the keys an area keeps in its own module, out of /login's first load (fiscal-settings.ts). */
/** A key holding one JSON object (entries by order or by user); {} when absent or unreadable. */
const readRecord = (key: string): Record<string, unknown> =>
  attempt(() => {
    const all = JSON.parse(read(key) ?? '{}') as unknown
    return all && typeof all === 'object' && !Array.isArray(all) ? (all as Record<string, unknown>) : {}
  }, {})

export { readRecord, write as writeKey }

// The user entry's followers; true when another tab changed it (one `storage` listener).
const userListeners = new Set<(elsewhere: boolean) => void>()
const userChanged = () => userListeners.forEach((listener) => listener(false))
// (No window when /login is rendered ahead at build time: src/prerender.tsx.)
globalThis.window?.addEventListener('storage', (event) => event.key === USER_KEY && userListeners.forEach((listener) => listener(true)))

/** Adds a follower of the user entry; answers the function that removes it. */
function followUser(follower: (elsewhere: boolean) => void): () => void {
  userListeners.add(follower)
  return () => void userListeners.delete(follower)
}

/** Follows the stored user entry: written or removed here, or in another tab. */
export const subscribeStoredUser = (listener: () => void): (() => void) => followUser(() => listener())

/**
 * Signing out in another tab: the user entry changed there and is gone now. Read when the event arrives, not from
 * it: a removal followed at once by a new entry (written back since) is no sign-out.
 */
export const onSignedOutElsewhere = (listener: () => void) => followUser((elsewhere) => elsewhere && !hasStoredUser() && listener())

/** Signing in in another tab: the user entry changed there and holds a user now, handed to the listener. */
export const onSignedInElsewhere = (listener: (user: AuthUser) => void) =>
  followUser((elsewhere) => {
    const user = elsewhere ? readStoredUser() : null
    if (user) listener(user)
  })

/** The route guard's only question (spec §5): is a user entry stored? */
export const hasStoredUser = (): boolean => readStoredUser() !== null

export function readStoredUser(): AuthUser | null {
  return attempt(() => {
    const user = JSON.parse(read(USER_KEY) ?? 'null') as Partial<AuthUser> | null
    if (user && typeof user.apiToken === 'string' && user.apiToken !== '') return user as AuthUser
    localStorage.removeItem(USER_KEY)
    return null
  }, null)
}

export function writeStoredUser(user: AuthUser): void {
  write(USER_KEY, JSON.stringify(user))
  userChanged()
}

/**
 * Logout, or a failed current-user fetch: the user goes, unless the entry holds another sign-in than this tab's
 * (`apiToken`), written since by another tab: that one stays. Their default order stays (kept by user id): signing in
 * again, after a sign-out or an expiry, shows the company chosen last without the selection screen.
 */
export function removeStoredSession(apiToken: string | null): void {
  const stored = readStoredUser()
  if (stored && stored.apiToken !== apiToken) return
  attempt(() => localStorage.removeItem(USER_KEY), undefined)
  userChanged()
}

/** An order id, or 'all' ('Tous'); anything else (an entry edited by hand, another version's) is no choice. */
const asChoice = (value: unknown): StoredChoice | null =>
  value === 'all' || (typeof value === 'number' && Number.isInteger(value) && value > 0) ? value : null

/** The default order `userId` chose last on this browser, if any (the startup checks it is still one of theirs). */
export const readStoredChoice = (userId: number): StoredChoice | null => asChoice(readRecord(DEFAULT_ORDERS_KEY)[String(userId)])

export const writeStoredChoice = (userId: number, choice: StoredChoice) =>
  write(DEFAULT_ORDERS_KEY, JSON.stringify({ ...readRecord(DEFAULT_ORDERS_KEY), [userId]: choice }))

/**
 * The one unkeyed entry of earlier versions ("2", "all"), read once when the session starts. It always went with the
 * user, so one still there belongs to the user stored now, who adopts it (unless they have one already); with no user
 * stored, whose it was is unknown: it is dropped.
 */
export function adoptUnkeyedChoice(): void {
  const raw = read(UNKEYED_DEFAULT_ORDER_KEY)
  if (raw === null) return
  attempt(() => localStorage.removeItem(UNKEYED_DEFAULT_ORDER_KEY), undefined)
  const user = readStoredUser()
  const choice = asChoice(raw === 'all' ? raw : Number(raw))
  if (user && choice !== null && readStoredChoice(user.id) === null) writeStoredChoice(user.id, choice)
}

/** The side menu is expanded unless the customer folded it. */
export const readMenuExpanded = () => read(MENU_EXPANDED_KEY) !== 'false'
export const writeMenuExpanded = (expanded: boolean) => write(MENU_EXPANDED_KEY, String(expanded))

/**
 * The accounting inbox address of the last export that went through, kept per person (by user id): on a browser
 * shared by two customers, the second is never offered the first's accounting inbox.
 */
export function readDextEmail(): string | null {
  const user = readStoredUser()
  const email = user ? readRecord(DEXT_EMAIL_KEY)[String(user.id)] : null
  return typeof email === 'string' ? email : null
}

export function writeDextEmail(email: string): void {
  const user = readStoredUser()
  if (user) write(DEXT_EMAIL_KEY, JSON.stringify({ ...readRecord(DEXT_EMAIL_KEY), [user.id]: email }))
}
