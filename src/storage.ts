// What the browser keeps between visits: the user object under one key (spec §4, §9), and the
// default order. Storage can be unavailable (private browsing, quotas): nothing here throws.
import type { AuthUser } from '../server/contract/schemas.ts'
import type { StoredChoice } from './machines/startup.machine.ts'

export const USER_KEY = 'user'
export const DEFAULT_ORDER_KEY = 'defaultOrder'

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>

const listeners = new Set<() => void>()
const changed = () => listeners.forEach((listener) => listener())

/** Follows the stored user entry: written or removed here, or in another tab. */
export function subscribeStoredUser(listener: () => void): () => void {
  listeners.add(listener)
  const onStorage = (event: StorageEvent) => event.key === USER_KEY && listener()
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('storage', onStorage)
  }
}

/** The route guard's only question (spec §5): is a user entry stored? */
export function hasStoredUser(storage: Storage = localStorage): boolean {
  return readStoredUser(storage) !== null
}

function attempt<T>(fn: () => T, fallback: T): T {
  try {
    return fn()
  } catch {
    return fallback
  }
}

export function readStoredUser(storage: Storage = localStorage): AuthUser | null {
  return attempt(() => {
    const raw = storage.getItem(USER_KEY)
    if (!raw) return null
    const user = JSON.parse(raw) as Partial<AuthUser> | null
    if (!user || typeof user.apiToken !== 'string' || user.apiToken === '') {
      storage.removeItem(USER_KEY)
      return null
    }
    return user as AuthUser
  }, null)
}

export function writeStoredUser(user: AuthUser, storage: Storage = localStorage): void {
  attempt(() => storage.setItem(USER_KEY, JSON.stringify(user)), undefined)
  changed()
}

/** Logout, or a failed current-user fetch: the user and their default order go. */
export function removeStoredSession(storage: Storage = localStorage): void {
  attempt(() => {
    storage.removeItem(USER_KEY)
    storage.removeItem(DEFAULT_ORDER_KEY)
  }, undefined)
  changed()
}

export function readStoredChoice(storage: Storage = localStorage): StoredChoice | null {
  return attempt(() => {
    const raw = storage.getItem(DEFAULT_ORDER_KEY)
    if (raw === 'all') return 'all'
    const id = Number(raw)
    return raw !== null && Number.isInteger(id) && id > 0 ? id : null
  }, null)
}

export function writeStoredChoice(choice: StoredChoice, storage: Storage = localStorage): void {
  attempt(() => storage.setItem(DEFAULT_ORDER_KEY, String(choice)), undefined)
}
