// An e-mail a call's write exists for (a termination request, the accountant offer, an invitation…): when it cannot
// leave, the call undoes what it wrote and answers a French 503, so that the user's retry does it all again. Before, the
// row stayed and the answer was a 500: the retry then found the row and sent nothing (a 409 for a termination, a 200
// with no e-mail for the accountant offer, an invitation's link never sent).
// Not a transaction held across the send: the outbox mailer writes through the pool, and PGlite has one connection
// (the send would wait on the transaction's own connection); nor would SMTP be undone by a rollback.
// So the write is seen before the e-mail has left: an identical call arriving meanwhile (a double click, a retry after a
// slow answer, another tab) took it for done (« enregistrée », « déjà enregistrée ») while the first call took it back.
// The decision, the write and the send or undo run under a key (oneSendAtATime): the identical call waits for the first
// one's outcome, then finds what is really kept.
import { KeyBusyError, type OneAtATime } from '../db/one-at-a-time.ts'
import type { Mail, Mailer } from '../services/mailer.ts'
import { HttpError } from './errors.ts'

export const mailNotSent = 'L’e-mail n’a pas pu être envoyé : rien n’a été enregistré. Réessayez dans quelques instants.'
export const identicalUnderWay = 'Une demande identique est en cours d’envoi : réessayez dans un instant.'

/**
 * Runs `body` (what decides, writes, then sends or undoes) once no call of the same `key` is under way, in any API
 * instance: an identical call waits for this one's e-mail and sees what it kept. One still waiting after
 * ONE_AT_A_TIME_WAIT_MS (a mail server that hangs) is refused, 409 `REQUEST_UNDER_WAY`, and does nothing.
 */
export async function oneSendAtATime<T>(oneAtATime: OneAtATime, key: string, body: () => Promise<T>): Promise<T> {
  try {
    return await oneAtATime(key, body)
  } catch (error) {
    if (error instanceof KeyBusyError && error.key === key) throw new HttpError(409, identicalUnderWay, 'REQUEST_UNDER_WAY')
    throw error
  }
}

/** Sends `mail`; when sending throws, runs `undo` (what this call wrote), then throws the 503 with `message`. */
export async function sendOrUndo(mailer: Mailer, mail: Mail, undo: () => Promise<unknown>, message: string = mailNotSent): Promise<void> {
  try {
    await mailer.send(mail)
  } catch (error) {
    await undo()
    throw new HttpError(503, message, 'MAIL_NOT_SENT', { cause: error })
  }
}
