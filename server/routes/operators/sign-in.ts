// The back office's sign-in: the password first (a short-lived ticket), then the authenticator app's code (the session) or a
// passkey (operators/passkeys.ts);
// and the enrolment link, which sets the password and the app once.
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, HttpError } from '../../http/errors.ts'
import { takeAttempt, type AttemptLimit } from '../../http/user-rate-limit.ts'
import {
  completeEnrolment,
  createSignInTicket,
  findEnrolment,
  findOperatorByEmail,
  findSignInTicket,
  OPERATOR_IDLE_MS,
  openOperatorSession,
  findOperator,
} from '../../db/repositories/operators.ts'
import { hashPassword, verifyPassword } from '../../lib/crypto.ts'
import { matchTotp, otpauthUri } from '../../lib/totp.ts'
import { checkNewPassword, decoyHash, minutesText } from '../session/index.ts'

/** Wrong passwords per address typed, whichever IPs send them (as customer sign-ins: session/index.ts). */
export const OPERATOR_PASSWORD_LIMIT: AttemptLimit = {
  max: 10,
  windowMs: 15 * 60_000,
  message: (minutes) => `Trop d’essais de mot de passe pour ce compte opérateur : réessayez dans ${minutesText(minutes)}.`,
}
/**
 * Wrong second factors per operator: a million codes, three valid at a time, so few tries. A passkey refused counts
 * against the same limit (operators/passkeys.ts): the password known, the second factor has five tries in all.
 */
export const OPERATOR_CODE_LIMIT: AttemptLimit = {
  max: 5,
  windowMs: 15 * 60_000,
  message: (minutes) => `Trop de codes erronés pour ce compte opérateur : réessayez dans ${minutesText(minutes)}.`,
}
export const operatorPasswordKey = (email: string) => `operator-password:${email.trim().toLowerCase()}`
export const operatorCodeKey = (operatorId: number) => `operator:${operatorId}:totp`

export const signInMessages = {
  badCredentials: 'Adresse e-mail ou mot de passe incorrect.',
  ticketExpired: 'Votre connexion a expiré : saisissez à nouveau votre adresse e-mail et votre mot de passe.',
  badCode: 'Code incorrect : saisissez le code à 6 chiffres affiché par votre application d’authentification.',
  replayedCode: 'Ce code a déjà servi : attendez le suivant dans votre application d’authentification.',
  badEnrolment: 'Ce lien d’inscription est invalide, a déjà servi ou a expiré : demandez-en un nouveau à un administrateur.',
  enrolBadCode: 'Code incorrect : vérifiez que l’application d’authentification a bien enregistré la clé, puis saisissez le code affiché.',
  enrolled:
    'Votre compte opérateur est prêt : connectez-vous avec votre adresse e-mail, votre mot de passe et un code de votre application.',
}

/** The answer of a second step that opened a session `token` (the code's or a passkey's). */
export async function signedIn({ db }: AppDeps, operatorId: number, token: string) {
  const operator = (await findOperator(db, operatorId))!
  return {
    token,
    idleMinutes: OPERATOR_IDLE_MS / 60_000,
    operator: { id: operator.id, email: operator.email, name: operator.name, roles: operator.roles },
  }
}

export function signInRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, clock, config } = deps

  define('operatorPassword', async ({ body }) => {
    // Before the address is looked up: the same statement, and the same 429, for a known address and an unknown one.
    const attempt = await takeAttempt(deps, operatorPasswordKey(body.email), OPERATOR_PASSWORD_LIMIT)
    const operator = await findOperatorByEmail(db, body.email)
    const usable = operator?.active && operator.totp_enrolled_at !== null ? operator.password_hash : null
    const valid = await verifyPassword(body.password, usable ?? (await decoyHash))
    if (!operator || !usable || !valid) {
      await attempt.failed()
      throw new HttpError(401, signInMessages.badCredentials, 'BAD_CREDENTIALS')
    }
    await attempt.succeeded()
    const { ticket, expiresAt } = await createSignInTicket(db, operator.id, clock.now())
    return { ticket, expiresAt: expiresAt.toISOString() }
  })

  define('operatorCode', async ({ body }) => {
    const now = clock.now()
    const found = await findSignInTicket(db, body.ticket, now)
    if (!found) throw new HttpError(401, signInMessages.ticketExpired, 'SIGN_IN_EXPIRED')
    const attempt = await takeAttempt(deps, operatorCodeKey(found.id), OPERATOR_CODE_LIMIT)
    const step = matchTotp(found.totp_secret, body.code, now)
    if (step === null) {
      await attempt.failed()
      throw new HttpError(401, signInMessages.badCode, 'BAD_CODE')
    }
    await attempt.succeeded()
    const opened = await openOperatorSession(db, { ticket: body.ticket, operatorId: found.id, factor: { step }, now })
    if ('refused' in opened) {
      if (opened.refused === 'replay') throw new HttpError(401, signInMessages.replayedCode, 'CODE_REPLAYED')
      throw new HttpError(401, signInMessages.ticketExpired, 'SIGN_IN_EXPIRED')
    }
    return signedIn(deps, found.id, opened.token)
  })

  define('operatorEnrolment', async ({ params }) => {
    const enrolment = await findEnrolment(db, params.token, clock.now())
    if (!enrolment) throw new HttpError(404, signInMessages.badEnrolment, 'NOT_FOUND')
    return {
      email: enrolment.email,
      name: enrolment.name,
      totpSecret: enrolment.totp_secret,
      otpauthUri: otpauthUri(enrolment.totp_secret, enrolment.email, `${config.brandName} back-office`),
      expiresAt: new Date(enrolment.expires_at).toISOString(),
    }
  })

  define('operatorEnrol', async ({ params, body }) => {
    const now = clock.now()
    const enrolment = await findEnrolment(db, params.token, now)
    if (!enrolment) throw new HttpError(404, signInMessages.badEnrolment, 'NOT_FOUND')
    checkNewPassword(body.password)
    const step = matchTotp(enrolment.totp_secret, body.code, now)
    if (step === null) throw badRequest(signInMessages.enrolBadCode, 'BAD_CODE')
    const done = await completeEnrolment(db, { token: params.token, passwordHash: await hashPassword(body.password), step, now })
    if (!done) throw new HttpError(404, signInMessages.badEnrolment, 'NOT_FOUND')
    return { message: signInMessages.enrolled }
  })
}
