// A PostgreSQL host that vanishes without closing its connections (a network cut, a host powered off; not a restart,
// which closes them) leaves node-postgres waiting on a socket nothing answers: a statement sent then waits for the
// operating system's TCP time-outs (many minutes), and `client.end()` on an idle one waits as long for the goodbye.
// These helpers bound both, for the pool (connect.ts), the LISTEN connection and the advisory locks' connection.
import type pg from 'pg'

/**
 * TCP keep-alive on every connection, first probe after 10 s of silence, then one a second, ten at most (Node's libuv
 * sets that interval and count with the delay, on Node 20 as on Node 24: `strace -e setsockopt` shows TCP_KEEPIDLE 10,
 * TCP_KEEPINTVL 1, TCP_KEEPCNT 10): an idle connection whose host is gone is found by the operating system in about
 * 20 s, and no firewall or NAT drops a quiet LISTEN connection. A connection waiting for an answer sends no probe: a
 * statement in flight is bounded by its own time-out, not by this.
 */
export const KEEP_ALIVE = { keepAlive: true, keepAliveInitialDelayMillis: 10_000 } as const

/** node-postgres's error when a statement's `query_timeout` runs out (the client is left waiting for the answer). */
export const isQueryTimeout = (error: unknown) => error instanceof Error && error.message === 'Query read timeout'

/**
 * Cuts the connection at once. After a `query_timeout` node-postgres still waits for that statement's answer on this
 * connection (the late answer would go to it, and every statement queued behind it would wait as long): it is of no
 * more use. The client then fails what it still holds as « Connection terminated unexpectedly » and emits 'end'.
 */
export function destroyConnection(client: pg.Client): void {
  ;(client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy()
}

/** `client.end()`, but a connection whose host no longer answers is cut after `waitMs` rather than waited for. */
export async function endConnection(client: pg.Client, waitMs = 1_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const ended = client.end().catch(() => undefined)
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs)
  })
  try {
    await Promise.race([ended, late])
    destroyConnection(client)
  } finally {
    clearTimeout(timer)
  }
}
