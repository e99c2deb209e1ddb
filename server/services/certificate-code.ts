import { randomBytes } from 'node:crypto'

// Crockford's base32: no I, L, O or U to misread. 12 characters are 60 random bits (256 is a multiple of 32: no bias).
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** A certificate's verification code, e.g. K7QM-2XPA-9D4F. */
export function newCertificateCode(): string {
  const chars = [...randomBytes(12)].map((byte) => ALPHABET[byte & 31]).join('')
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`
}
