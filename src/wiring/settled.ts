// Promises that React's use() reads without suspending once they have settled. React 19 suspends
// on any promise it has not itself seen settle (it then tags it with status/value), and a reveal
// after a suspension waits for its Suspense throttle (300 ms): the code loaders tag their promises
// at the source, so that a screen whose code is already there renders at once.

export type Tracked<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown }

/** Whether a tracked promise has settled with a value: what use() reads at once. */
export const isFulfilled = (promise: Promise<unknown>): boolean => (promise as Tracked<unknown>).status === 'fulfilled'

/** The same promise, carrying `status` and `value` (or `reason`) as React reads them. */
export function tracked<T>(promise: Promise<T>): Tracked<T> {
  const thenable = promise as Tracked<T>
  if (thenable.status) return thenable
  thenable.status = 'pending'
  // Block bodies: returning the promise itself from its own handler would adopt its rejection again.
  promise.then(
    (value) => {
      Object.assign(thenable, { status: 'fulfilled', value })
    },
    (reason: unknown) => {
      Object.assign(thenable, { status: 'rejected', reason })
    },
  )
  return thenable
}
