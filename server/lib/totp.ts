// Time-based one-time codes (RFC 6238: HMAC-SHA1, 6 digits, 30-second steps), through otpauth rather than a hand-written
// HMAC: what authenticator apps expect (base32 secrets, otpauth:// URIs) is the library's whole job.
import { Secret, TOTP } from 'otpauth'

export const TOTP_PERIOD_SECONDS = 30
/** A code of the step before or after the current one is still taken: the phone's clock and the typing take time. */
export const TOTP_WINDOW = 1

const options = { algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_SECONDS } as const

/** A new secret of 160 bits (RFC 4226's recommended length), in base32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32

/** The time step a moment falls in. */
export const totpStep = (at: Date): number => Math.floor(at.getTime() / 1000 / TOTP_PERIOD_SECONDS)

/** The step whose code `code` is, within the window around `now`; null when it is none of them. */
export function matchTotp(secret: string, code: string, now: Date): number | null {
  const delta = TOTP.validate({ ...options, token: code, secret: Secret.fromBase32(secret), timestamp: now.getTime(), window: TOTP_WINDOW })
  return delta === null ? null : totpStep(now) + delta
}

/** The code of the step `at` falls in (the demo's and the tests' authenticator). */
export const totpCode = (secret: string, at: Date): string =>
  TOTP.generate({ ...options, secret: Secret.fromBase32(secret), timestamp: at.getTime() })

/** What an authenticator app reads from a QR code: otpauth://totp/<issuer>:<account>?secret=… */
export const otpauthUri = (secret: string, account: string, issuer: string): string =>
  new TOTP({ ...options, issuer, label: account, secret: Secret.fromBase32(secret) }).toString()
