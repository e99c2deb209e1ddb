// The database fails under the API (a restart, a failover, a network cut, a blackholed address): the process stays
// up, a request answers a French 503 quickly instead of a 500 or no answer, and once the database answers again the
// next request is served on a new connection.
import { connect as tcpConnect, createServer, type Server, type Socket } from 'node:net'
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { pino } from 'pino'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import pg from 'pg'
import { buildApp } from '../../server/app.ts'
import { connect, listenRetryDelay, postgresListener, type DbHandle } from '../../server/db/connect.ts'
import { postgresOneAtATime } from '../../server/db/one-at-a-time.ts'
import { errorHandler, isDatabaseUnavailable, messages } from '../../server/http/errors.ts'
import { terminateBackends } from '../util/postgres.ts'
import { buildTestApp, call, login, type TestApp } from '../util/server.ts'

const sqlError = (code: string, message: string) => Object.assign(new Error(message), { code })

const Classify = suite('what counts as the database being unavailable')

Classify('connection exceptions, shutdowns, no connection in time: yes; a constraint, a bug: no', () => {
  for (const error of [
    sqlError('57P01', 'terminating connection due to administrator command'),
    sqlError('57P03', 'the database system is starting up'),
    sqlError('08006', 'connection failure'),
    sqlError('53300', 'sorry, too many clients already'),
    sqlError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
    new Error('timeout exceeded when trying to connect'),
    new Error('Connection terminated unexpectedly'),
    new Error('Connection terminated due to connection timeout'),
    new Error('Client has encountered a connection error and is not queryable'),
    new Error('Query read timeout'),
  ])
    assert.ok(isDatabaseUnavailable(error), error.message)
  for (const error of [
    sqlError('23505', 'duplicate key value violates unique constraint'),
    new TypeError('x is undefined'),
    'a string',
    null,
  ]) {
    assert.not.ok(isDatabaseUnavailable(error), String(error))
  }
})

Classify('the LISTEN connection is tried again within 5 s of the database coming back, however long it was away', () => {
  // Measured on a 10 s stop of PostgreSQL: with waits doubling up to 30 s, the live streams heard nothing for 5.4 s
  // after the database was back (a minute's outage: up to 30 s).
  assert.equal([0, 1, 2, 3, 4].map(listenRetryDelay), [250, 500, 1000, 2000, 4000])
  for (let attempt = 5; attempt < 40; attempt++) assert.is(listenRetryDelay(attempt), 5000, `attempt ${attempt}`)
})

Classify(
  'a database away is logged as a warning « base de données indisponible » with its code; a bug stays an error « erreur interne »',
  async () => {
    const lines: { level: number; msg: string; code?: string; message?: string; err?: unknown }[] = []
    const stream = new Writable({
      write(chunk, _, done) {
        lines.push(JSON.parse(String(chunk)))
        done()
      },
    })
    const app = Fastify({ loggerInstance: pino({ level: 'info' }, stream), disableRequestLogging: true })
    app.setErrorHandler(errorHandler)
    app.get('/away', async () => {
      throw sqlError('57P01', 'terminating connection due to administrator command')
    })
    app.get('/bug', async () => {
      throw new TypeError('x is undefined')
    })
    try {
      assert.is((await app.inject({ method: 'GET', url: '/away' })).statusCode, 503)
      assert.is((await app.inject({ method: 'GET', url: '/bug' })).statusCode, 500)
      assert.equal(
        lines.map(({ level, msg, code, message }) => ({ level, msg, code, message })),
        [
          { level: 40, msg: 'base de données indisponible', code: '57P01', message: 'terminating connection due to administrator command' },
          { level: 50, msg: 'erreur interne', code: undefined, message: undefined },
        ],
      )
      assert.ok(lines[1]!.err, 'the bug with its stack')
    } finally {
      await app.close()
    }
  },
)

Classify.run()

interface Ctx {
  t: TestApp
  token: string
  blackhole?: Server
  sockets: Socket[]
}

