// An e-mail a call's write exists for (a termination request, the accountant offer, an invitation…): when it cannot
// leave, the call undoes what it wrote and answers a French 503, so that the user's retry does it all again. Before, the
// row stayed and the answer was a 500: the retry then found the row and sent nothing (a 409 for a termination, a 200
// with no e-mail for the accountant offer, an invitation's link never sent).
// Not a transaction held across the send: the outbox mailer writes through the pool, and PGlite has one connection
// (the send would wait on the transaction's own connection); nor would SMTP be undone by a rollback.
import type { Mail, Mailer } from '../services/mailer.ts'
import { HttpError } from './errors.ts'

export const mailNotSent = 'L’e-mail n’a pas pu être envoyé : rien n’a été enregistré. Réessayez dans quelques instants.'

/** Sends `mail`; when sending throws, runs `undo` (what this call wrote), then throws the 503 with `message`. */
export async function sendOrUndo(mailer: Mailer, mail: Mail, undo: () => Promise<unknown>, message: string = mailNotSent): Promise<void> {
  try {
    await mailer.send(mail)
  } catch (error) {
    await undo()
    throw new HttpError(503, message, 'MAIL_NOT_SENT', { cause: error })
  }
}
