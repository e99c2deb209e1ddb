// The account's passkeys (WebAuthn, checked by @simplewebauthn/server): add one, list, rename, remove; signing in with
// one is the session area's (session/passkeys.ts), as is what every ceremony shares. Challenges are single-use, live five minutes and sit
// in the database, so any API instance
// can finish a ceremony another began. The password stays as the fallback.
import type { AuthenticatorTransport, RegistrationResponseJSON } from '@simplewebauthn/server'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, HttpError, invalidSessionError, notFound } from '../../http/errors.ts'
import { addPasskeyForSession, credentialsOf, deletePasskey, listPasskeys, renamePasskey } from '../../db/repositories/session-passkeys.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import { describeDevice, userAgentOf } from '../../services/devices.ts'
import { isBlank } from '../../contract/rules/text.ts'
import { CHALLENGE_MINUTES, ceremony, passkeyMessages, webauthn } from '../session/passkeys.ts'
import { sendSecurityNotice } from '../../services/security-notice.ts'

export function passkeyRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, config, clock } = deps
  const { rp, spend, keep } = ceremony(deps)

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

  define('deletePasskey', async ({ user, params, req }) => {
    const name = await deletePasskey(db, user.id, params.id)
    if (name === undefined) throw notFound('Clé d’accès')
    // Told as an added key is: a key removed by a stolen session is one the owner counted on.
    await sendSecurityNotice(
      deps,
      { kind: 'passkey-removed', to: user.email, firstname: user.firstname, name, at: clock.now().toISOString() },
      null,
      req.log,
    )
    return { message: 'La clé d’accès a été supprimée. Vous pouvez toujours vous connecter avec votre mot de passe.' }
  })
}