const Outage = suite<Ctx>('a database that does not answer')
Outage.before(async (ctx) => {
  ctx.t = await buildTestApp()
  ctx.token = await login(ctx.t.app)
  ctx.sockets = []
})
Outage.after(async (ctx) => {
  for (const socket of ctx.sockets) socket.destroy()
  await new Promise((resolve) => (ctx.blackhole ? ctx.blackhole.close(resolve) : resolve(undefined)))
  await ctx.t.close()
})

/**
 * Without a connect timeout, what waits on the blackhole would wait for ever: after 5 s the test cuts the blackhole's
 * connections (so that the request, and the closes, can end) and fails.
 */
function within5s<T>(ctx: Ctx, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        for (const socket of ctx.sockets) socket.destroy()
        reject(new Error('no answer in 5 s'))
      }, 5000)
    }),
  ]).finally(() => clearTimeout(timer))
}

Outage('an address that accepts and never answers: a French 503 within the connect timeout, not a hang or a 500', async (ctx) => {
  // A TCP server that takes the connection and says nothing, as a database host that is gone behind a firewall does.
  ctx.blackhole = createServer((socket) => void ctx.sockets.push(socket))
  await new Promise<void>((resolve) => ctx.blackhole!.listen(0, '127.0.0.1', resolve))
  const { port } = ctx.blackhole.address() as { port: number }
  const handle = await connect({ databaseUrl: `postgres://portail@127.0.0.1:${port}/portail`, connectTimeoutMs: 300 })
  const app = await buildApp({ ...ctx.t.deps, db: handle.db, listen: handle.listen }, { databaseKind: 'postgres' })
  try {
    const started = Date.now()
    const res = await within5s(ctx, call(app, ctx.token, 'GET', '/api-protected/my-domiciliation-orders'))
    assert.is(res.statusCode, 503, res.body)
    assert.equal(res.json(), { message: messages.databaseUnavailable, statusCode: 503, code: 'DATABASE_UNAVAILABLE' })
    assert.ok(Date.now() - started < 3000, `answered in ${Date.now() - started} ms`)
    const health = await app.inject({ method: 'GET', url: '/health' })
    assert.is(health.statusCode, 503, 'the balancer takes the instance out')
    // The live stream's LISTEN connection gives up in the same time (and is tried again later), rather than hang.
    const listening = Date.now()
    const failed = await within5s(
      ctx,
      handle
        .listen('notifications', () => {})
        .then(
          () => 'listening',
          (error: Error) => error.message,
        ),
    )
    assert.match(failed, /timeout|terminated/i)
    assert.ok(Date.now() - listening < 3000, `gave up in ${Date.now() - listening} ms`)
  } finally {
    await app.close()
    await handle.close()
  }
})

Outage(
  '/health with the database away: a French 503 logged once, as a warning without a stack, never as « erreur interne »',
  async (ctx) => {
    const handle = await connect({ databaseUrl: 'postgres://portail@127.0.0.1:1/portail', connectTimeoutMs: 300 })
    const lines: { level: number; msg: string; err?: unknown; stack?: unknown }[] = []
    const stream = new Writable({
      write(chunk, _, done) {
        lines.push(JSON.parse(String(chunk)))
        done()
      },
    })
    const app = await buildApp(
      { ...ctx.t.deps, db: handle.db, listen: handle.listen },
      { databaseKind: 'postgres', logger: pino({ level: 'info' }, stream) },
    )
    try {
      const health = await app.inject({ method: 'GET', url: '/health' })
      assert.is(health.statusCode, 503, health.body)
      assert.equal(health.json(), { message: 'La base de données ne répond pas.', statusCode: 503, code: 'DATABASE_DOWN' })
      const logged = lines.filter((line) => line.level >= 40)
      assert.equal(
        logged.map((line) => [line.level, line.msg]),
        [[40, 'la base de données ne répond pas']],
        JSON.stringify(logged),
      )
      assert.not.ok(JSON.stringify(logged).includes('    at '), 'no stack')
    } finally {
      await app.close()
      await handle.close()
    }
  },
)

