// A write the customer started goes on when they leave its page: its call is not given the page's signal (the server
// would most often finish it anyway: the request was sent), and when the page is gone before the answer,
// left-behind.ts tells how it ended, to the same person only (not after a sign-out, nor to another), and tells the
// portal what the page would have, so its shared lists stay true. With the page still there, its machine tells, as
// before. The telling is loaded when a write starts, kept out of the flows' chunks.
import type { Told } from './left-behind.ts'
import { readStoredUser } from './storage.ts'

/** A success toast of `message`: what `done` answers for most writes. */
export const success = (message: string) => ({ kind: 'success' as const, message })

/** Starts nothing: `call` is the write already sent, without the page's signal; answers it unchanged. */
export function outlive<T>(call: Promise<T>, signal: AbortSignal, told: Told<T>): Promise<T> {
  const token = readStoredUser()?.apiToken
  void import('./left-behind.ts').then((m) => m.tellIfLeft(call, signal, token, told))
  return call
}
