// The account's passkeys (WebAuthn, checked by @simplewebauthn/server): add one, list, rename, remove; signing in with
// one is the session area's (session/passkeys.ts), as is what every ceremony shares. Challenges are single-use, live five minutes and sit
// in the database, so any API instance
// can finish a ceremony another began. The password stays as the fallback.
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, HttpError, invalidSessionError, notFound } from '../../http/errors.ts'
import { addPasskeyForSession, credentialsOf, deletePasskey, listPasskeys, renamePasskey } from '../../db/repositories/session-passkeys.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import { describeDevice, userAgentOf } from '../../services/devices.ts'
import { isBlank } from '../../contract/rules/text.ts'
import { ceremony, passkeyMessages } from '../session/passkeys.ts'
import { sendSecurityNotice } from '../../services/security-notice.ts'

export function passkeyRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, clock } = deps
  const { registrationOptions, verifyRegistration } = ceremony(deps)

  define('passkeys', async ({ user }) => listPasskeys(db, user.id))

  define('passkeyRegistrationOptions', async ({ user }) =>
    registrationOptions(
      { userId: user.id },
      {
        userName: user.email,
        displayName: `${user.firstname} ${user.lastname}`,
        userID: `user-${user.id}`,
        held: await credentialsOf(db, user.id),
      },
    ),
  )

  define('registerPasskey', async ({ user, body, req }) => {
    const credential = await verifyRegistration({ userId: user.id }, body.credential, passkeyMessages)
    const given = body.name?.trim() ?? ''
    const name = isBlank(given) ? describeDevice(userAgentOf(req.headers)) : given
    const passkey = await addPasskeyForSession(db, {
      userId: user.id,
      ...credential,
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