Outage(
  'PGlite: a statement on `db` from inside a transaction fails within the connect timeout, and the database serves again',
  async (ctx) => {
    // PGlite has one connection, held by the transaction: without a bound the statement (and every request after it) waits for ever.
    const handle = await connect({ connectTimeoutMs: 300 })
    try {
      const started = Date.now()
      const failed = await within5s(
        ctx,
        handle.db
          .transaction()
          .execute(async (trx) => {
            await sql`select 1`.execute(trx)
            await sql`select 1`.execute(handle.db)
          })
          .then(
            () => null,
            (error: Error) => error,
          ),
      )
      assert.ok(failed && isDatabaseUnavailable(failed), `a French 503, not a 500: ${failed}`)
      assert.ok(Date.now() - started < 3000, `gave up in ${Date.now() - started} ms`)
      const { rows } = await within5s(ctx, sql<{ n: number }>`select 1 as n`.execute(handle.db))
      assert.is(rows[0]!.n, 1, 'the transaction rolled back and handed its connection back')
    } finally {
      await within5s(ctx, handle.close())
    }
  },
)

Outage.run()

// PostgreSQL only (test:server:pg): PGlite runs in the process, there is no connection to lose.
const databaseUrl = process.env.DATABASE_URL

/** Ends this database's client connections that `where` picks (as a restart does): among the app's own when given
 *  (named after its schema), never those of the test files running beside this one on the same database. */
async function terminate(where: string, t?: TestApp) {
  const own = t ? `application_name = '${t.schema}' and ` : ''
  assert.ok((await terminateBackends(databaseUrl!, `${own}(${where})`)) > 0, 'connections were ended')
}

async function notify(channel: string, payload: string) {
  const admin = new pg.Client({ connectionString: databaseUrl })
  await admin.connect()
  await admin.query('select pg_notify($1, $2)', [channel, payload]).finally(() => admin.end())
}

