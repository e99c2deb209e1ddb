// Passkeys (WebAuthn, checked by @simplewebauthn/server): add one, list, rename, remove, and sign in
// with one. Challenges are single-use, live five minutes and sit in the database, so any API instance
// can finish a ceremony another began. The password stays as the fallback.
import type { AuthenticationResponseJSON, AuthenticatorTransport, RegistrationResponseJSON } from '@simplewebauthn/server'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, HttpError, invalidSessionError, notFound } from '../../http/errors.ts'
import {
  addPasskeyForSession,
  consumeChallenge,
  credentialsOf,
  deletePasskey,
  findPasskeyByCredential,
  listPasskeys,
  openPasskeySession,
  renamePasskey,
  storeChallenge,
  type ChallengeKind,
} from '../../db/repositories/passkeys.ts'
import { toUser } from '../../db/repositories/users.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import { describeDevice, userAgentOf } from '../../services/devices.ts'
import { addDays, addMinutes } from '../../lib/time.ts'
import { isBlank } from '../../contract/rules/text.ts'
import { sendSecurityNotice } from '../../services/security-notice.ts'

export const CHALLENGE_MINUTES = 5

/** @simplewebauthn/server (with its ASN.1 and X.509 packages, a sixth of the server's code) loads with the first ceremony: no start compiles it. */
const webauthn = () =>
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

/** The relying party: the portal's host name (PUBLIC_URL); the origins the browser may sign for. */
function relyingParty(config: AppDeps['config']) {
  return { rpID: new URL(config.publicUrl).hostname, origins: config.allowedOrigins }
}

export function passkeyRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, config, clock } = deps
  const rp = () => relyingParty(config)

  /** Checks the challenge the browser signed is one we gave out for this ceremony, and spends it. */
  const spend = (kind: ChallengeKind, userId: number | null) => async (challenge: string) =>
    consumeChallenge(db, challenge, kind, userId, clock.now())

  const keep = async (challenge: string, kind: ChallengeKind, userId: number | null) =>
    storeChallenge(db, { challenge, kind, userId, expiresAt: addMinutes(clock.now(), CHALLENGE_MINUTES), now: clock.now() })

  define('passkeys', async ({ user }) => listPasskeys(db, user.id))

  define('passkeyRegistrationOptions', async ({ user }) => {
    const held = await credentialsOf(db, user.id)
    const { generateRegistrationOptions } = await webauthn()
    const options = await generateRegistrationOptions({
      rpName: config.brandName,
      rpID: rp().rpID,
      userName: user.email,
      userDisplayName: `${user.firstname} ${user.lastname}`,
      userID: new TextEncoder().encode(`user-${user.id}`),
      attestationType: 'none',
      timeout: CHALLENGE_MINUTES * 60_000,
      excludeCredentials: held.map((c) => ({ id: c.credential_id, transports: c.transports as AuthenticatorTransport[] })),
      // Discoverable, so that /login can offer it without asking the e-mail first.
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    })
    await keep(options.challenge, 'registration', user.id)
    return options as unknown as Record<string, unknown>
  })

  define('registerPasskey', async ({ user, body, req }) => {
    const { verifyRegistrationResponse, isoBase64URL } = await webauthn()
    const verification = await verifyRegistrationResponse({
      response: body.credential as unknown as RegistrationResponseJSON,
      expectedChallenge: spend('registration', user.id),
      expectedOrigin: rp().origins,
      expectedRPID: rp().rpID,
      requireUserVerification: false,
    }).catch((error: Error) => {
      throw badRequest(/challenge/i.test(error.message) ? passkeyMessages.expired : passkeyMessages.refused, 'PASSKEY_REFUSED')
    })
    if (!verification.verified) throw badRequest(passkeyMessages.refused, 'PASSKEY_REFUSED')
    const { credential } = verification.registrationInfo
    const given = body.name?.trim() ?? ''
    const name = isBlank(given) ? describeDevice(userAgentOf(req.headers)) : given
    const passkey = await addPasskeyForSession(db, {
      userId: user.id,
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? body.credential.response.transports ?? [],
      name,
      tokenHash: user.tokenHash,
      now: clock.now(),
    }).catch((error: unknown) => {
      throw isUniqueViolation(error) ? new HttpError(409, passkeyMessages.already, 'CONFLICT') : error
    })
    // The session ended since it was checked (a reset or a revert link, which remove the keys): the key is not kept.
    if (passkey === 'ended') throw invalidSessionError()
    // The account is told, so a stolen session cannot leave one behind unnoticed (a reset by the e-mailed link removes them).
    await sendSecurityNotice(deps, { kind: 'passkey-added', to: user.email, firstname: user.firstname, name }, null, req.log)
    return passkey
  })

  define('renamePasskey', async ({ user, params, body }) => {
    const name = body.name.trim()
    if (isBlank(name)) throw badRequest('Donnez un nom à la clé d’accès.')
    const passkey = await renamePasskey(db, user.id, params.id, name)
    if (!passkey) throw notFound('Clé d’accès')
    return passkey
  })

  define('deletePasskey', async ({ user, params }) => {
    if (!(await deletePasskey(db, user.id, params.id))) throw notFound('Clé d’accès')
    return { message: 'La clé d’accès a été supprimée. Vous pouvez toujours vous connecter avec votre mot de passe.' }
  })

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
