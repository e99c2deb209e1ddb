// Signing in with a passkey (WebAuthn, checked by @simplewebauthn/server), and what every ceremony shares: adding
// one is the people area's (people/passkeys.ts). Challenges are single-use, live five minutes and sit in the database, so any API instance
// can finish a ceremony another began. The password stays as the fallback.
import type { AuthenticationResponseJSON, AuthenticatorTransport, RegistrationResponseJSON } from '@simplewebauthn/server'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, HttpError } from '../../http/errors.ts'
import {
  consumeChallenge,
  findPasskeyByCredential,
  openPasskeySession,
  storeChallenge,
  type ChallengeKind,
  type ChallengeOwner,
} from '../../db/repositories/session-passkeys.ts'
import { toUser } from '../../db/repositories/session.ts'
import { userAgentOf } from '../../services/devices.ts'
import { addDays, addMinutes } from '../../lib/time.ts'

export const CHALLENGE_MINUTES = 5

/**
 * The keys a passkey may be (COSE algorithms, preferred first): EdDSA, ES256, RS256, on every Node. Named rather than
 * left to @simplewebauthn/server's default, which on Node 24 puts ML-DSA-44 first as soon as the runtime's
 * `SubtleCrypto.supports` says it can verify it, an API Node still calls experimental: a key made so would be
 * verified by it at every sign-in, and the production image (Node 24) would offer what the development machine
 * (Node 20) never tests.
 */
export const PASSKEY_ALGORITHMS = [-8, -7, -257]

/**
 * @simplewebauthn/server (with its ASN.1 and X.509 packages, a sixth of the server's code) loads with the first ceremony: no start
 * compiles it.
 */
export const webauthn = () =>
  Promise.all([import('@simplewebauthn/server'), import('@simplewebauthn/server/helpers')]).then(([server, helpers]) => ({
    ...server,
    isoBase64URL: helpers.isoBase64URL,
  }))

export const passkeyMessages = {
  refused: 'La clé d’accès n’a pas pu être vérifiée. Recommencez, ou connectez-vous avec votre mot de passe.',
  unknown:
    'Cette clé d’accès n’est pas enregistrée dans votre espace. Connectez-vous avec votre mot de passe, puis ajoutez-la dans « Informations personnelles ».',
  expired: 'La demande a expiré ou a déjà servi : recommencez.',
  already: 'Cette clé d’accès est déjà enregistrée.',
} as const

/** What a stored credential gives the check of a signature. */
export interface StoredCredential {
  credential_id: string
  public_key: string
  counter: string | number
  transports: string[]
}

/** The words of a refusal: each side (customers, operators) says where to go next. */
export interface CeremonyMessages {
  refused: string
  expired: string
}

/**
 * What every ceremony shares, the customers' (people/passkeys.ts, below) and the operators' (operators/passkeys.ts): the
 * relying party, the single-use challenges kept in the database for their owner, and the checks of @simplewebauthn/server.
 * One implementation: a fix here is a fix for both.
 */