async function until(done: () => boolean, what: string, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

if (databaseUrl) {
  const Lost = suite<Ctx>('PostgreSQL ends the API’s connections (a restart, a failover)')
  Lost.before(async (ctx) => {
    ctx.t = await buildTestApp()
    ctx.token = await login(ctx.t.app)
  })
  Lost.after((ctx) => ctx.t?.close())

  Lost('the process stays up, and the next requests are served on new connections', async ({ t, token }) => {
    const orders = () => call(t.app, token, 'GET', '/api-protected/my-domiciliation-orders')
    assert.is((await orders()).statusCode, 200)
    // The API's connections are ended by the server, as a restart or a failover does (the LISTEN connection of the
    // live stream is left alone).
    await terminate(`query not ilike 'listen%'`, t)
    await new Promise((resolve) => setTimeout(resolve, 200))
    // Idle connections ended: the pool let them go (no 'error' event left unheard to end the process).
    const after = await Promise.all([orders(), orders(), orders()])
    assert.equal(
      after.map((r) => r.statusCode),
      [200, 200, 200],
      after.map((r) => r.body).join(),
    )
  })

  Lost(
    'a connection ended while checked out (a transaction open) fails that transaction as unavailable, not the process',
    async ({ t, token }) => {
      const outcome = await t.deps.db
        .transaction()
        .execute(async (trx) => {
          const { pid } = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!
          await terminate(`pid = ${Number(pid)}`)
          await new Promise((resolve) => setTimeout(resolve, 200))
          await sql`select 1`.execute(trx)
          return 'committed'
        })
        .then(
          (value) => value,
          (error: unknown) => error,
        )
      assert.ok(isDatabaseUnavailable(outcome), String(outcome))
      assert.is((await call(t.app, token, 'GET', '/api-protected/my-domiciliation-orders')).statusCode, 200)
    },
  )

  Lost('the LISTEN connection ended: it listens again by itself, tells of the gap, and notifications arrive again', async () => {
    const payloads: string[] = []
    let gaps = 0
    const listener = postgresListener(databaseUrl, () => {})
    try {
      await listener.listen(
        'outage_probe',
        (payload) => void payloads.push(payload),
        () => void gaps++,
      )
      await terminate(`query ilike 'listen outage_probe%'`)
      await until(() => gaps === 1, 'the gap told')
      await notify('outage_probe', 'après')
      await until(() => payloads.includes('après'), 'the notification after the gap')
      assert.is(gaps, 1)
    } finally {
      await listener.close()
    }
  })

  Lost(
    'the connection of the advisory locks (db/one-at-a-time.ts) ended: the next call that takes a key opens another and is served',
    async ({ t, token }) => {
      const own = (
        (await call(t.app, token, 'GET', '/api-protected/my-domiciliation-orders')).json() as { id: number; isShareOrder: boolean }[]
      ).find((o) => !o.isShareOrder)!
      const offer = () => call(t.app, token, 'GET', `/api-protected/want-comptable/${own.id}`)
      assert.is((await offer()).statusCode, 200)
      // Its last statement released the key.
      await terminate(`query ilike '%pg_advisory_unlock%'`, t)
      await new Promise((resolve) => setTimeout(resolve, 200))
      const again = await Promise.all([offer(), offer()])
      assert.equal(
        again.map((r) => r.statusCode),
        [200, 200],
        again.map((r) => r.body).join(),
      )
    },
  )

  Lost.run()

  /**
   * A TCP proxy between the API and PostgreSQL whose connections can be frozen: both sockets stay open, bytes are no
   * longer forwarded (dropped), as when the database host vanishes without closing anything (a network cut, a host
   * powered off). Connections opened after the freeze forward again: the host is reachable again.
   */
  async function freezableProxy(target: string) {
    const { hostname, port } = new URL(target)
    const pairs: { api: Socket; database: Socket; frozen: boolean; apiClosed: boolean }[] = []
    const server = createServer((api) => {
      const database = tcpConnect(Number(port), hostname)
      const pair = { api, database, frozen: false, apiClosed: false }
      pairs.push(pair)
      api.on('data', (bytes) => {
        if (!pair.frozen) database.write(bytes)
      })
      database.on('data', (bytes) => {
        if (!pair.frozen) api.write(bytes)
      })
      api.on('close', () => {
        pair.apiClosed = true
        database.destroy()
      })
      database.on('close', () => {
        if (!pair.frozen) api.destroy()
      })
      api.on('error', () => {})
      database.on('error', () => {})
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = new URL(target)
    url.port = String((server.address() as { port: number }).port)
    return {
      url: url.toString(),
      pairs,
      /** Freezes every connection open now; how many. */
      freeze: () => pairs.filter((pair) => !pair.apiClosed).map((pair) => (pair.frozen = true)).length,
      async close() {
        for (const pair of pairs) {
          pair.api.destroy()
          pair.database.destroy()
        }
        await new Promise((resolve) => server.close(resolve))
      },
    }
  }

  interface Frozen {
    t: TestApp
    token: string
    proxy: Awaited<ReturnType<typeof freezableProxy>>
    handle: DbHandle
    app: TestApp['app']
    lost: Error[]
    sockets: Socket[]
  }
  const Vanished = suite<Frozen>('the PostgreSQL host vanishes without closing the connections (a network cut)')
  Vanished.before(async (ctx) => {
    ctx.t = await buildTestApp()
    ctx.token = await login(ctx.t.app)
    ctx.sockets = []
    ctx.lost = []
    ctx.proxy = await freezableProxy(databaseUrl)
    // The test app's own schema, reached through the proxy, with a bound of 500 ms instead of QUERY_TIMEOUT_MS.
    const { schema } = (await sql<{ schema: string }>`select current_schema() as schema`.execute(ctx.t.deps.db)).rows[0]!
    ctx.handle = await connect({
      databaseUrl: ctx.proxy.url,
      schema,
      poolSize: 2,
      connectTimeoutMs: 1000,
      queryTimeoutMs: 500,
      onConnectionLost: (error) => void ctx.lost.push(error),
    })
    ctx.app = await buildApp(
      { ...ctx.t.deps, db: ctx.handle.db, listen: ctx.handle.listen, oneAtATime: ctx.handle.oneAtATime },
      { databaseKind: 'postgres' },
    )
  })
  Vanished.after(async (ctx) => {
    await ctx.app.close()
    await ctx.proxy.close()
    await ctx.handle.close()
    await ctx.t.close()
  })

  Vanished(
    'a request on a frozen connection answers the French 503 within the bound; the connection is cut, and the next requests are served',
    async (ctx) => {
      const orders = () => call(ctx.app, ctx.token, 'GET', '/api-protected/my-domiciliation-orders')
      assert.is((await orders()).statusCode, 200)
      assert.ok(ctx.proxy.freeze() > 0, 'the pool’s connection frozen')
      const frozen = ctx.proxy.pairs.filter((pair) => pair.frozen)
      const started = Date.now()
      const res = await within5s(ctx, orders())
      assert.is(res.statusCode, 503, res.body)
      assert.equal(res.json(), { message: messages.databaseUnavailable, statusCode: 503, code: 'DATABASE_UNAVAILABLE' })
      assert.ok(Date.now() - started < 2000, `answered in ${Date.now() - started} ms`)
      assert.ok(
        ctx.lost.some((error) => /Query read timeout/.test(error.message)),
        'told to onConnectionLost (logged as a warning)',
      )
      // The API cut the dead connection itself: it is not in the pool any more to hang the next request.
      await until(() => frozen.every((pair) => pair.apiClosed), 'the frozen connection cut by the API')
      for (let i = 0; i < 3; i++) {
        const again = Date.now()
        const next = await within5s(ctx, orders())
        assert.is(next.statusCode, 200, next.body)
        assert.ok(Date.now() - again < 400, `served in ${Date.now() - again} ms, on a live connection`)
      }
      assert.ok(
        ctx.proxy.pairs.some((pair) => !pair.frozen && !pair.apiClosed),
        'served on a new connection',
      )
    },
  )

  Vanished(
    'the LISTEN connection frozen: its periodic check finds it dead, it listens again, tells of the gap, notifications arrive',
    async (ctx) => {
      const payloads: string[] = []
      let gaps = 0
      const listener = postgresListener(ctx.proxy.url, () => {}, 1000, { everyMs: 200, timeoutMs: 300 })
      try {
        await listener.listen(
          'vanished_probe',
          (payload) => void payloads.push(payload),
          () => void gaps++,
        )
        assert.ok(ctx.proxy.freeze() > 0)
        await until(() => gaps === 1, 'the gap told')
        await notify('vanished_probe', 'après')
        await until(() => payloads.includes('après'), 'the notification after the gap')
      } finally {
        await within5s(ctx, listener.close())
      }
    },
  )

  Vanished(
    'the advisory locks’ connection frozen: the call fails as unavailable within the bound, the next one opens another',
    async (ctx) => {
      const lost: Error[] = []
      const locks = postgresOneAtATime(ctx.proxy.url, {
        statementTimeoutMs: 300,
        connectionTimeoutMillis: 1000,
        onError: (error) => void lost.push(error),
      })
      try {
        assert.is(await locks.oneAtATime('clé', async () => 'servi'), 'servi')
        assert.ok(ctx.proxy.freeze() > 0)
        const started = Date.now()
        const failed = await within5s(
          ctx,
          locks
            .oneAtATime('clé', async () => 'servi')
            .then(
              () => null,
              (error: Error) => error,
            ),
        )
        assert.ok(failed && isDatabaseUnavailable(failed), `a French 503: ${failed}`)
        assert.ok(Date.now() - started < 2000, `gave up in ${Date.now() - started} ms`)
        assert.is(
          await within5s(
            ctx,
            locks.oneAtATime('clé', async () => 'servi'),
          ),
          'servi',
        )
      } finally {
        await within5s(ctx, locks.close())
      }
    },
  )

  Vanished.run()
}
