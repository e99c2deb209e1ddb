// Signing in with a passkey (WebAuthn, checked by @simplewebauthn/server), and what every ceremony shares: adding
// one is the people area's (people/passkeys.ts). Challenges are single-use, live five minutes and sit in the database, so any API instance
// can finish a ceremony another began. The password stays as the fallback.
import type { AuthenticationResponseJSON, AuthenticatorTransport } from '@simplewebauthn/server'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { HttpError } from '../../http/errors.ts'
import {
  consumeChallenge,
  findPasskeyByCredential,
  openPasskeySession,
  storeChallenge,
  type ChallengeKind,
} from '../../db/repositories/session-passkeys.ts'
import { toUser } from '../../db/repositories/session.ts'
import { userAgentOf } from '../../services/devices.ts'
import { addDays, addMinutes } from '../../lib/time.ts'

export const CHALLENGE_MINUTES = 5

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

/** What a ceremony needs: the relying party, and its single-use challenges kept in the database and spent. */
export function ceremony({ db, config, clock }: AppDeps) {
  return {
    /** The relying party: the portal's host name (PUBLIC_URL); the origins the browser may sign for. */
    rp: () => ({ rpID: new URL(config.publicUrl).hostname, origins: config.allowedOrigins }),
    /** Checks the challenge the browser signed is one we gave out for this ceremony, and spends it. */
    spend: (kind: ChallengeKind, userId: number | null) => async (challenge: string) =>
      consumeChallenge(db, challenge, kind, userId, clock.now()),
    keep: async (challenge: string, kind: ChallengeKind, userId: number | null) =>
      storeChallenge(db, { challenge, kind, userId, expiresAt: addMinutes(clock.now(), CHALLENGE_MINUTES), now: clock.now() }),
  }
}

export function passkeyLoginRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, config, clock } = deps
  const { rp, spend, keep } = ceremony(deps)

  define('passkeyLoginOptions', async () => {
    const { generateAuthenticationOptions } = await webauthn()
    const options = await generateAuthenticationOptions({
      rpID: rp().rpID,
      userVerification: 'preferred',
      timeout: CHALLENGE_MINUTES * 60_000,
    })
    await keep(options.challenge, 'authentication', null)
    return options as unknown as Record<string, unknown>
  })

  define('passkeyLogin', async ({ body, req }) => {
    const passkey = await findPasskeyByCredential(db, body.credential.id)
    if (!passkey) throw new HttpError(401, passkeyMessages.unknown, 'UNKNOWN_PASSKEY')
    const { verifyAuthenticationResponse, isoBase64URL } = await webauthn()
    const verification = await verifyAuthenticationResponse({
      response: body.credential as unknown as AuthenticationResponseJSON,
      expectedChallenge: spend('authentication', null),
      expectedOrigin: rp().origins,
      expectedRPID: rp().rpID,
      credential: {
        id: passkey.credential_id,
        publicKey: isoBase64URL.toBuffer(passkey.public_key),
        counter: Number(passkey.counter),
        transports: passkey.transports as AuthenticatorTransport[],
      },
      requireUserVerification: false,
    }).catch((error: Error) => {
      throw new HttpError(401, /challenge/i.test(error.message) ? passkeyMessages.expired : passkeyMessages.refused, 'PASSKEY_REFUSED')
    })
    if (!verification.verified) throw new HttpError(401, passkeyMessages.refused, 'PASSKEY_REFUSED')
    const expiresAt = addDays(clock.now(), config.tokenTtlDays)
    const opened = await openPasskeySession(db, {
      passkeyId: passkey.id,
      userId: passkey.user_id,
      counter: verification.authenticationInfo.newCounter,
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
