import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2'
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

// Argon2id at OWASP's first recommended setting (Password Storage Cheat Sheet): 19 MiB, 2 passes, 1 lane.
// algorithm 2 is Argon2id (the package's const enum, which this build cannot import).
export const ARGON2_PARAMS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const
const ARGON2_PREFIX = `$argon2id$v=19$m=${ARGON2_PARAMS.memoryCost},t=${ARGON2_PARAMS.timeCost},p=${ARGON2_PARAMS.parallelism}$`

const normalise = (password: string) => password.normalize('NFC')

/** An argon2id hash in the PHC format (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`). */
export function hashPassword(password: string): Promise<string> {
  return argon2Hash(normalise(password), ARGON2_PARAMS)
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$argon2')) return argon2Verify(stored, normalise(password)).catch(() => false)
  if (stored.startsWith('scrypt$')) return verifyScrypt(password, stored)
  return false
}

/** A hash made with another scheme or weaker settings: replaced at the next sign-in. */
export const needsRehash = (stored: string) => !stored.startsWith(ARGON2_PREFIX)

// The hashes stored before argon2id: scrypt (N=2^14, r=8, p=1), `scrypt$N$r$p$salt$hash` in base64url.
const SCRYPT_KEY_LENGTH = 64

/**
 * A stored value of the older scheme, at its settings, for failed sign-ins only: checking a password against it costs
 * what an account still on scrypt costs (about 40 ms against 6 ms for argon2id), so that a failure's time does not tell
 * which accounts have not signed in since argon2id came (account routes). Random bytes, not a hash of anything: the
 * check's cost is the scrypt of the password tried, and nothing ever matches.
 */
export const legacySchemeDecoy = () =>
  ['scrypt', 16_384, 8, 1, randomBytes(16).toString('base64url'), randomBytes(SCRYPT_KEY_LENGTH).toString('base64url')].join('$')

function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, hash] = stored.split('$')
  if (!salt || !hash) return Promise.resolve(false)
  const expected = Buffer.from(hash, 'base64url')
  const params = { N: Number(n), r: Number(r), p: Number(p), maxmem: 256 * 1024 * 1024 }
  return new Promise((resolve) =>
    scrypt(normalise(password), Buffer.from(salt, 'base64url'), SCRYPT_KEY_LENGTH, params, (err, key) =>
      resolve(!err && key.length === expected.length && timingSafeEqual(key, expected)),
    ),
  )
}

/** A random secret of 256 bits, for API tokens and reset links. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url')
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

export function sha1(value: string): string {
  return createHash('sha1').update(value).digest('hex')
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** The key the SPA sends with subscription calls: SHA-1 of the order id followed by the subscription id (spec §9). */
export function subscriptionKey(orderId: number, subscriptionId: string): string {
  return sha1(String(orderId) + subscriptionId)
}