export function ceremony({ db, config, clock }: AppDeps) {
  /** The relying party: the portal's host name (PUBLIC_URL); the origins the browser may sign for. */
  const rp = () => ({ rpID: new URL(config.publicUrl).hostname, origins: config.allowedOrigins })
  /** Checks the challenge the browser signed is one we gave out for this ceremony and owner, and spends it. */
  const spend = (kind: ChallengeKind, owner: ChallengeOwner) => async (challenge: string) =>
    consumeChallenge(db, challenge, kind, owner, clock.now())
  const keep = async (challenge: string, kind: ChallengeKind, owner: ChallengeOwner) =>
    storeChallenge(db, { challenge, kind, owner, expiresAt: addMinutes(clock.now(), CHALLENGE_MINUTES), now: clock.now() })
  return {
    rp,
    /** Creation options for `owner`'s new key (discoverable), its challenge kept; `held`: the keys the browser must not remake. */
    async registrationOptions(
      owner: ChallengeOwner,
      who: { userName: string; displayName: string; userID: string; held: { credential_id: string; transports: string[] }[] },
    ) {
      const { generateRegistrationOptions } = await webauthn()
      const options = await generateRegistrationOptions({
        rpName: config.brandName,
        rpID: rp().rpID,
        userName: who.userName,
        userDisplayName: who.displayName,
        userID: new TextEncoder().encode(who.userID),
        attestationType: 'none',
        timeout: CHALLENGE_MINUTES * 60_000,
        excludeCredentials: who.held.map((c) => ({ id: c.credential_id, transports: c.transports as AuthenticatorTransport[] })),
        // Discoverable, so that /login can offer it without asking the e-mail first.
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
        supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
      })
      await keep(options.challenge, 'registration', owner)
      return options as unknown as Record<string, unknown>
    },
    /** Request options, its challenge kept for `owner`; `allowed`: the keys that may answer (any discoverable one if none). */
    async authenticationOptions(owner: ChallengeOwner, allowed: { credential_id: string; transports: string[] }[] = []) {
      const { generateAuthenticationOptions } = await webauthn()
      const options = await generateAuthenticationOptions({
        rpID: rp().rpID,
        userVerification: 'preferred',
        timeout: CHALLENGE_MINUTES * 60_000,
        ...(allowed.length > 0
          ? { allowCredentials: allowed.map((c) => ({ id: c.credential_id, transports: c.transports as AuthenticatorTransport[] })) }
          : {}),
      })
      await keep(options.challenge, 'authentication', owner)
      return options as unknown as Record<string, unknown>
    },
    /** The browser's answer to creation options checked against `owner`'s challenge: the credential to store, or a 400. */
    async verifyRegistration(owner: ChallengeOwner, response: unknown, messages: CeremonyMessages) {
      const { verifyRegistrationResponse, isoBase64URL } = await webauthn()
      const verification = await verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: spend('registration', owner),
        expectedOrigin: rp().origins,
        expectedRPID: rp().rpID,
        requireUserVerification: false,
        supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
      }).catch((error: Error) => {
        throw badRequest(/challenge/i.test(error.message) ? messages.expired : messages.refused, 'PASSKEY_REFUSED')
      })
      if (!verification.verified) throw badRequest(messages.refused, 'PASSKEY_REFUSED')
      const { credential } = verification.registrationInfo
      const answered = (response as RegistrationResponseJSON).response.transports ?? []
      return {
        credentialId: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: (credential.transports ?? answered) as string[],
      }
    },
    /**
     * A signature checked against the stored key and `owner`'s challenge: the counter it carried (to note with
     * markPasskeyUsed, which refuses one not above the stored), or a 401.
     */
    async verifyAuthentication(owner: ChallengeOwner, response: unknown, stored: StoredCredential, messages: CeremonyMessages) {
      const { verifyAuthenticationResponse, isoBase64URL } = await webauthn()
      const verification = await verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge: spend('authentication', owner),
        expectedOrigin: rp().origins,
        expectedRPID: rp().rpID,
        credential: {
          id: stored.credential_id,
          publicKey: isoBase64URL.toBuffer(stored.public_key),
          counter: Number(stored.counter),
          transports: stored.transports as AuthenticatorTransport[],
        },
        requireUserVerification: false,
      }).catch((error: Error) => {
        throw new HttpError(401, /challenge/i.test(error.message) ? messages.expired : messages.refused, 'PASSKEY_REFUSED')
      })
      if (!verification.verified) throw new HttpError(401, messages.refused, 'PASSKEY_REFUSED')
      return verification.authenticationInfo.newCounter
    },
  }
}

export function passkeyLoginRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, config, clock } = deps
  const { authenticationOptions, verifyAuthentication } = ceremony(deps)

  define('passkeyLoginOptions', async () => authenticationOptions(null))

  define('passkeyLogin', async ({ body, req }) => {
    const passkey = await findPasskeyByCredential(db, body.credential.id)
    if (!passkey) throw new HttpError(401, passkeyMessages.unknown, 'UNKNOWN_PASSKEY')
    const counter = await verifyAuthentication(null, body.credential, passkey, passkeyMessages)
    const expiresAt = addDays(clock.now(), config.tokenTtlDays)
    const opened = await openPasskeySession(db, {
      passkeyId: passkey.id,
      userId: passkey.user_id,
      counter,
      expiresAt,
      userAgent: userAgentOf(req.headers),
      now: clock.now(),
    })
    // The key was removed since it was read (a reset or a revert link): no session outlives them.
    if (opened === 'unknown') throw new HttpError(401, passkeyMessages.unknown, 'UNKNOWN_PASSKEY')
    // Another sign-in with this key wrote a counter as high since it was read: this signature is older, refused as it
    // would have been had it come after (the counter never goes back).
    if (opened === 'refused') throw new HttpError(401, passkeyMessages.refused, 'PASSKEY_REFUSED')
    return { ...toUser(opened.user), apiToken: opened.apiToken, apiTokenExpiresAt: expiresAt.toISOString() }
  })
}
