// A software passkey for the server tests: an ES256 key pair that answers WebAuthn ceremonies the way
// a browser and its authenticator would (attestation "none"), so registration and sign-in are checked
// by the real @simplewebauthn/server. The browser journeys use Chromium's virtual authenticator instead.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor }

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length])
  if (length < 256) return Buffer.from([(major << 5) | 24, length])
  if (length < 65536) return Buffer.from([(major << 5) | 25, length >> 8, length & 255])
  const b = Buffer.alloc(5)
  b[0] = (major << 5) | 26
  b.writeUInt32BE(length, 1)
  return b
}

/** Just enough CBOR for an attestation object and a COSE key. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)])
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)])
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)])
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value)
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])])
}

export interface SoftPasskeyOptions {
  origin: string
  rpId: string
}

export class SoftPasskey {
  readonly credentialId = randomBytes(16)
  private readonly privateKey: KeyObject
  private readonly publicKey: KeyObject
  private counter = 0
  private userHandle = ''

  constructor(private readonly options: SoftPasskeyOptions) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    this.privateKey = pair.privateKey
    this.publicKey = pair.publicKey
  }

  get id() {
    return b64url(this.credentialId)
  }

  private coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' })
    return cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    )
  }

  private authData(flags: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4)
    count.writeUInt32BE(this.counter)
    return Buffer.concat([sha256(this.options.rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])])
  }

  private clientData(type: string, challenge: string, origin = this.options.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
  }

  /** The browser's answer to registration options (navigator.credentials.create). */
  register(options: { challenge: string; user: { id: string } }, overrides: { origin?: string } = {}) {
    this.userHandle = options.user.id
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(this.credentialId.length)
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.coseKey()])
    const authData = this.authData(0x01 | 0x04 | 0x40, attested)
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, overrides.origin)),
        attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData })),
        transports: ['internal'],
      },
    }
  }

  /** The browser's answer to sign-in options (navigator.credentials.get): a signature over the challenge. */
  authenticate(options: { challenge: string }, overrides: { origin?: string } = {}) {
    this.counter += 1
    const authData = this.authData(0x01 | 0x04)
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, overrides.origin)
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey)
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
    }
  }
}
