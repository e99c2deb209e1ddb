// 'Envoyer par e-mail' left behind: the letters page was left before the answer (the mailbox actor stopped, its
// signal aborted; the call itself goes on). Its outcome is told in a toast, to the person who sent it only. Loaded
// when a sending starts (wiring/mail.ts), kept out of the flows' chunk.
import { failureOf, type Notice } from '../machines/shared.ts'
import { readStoredUser } from './storage.ts'

/** The sending failed (its toast; the page, when there, shows the server's reason alone in its form). */
export const SEND_FAILED = 'L’envoi par e-mail n’a pas abouti.'

export function tellIfLeft(sending: Promise<{ message: string }>, signal: AbortSignal, token: string | undefined, notify: (notice: Notice) => void) {
  const left = () => signal.aborted && readStoredUser()?.apiToken === token
  sending.then((reply) => left() && notify({ kind: 'success', message: reply.message }),
    (error: unknown) => left() && notify({ kind: 'error', message: failureOf(SEND_FAILED, error) }))
}
