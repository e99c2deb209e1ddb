// The API is stateless: two processes on one PostgreSQL and one S3 bucket, sharing no disk, HAProxy in front
// (deploy/haproxy.cfg, as in compose.yaml). Run by `npm run test:cluster` (scripts/with-postgres.sh gives the
// database, scripts/with-s3.sh the bucket) and by .ci/run; not part of `npm test`.
import { execFile } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { Agent } from 'node:http'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import pg from 'pg'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { terminateBackends } from '../util/postgres.ts'
import { s3Store, testS3Url, withTestPrefix } from '../util/storage.ts'
import { tinyPdf, tinyPng, multipart } from '../util/server-samples.ts'
import {
  call,
  freePort,
  openLiveStream,
  root,
  startBalancer,
  startInstance,
  stop,
  tail,
  type InstanceEnv,
  type LiveStreamReply,
  type Managed,
  type Reply,
} from './processes.ts'

const AUTH_RATE_LIMIT = 6
const PASSWORD = 'Demo1234!'
/** The balancer's slots for everyone together (HAPROXY_MAXCONN), lowered from 4096 so that one address could fill them. */
const BALANCER_MAXCONN = 400

interface Ctx {
  dir: string
  env: InstanceEnv
  ports: [number, number]
  instances: Record<'api1' | 'api2', Managed>
  balancer: Managed
  base: string
  agent: Agent
  token: string
  failed: boolean
}

const suiteOf = suite<Ctx>('two API processes behind HAProxy')
// A failed test shows the processes' logs at the end.
const test = (name: string, run: (ctx: Ctx) => Promise<void>) =>
  suiteOf(name, async (ctx) => {
    try {
      await run(ctx)
    } catch (error) {
      ctx.failed = true
      throw error
    }
  })
const running = new Set<Managed>()
// Whatever happens (a failed assertion, Ctrl-C), no process outlives the test.
process.on('exit', () => {
  for (const m of running) if (m.exitCode() === undefined) m.child.kill('SIGKILL')
})

const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const describe = (replies: Reply[]) => replies.map((r) => `${r.status}@${r.instance ?? '?'}`).join(' ')

async function startApi(ctx: Ctx, name: 'api1' | 'api2') {
  const managed = await startInstance(name, ctx.ports[name === 'api1' ? 0 : 1], ctx.env, ctx.dir)
  running.add(managed)
  ctx.instances[name] = managed
}

suiteOf.before(async (ctx) => {
  const databaseUrl = process.env.DATABASE_URL
  if (!databaseUrl) throw new Error('DATABASE_URL manque : lancez ce test par `npm run test:cluster` (il crée un PostgreSQL jetable).')
  ctx.dir = await mkdtemp(join(tmpdir(), 'portail-cluster-'))
  const s3Url = testS3Url()
  if (!s3Url) throw new Error('STORAGE_URL manque : lancez ce test par `npm run test:cluster` (il crée un serveur S3 jetable).')
  const storageUrl = withTestPrefix(s3Url, 'cluster')
  ctx.env = { databaseUrl, storageUrl, localDir: ctx.dir, authRateLimit: AUTH_RATE_LIMIT }
  // The image is built once (the Dockerfile's `npm run build`), or its parts whose sources changed since (CI's size
  // check has just built the SPA); the instances then only start.
  const { isStale, build } = (await import(pathToFileURL(join(root, 'esbuild.config.mjs')).href)) as {
    isStale(): Promise<boolean>
    build(): Promise<unknown>
  }
  const { isServerStale, buildServer } = (await import(pathToFileURL(join(root, 'esbuild.server.mjs')).href)) as {
    isServerStale(): Promise<boolean>
    buildServer(): Promise<unknown>
  }
  if (await isStale()) await build()
  if (await isServerStale()) await buildServer()
  ctx.ports = [await freePort(), await freePort()]
  ctx.instances = {} as Ctx['instances']
  // The first one migrates and seeds; the second finds both done.
  await startApi(ctx, 'api1')
  await startApi(ctx, 'api2')
  const port = await freePort()
  ctx.balancer = await startBalancer(port, ctx.ports, ctx.dir, BALANCER_MAXCONN)
  running.add(ctx.balancer)
  ctx.base = `http://127.0.0.1:${port}`
  ctx.agent = new Agent({ keepAlive: true, maxSockets: 20 })
})

suiteOf.after(async (ctx) => {
  ctx.agent?.destroy()
  await Promise.all([...running].map((m) => stop(m)))
  if (ctx.failed) {
    for (const m of running) console.error(`\n--- journal de ${m.name} (fin) ---\n${tail(m.log, 25)}`)
  }
  if (ctx.dir) await rm(ctx.dir, { recursive: true, force: true })
  if (ctx.env?.storageUrl) await (await s3Store(ctx.env.storageUrl)).close()
})

test('in CI, the instances run on the production image’s Node: the major version of the Dockerfile’s FROM', async () => {
  // scripts/with-node.sh reads that line; the instances are started with this process's node (process.execPath).
  const from = /^FROM node:(\d+)-/m.exec(await readFile(join(root, 'Dockerfile'), 'utf8'))
  assert.ok(from, 'the Dockerfile says « FROM node:<major>-… »')
  if (process.env.CI)
    assert.is(
      process.versions.node.split('.')[0],
      from[1],
      `.ci/run runs this test through scripts/with-node.sh, on Node ${from[1]}, not on ${process.versions.node}`,
    )
})

test('a customer signs in through the balancer and her calls land on both instances, with the same answers', async (ctx) => {
  const login = await call(ctx.base, 'POST', '/api/login', {
    ...json({ username: 'demo@example.com', password: PASSWORD }),
    agent: ctx.agent,
  })
  assert.is(login.status, 200, `sign-in through the balancer: ${login.status} ${login.body}`)
  ctx.token = login.json().apiToken
  const replies: Reply[] = []
  for (let i = 0; i < 6; i++)
    replies.push(
      await call(ctx.base, 'GET', '/api-protected/my-domiciliation-orders', { headers: { apiToken: ctx.token }, agent: ctx.agent }),
    )
  assert.ok(
    replies.every((r) => r.status === 200),
    `every call 200 with the token one instance issued: ${describe(replies)}`,
  )
  assert.equal(new Set(replies.map((r) => r.instance)), new Set(['api1', 'api2']), `the calls reach both instances: ${describe(replies)}`)
  const bodies = new Set(
    replies.map((r) => JSON.stringify(r.json().map((o: { id: number; raisonSociale: string }) => [o.id, o.raisonSociale]))),
  )
  assert.is(bodies.size, 1, 'both instances answer the same orders')
})

test('a Kbis uploaded on one instance is stored in the bucket, not on its disk, and served by the other', async (ctx) => {
  const bearer = { authorization: `Bearer ${ctx.token}` }
  const contracts = (await call(ctx.base, 'GET', '/api-protected/contracts', { headers: bearer, agent: ctx.agent })).json<
    { id: number; raisonSociale: string }[]
  >()
  const atelier = contracts.find((c) => c.raisonSociale === 'Atelier Lumière SARL')
  assert.ok(atelier, 'the demo contract of Atelier Lumière SARL')
  const pdf = await tinyPdf('Extrait Kbis – grappe de serveurs')
  const upload = await call(ctx.base, 'PUT', `/api-protected/contracts/${atelier!.id}`, {
    headers: { ...bearer, 'content-type': 'application/json' },
    body: JSON.stringify({ kbis: `data:application/pdf;base64,${pdf.toString('base64')}` }),
    agent: ctx.agent,
  })
  assert.is(upload.status, 200, `Kbis upload: ${upload.status} ${upload.body}`)
  const kbisUrl: string = upload.json().kbis
  const reads: Reply[] = []
  // Round robin: the next call or the one after goes to the other instance.
  for (let i = 0; i < 4 && !reads.some((r) => r.instance !== upload.instance); i++) {
    reads.push(await call(ctx.base, 'GET', kbisUrl, { headers: bearer, agent: ctx.agent }))
  }
  const other = reads.find((r) => r.instance !== upload.instance)
  assert.ok(other, `a read on the instance that did not store it (stored by ${upload.instance}; reads: ${describe(reads)})`)
  assert.is(other!.status, 200, `${other!.status} ${other!.body}`)
  assert.ok(other!.body.equals(pdf), 'the other instance serves the very bytes uploaded')
  const admin = new pg.Client({ connectionString: ctx.env.databaseUrl })
  await admin.connect()
  const { rows } = await admin.query('select kbis_file_key from contracts where id = $1', [atelier!.id]).finally(() => admin.end())
  const key: string = rows[0].kbis_file_key
  const bucket = await s3Store(ctx.env.storageUrl)
  try {
    assert.ok((await bucket.storage.get(key))?.equals(pdf), `${key}: the very bytes, in the bucket`)
  } finally {
    bucket.disconnect()
  }
  for (const name of ['api1', 'api2']) {
    const files = await readdir(join(ctx.dir, name, 'storage'), { recursive: true }).catch(() => [])
    assert.not.ok(
      files.some((file) => String(file).endsWith(key.split('/').pop()!)),
      `no copy on ${name}’s disk`,
    )
  }
})

test('an identity document sent (multipart) to one instance is listed by the other', async (ctx) => {
  const orders = (
    await call(ctx.base, 'GET', '/api-protected/my-domiciliation-orders', { headers: { apiToken: ctx.token }, agent: ctx.agent })
  ).json<{ id: number; raisonSociale: string }[]>()
  const conseil = orders.find((o) => o.raisonSociale === 'Conseil Horizon EURL')!
  const form = multipart({ orderId: String(conseil.id) }, [
    { field: 'identity_manager', filename: 'cni.png', contentType: 'image/png', bytes: tinyPng },
  ])
  const upload = await call(ctx.base, 'POST', '/step-upload-identity', {
    headers: { ...form.headers, apiToken: ctx.token },
    body: form.payload,
    agent: ctx.agent,
  })
  assert.is(upload.status, 200, `identity upload: ${upload.status} ${upload.body}`)
  const lists: Reply[] = []
  for (let i = 0; i < 4 && !lists.some((r) => r.instance !== upload.instance); i++) {
    lists.push(
      await call(ctx.base, 'GET', `/api-protected/domiciliation-orders/${conseil.id}/uploaded-documents`, {
        headers: { apiToken: ctx.token },
        agent: ctx.agent,
      }),
    )
  }
  const other = lists.find((r) => r.instance !== upload.instance)
  assert.ok(other, `a list from the other instance (reads: ${describe(lists)})`)
  assert.equal(
    other!.json().map((d: { type: string }) => d.type),
    ['identity_manager'],
  )
})

test('a letter marked read through one instance is read in the list each instance kept', async (ctx) => {
  const orders = (
    await call(ctx.base, 'GET', '/api-protected/my-domiciliation-orders', { headers: { apiToken: ctx.token }, agent: ctx.agent })
  ).json<{ id: number; raisonSociale: string }[]>()
  const boulangerie = orders.find((o) => o.raisonSociale === 'Boulangerie des Lilas SAS')!
  const url = `/api-protected/documents?orderId=${boulangerie.id}`
  /** The list from each instance (round robin), so that both keep it (server/db/kept-lists.ts). */
  async function fromBoth() {
    const replies: Reply[] = []
    for (let i = 0; i < 6 && new Set(replies.map((r) => r.instance)).size < 2; i++)
      replies.push(await call(ctx.base, 'GET', url, { headers: { apiToken: ctx.token }, agent: ctx.agent }))
    assert.equal(new Set(replies.map((r) => r.instance)), new Set(['api1', 'api2']), `lists from both instances: ${describe(replies)}`)
    return replies.map((r) => r.json<{ id: number; read: boolean }[]>())
  }
  const [letter] = (await fromBoth())[0]!
  const put = await call(ctx.base, 'PUT', `/api-protected/documents/${letter!.id}`, {
    headers: { apiToken: ctx.token, 'content-type': 'application/json' },
    body: JSON.stringify({ readFlag: !letter!.read }),
    agent: ctx.agent,
  })
  assert.is(put.status, 200, `${put.status} ${put.body}`)
  for (const list of await fromBoth())
    assert.is(list.find((l) => l.id === letter!.id)?.read, !letter!.read, `changed by ${put.instance}, seen by both`)
})

test(`the login rate limit (${AUTH_RATE_LIMIT} a minute) is counted once for both instances`, async (ctx) => {
  // Another client address on the loopback: its own counter, which HAProxy passes on in X-Forwarded-For.
  const client = { agent: new Agent({ keepAlive: false }), localAddress: '127.0.0.2' }
  const wrong = json({ username: 'solo@example.com', password: 'pas le bon mot de passe' })
  const attempts: Reply[] = []
  for (let i = 0; i < AUTH_RATE_LIMIT + 4; i++) attempts.push(await call(ctx.base, 'POST', '/api/login', { ...wrong, ...client }))
  const allowed = attempts.slice(0, AUTH_RATE_LIMIT)
  const refused = attempts.slice(AUTH_RATE_LIMIT)
  assert.ok(
    allowed.every((r) => r.status === 401),
    `the first ${AUTH_RATE_LIMIT} wrong passwords are 401: ${describe(attempts)}`,
  )
  assert.equal(new Set(allowed.map((r) => r.instance)), new Set(['api1', 'api2']), `spread over both instances: ${describe(allowed)}`)
  assert.ok(
    refused.every((r) => r.status === 429),
    `past ${AUTH_RATE_LIMIT} attempts in all, each instance refuses: ${describe(attempts)}`,
  )
  assert.equal(new Set(refused.map((r) => r.instance)), new Set(['api1', 'api2']), `refused by both instances: ${describe(refused)}`)
  assert.match(refused[0]!.json().message, 'Trop de tentatives')
  // Even the right password is refused now, and a made-up X-Forwarded-For does not give a fresh counter.
  const right = await call(ctx.base, 'POST', '/api/login', { ...json({ username: 'solo@example.com', password: PASSWORD }), ...client })
  assert.is(right.status, 429, `right password past the limit: ${right.status}`)
  const spoofed = await call(ctx.base, 'POST', '/api/login', {
    ...json({ username: 'solo@example.com', password: PASSWORD }),
    ...client,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.9' },
  })
  assert.is(spoofed.status, 429, `a client-chosen X-Forwarded-For is replaced by the balancer: ${spoofed.status}`)
  // The counter is the client's, not the balancer's: another address still signs in.
  const other = await call(ctx.base, 'POST', '/api/login', {
    ...json({ username: 'solo@example.com', password: PASSWORD }),
    agent: ctx.agent,
  })
  assert.is(other.status, 200, `another client is not limited: ${other.status} ${other.body}`)
  client.agent.destroy()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** `promise`, or a failure saying what did not come within `ms`. */
const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([
    promise,
    sleep(ms).then(() => {
      throw new Error(`${what} : rien en ${ms} ms`)
    }),
  ])
/** A connection from `localAddress` that sends nothing; resolves once connected, or refused. */
const idleConnection = (port: number, localAddress: string) =>
  new Promise<{ socket: Socket; open(): boolean }>((resolve) => {
    let open = false
    const socket = connect({ host: '127.0.0.1', port, localAddress })
    socket.on('error', () => {})
    socket.once('close', () => {
      open = false
    })
    socket.once('connect', () => {
      open = true
      resolve({ socket, open: () => open && !socket.destroyed })
    })
    socket.once('close', () => resolve({ socket, open: () => false }))
  })
const refusal = (reply: Reply) => `${reply.status} ${reply.body.toString('utf8')}`

test('at most 5 live streams per customer through the balancer: the sixth ends her oldest, on the other instance, which is told why', async (ctx) => {
  const streams: LiveStreamReply[] = []
  for (let i = 0; i < 5; i++) streams.push(await openLiveStream(ctx.base, ctx.token))
  const sixth = await openLiveStream(ctx.base, ctx.token)
  try {
    assert.equal(
      [...streams, sixth].map((s) => s.status),
      [200, 200, 200, 200, 200, 200],
    )
    assert.equal(new Set(streams.map((s) => s.instance)), new Set(['api1', 'api2']), 'round robin: streams on both instances')
    assert.is.not(sixth.instance, streams[0]!.instance, 'the sixth is on the other instance than the oldest')
    await within(streams[0]!.ended, 5000, 'la fin du plus ancien flux')
    assert.match(streams[0]!.text(), /^event: replaced$/m)
    assert.match(streams[0]!.text(), '5 onglets ou appareils au plus par compte')
    await sleep(300)
    assert.equal(
      [...streams.slice(1), sixth].map((s) => s.isEnded()),
      [false, false, false, false, false],
      'the five newest carry on',
    )
  } finally {
    for (const s of [...streams, sixth]) s.close()
  }
})

test(`one address cannot take the balancer’s slots (${BALANCER_MAXCONN} here): past 200 connections at once it is answered a French 429, past 300 refused, and another address still checks health and signs in`, async (ctx) => {
  const port = Number(new URL(ctx.base).port)
  const held: Awaited<ReturnType<typeof idleConnection>>[] = []
  try {
    // 250 connections that send nothing, from one address.
    held.push(...(await Promise.all(Array.from({ length: 250 }, () => idleConnection(port, '127.0.0.3')))))
    assert.is(held.filter((c) => c.open()).length, 250)
    const asked = await within(
      call(ctx.base, 'GET', '/health', { agent: new Agent({ keepAlive: false }), localAddress: '127.0.0.3' }),
      5000,
      '/health depuis l’adresse chargée',
    )
    assert.is(asked.status, 429, refusal(asked))
    assert.equal(asked.json(), {
      message: 'Trop de connexions depuis votre adresse : réessayez dans quelques instants.',
      statusCode: 429,
      code: 'TOO_MANY_CONNECTIONS',
    })
    // 200 more: past 300 at once they are refused at once (without it they would fill the balancer).
    held.push(...(await Promise.all(Array.from({ length: 200 }, () => idleConnection(port, '127.0.0.3')))))
    await sleep(300)
    const open = held.filter((c) => c.open()).length
    assert.ok(open <= 300, `${open} connections of one address held at once`)
    // Meanwhile another address is served at once.
    const other = { agent: new Agent({ keepAlive: false }), localAddress: '127.0.0.4' }
    const health = await within(call(ctx.base, 'GET', '/health', other), 5000, '/health depuis une autre adresse')
    assert.is(health.status, 200, refusal(health))
    const signIn = await within(
      call(ctx.base, 'POST', '/api/login', { ...json({ username: 'solo@example.com', password: PASSWORD }), ...other }),
      5000,
      'la connexion depuis une autre adresse',
    )
    assert.is(signIn.status, 200, refusal(signIn))
  } finally {
    for (const c of held) c.socket.destroy()
  }
  // Its connections closed, the address is served again.
  let again: Reply | undefined
  for (let i = 0; i < 20 && again?.status !== 200; i++) {
    await sleep(100)
    again = await call(ctx.base, 'GET', '/health', { agent: new Agent({ keepAlive: false }), localAddress: '127.0.0.3' })
  }
  assert.is(again?.status, 200, `once its connections are closed: ${again && refusal(again)}`)
})

test('one address opening more than 600 connections in 10 s is answered a French 429; another address is not', async (ctx) => {
  const port = Number(new URL(ctx.base).port)
  for (let batch = 0; batch < 13; batch++) {
    const opened = await Promise.all(Array.from({ length: 50 }, () => idleConnection(port, '127.0.0.6')))
    for (const c of opened) c.socket.destroy()
  }
  const asked = await call(ctx.base, 'GET', '/health', { agent: new Agent({ keepAlive: false }), localAddress: '127.0.0.6' })
  assert.is(asked.status, 429, refusal(asked))
  assert.is(asked.json().code, 'TOO_MANY_CONNECTIONS')
  const other = await call(ctx.base, 'GET', '/health', { agent: ctx.agent })
  assert.is(other.status, 200, refusal(other))
})

test('at most 100 live streams per address: the 101st is answered a French 429, from another address it opens; a stream closed gives its place back at once', async (ctx) => {
  // 21 customers with a session each (written in the database: the sign-in limit would take minutes).
  const admin = new pg.Client({ connectionString: ctx.env.databaseUrl })
  await admin.connect()
  const tokens: string[] = []
  const streams: LiveStreamReply[] = []
  try {
    const { rows } = await admin.query<{ id: number }>(`insert into users (email, password_hash, firstname, lastname)
      select 'flux-' || n || '@example.com', 'aucun', 'Flux', n::text from generate_series(1, 21) as n returning id`)
    for (const { id } of rows) {
      const token = randomBytes(24).toString('hex')
      await admin.query(`insert into api_tokens (user_id, token_hash, expires_at) values ($1, $2, now() + interval '1 day')`, [
        id,
        createHash('sha256').update(token).digest('hex'),
      ])
      tokens.push(token)
    }
    // Five each (the API's own limit per customer) for 20 of them: 100 from one address.
    await Promise.all(
      tokens.slice(0, 20).map(async (token) => {
        for (let i = 0; i < 5; i++) streams.push(await openLiveStream(ctx.base, token, '127.0.0.5'))
      }),
    )
    assert.equal(
      streams.filter((s) => s.status !== 200).map((s) => `${s.status} ${s.text()}`),
      [],
    )
    const refused = await openLiveStream(ctx.base, tokens[20]!, '127.0.0.5')
    streams.push(refused)
    assert.is(refused.status, 429, 'the 101st from one address')
    await within(refused.ended, 5000, 'la fin du refus')
    assert.equal(JSON.parse(refused.text()), {
      message: 'Trop de notifications en direct ouvertes depuis votre adresse : réessayez dans quelques instants.',
      statusCode: 429,
      code: 'TOO_MANY_STREAMS',
    })
    const elsewhere = await openLiveStream(ctx.base, tokens[20]!, '127.0.0.1')
    streams.push(elsewhere)
    assert.is(elsewhere.status, 200, 'from another address')
    // A tab closed: its place is free at once (the balancer ends the request on the instance: option abortonclose).
    streams[0]!.close()
    await sleep(200)
    const after = await openLiveStream(ctx.base, tokens[20]!, '127.0.0.5')
    streams.push(after)
    assert.is(after.status, 200, after.status === 200 ? '' : after.text())
  } finally {
    for (const s of streams) s.close()
    await sleep(200)
    await admin.query(`delete from users where email like 'flux-%@example.com'`)
    await admin.end()
  }
})

test('stopping an instance (SIGTERM) in the middle of 10 parallel streams of calls (300 and more) loses none', async (ctx) => {
  const total = 300
  const stopAfter = 60
  // At least this many calls start once api1 has exited, however long its shutdown takes (within a minute).
  const afterExitWanted = 30
  const deadline = Date.now() + 60_000
  const replies: { reply?: Reply; error?: string; afterStop: boolean }[] = []
  let started = 0
  let startedAfterExit = 0
  let done = 0
  let stopping: Promise<number | null> | null = null
  let stopped = false
  const worker = async () => {
    while (started < total || (startedAfterExit < afterExitWanted && Date.now() < deadline)) {
      started++
      const afterStop = stopped
      if (afterStop) startedAfterExit++
      try {
        replies.push({
          reply: await call(ctx.base, 'GET', '/api-protected/my-domiciliation-orders', {
            headers: { apiToken: ctx.token },
            agent: ctx.agent,
          }),
          afterStop,
        })
      } catch (error) {
        replies.push({ error: (error as Error).message, afterStop })
      }
      if (++done === stopAfter) {
        stopping = stop(ctx.instances.api1)
        stopping.then(() => {
          stopped = true
        })
      }
    }
  }
  await Promise.all(Array.from({ length: 10 }, worker))
  const code = await stopping
  const lost = replies.filter((r) => r.error || r.reply!.status < 200 || r.reply!.status >= 300)
  assert.ok(replies.length >= total)
  assert.equal(
    lost.map((r) => r.error ?? `${r.reply!.status}@${r.reply!.instance} ${r.reply!.body}`),
    [],
    `${lost.length} of ${replies.length} calls lost while api1 stopped`,
  )
  assert.ok(
    replies.some((r) => r.reply?.instance === 'api1'),
    'api1 answered before it was stopped',
  )
  const afterExit = replies.filter((r) => r.afterStop)
  assert.ok(afterExit.length >= afterExitWanted, `${afterExitWanted} calls made after api1 had exited (${afterExit.length})`)
  assert.ok(
    afterExit.every((r) => r.reply!.instance === 'api2'),
    'after its exit only api2 answers',
  )
  assert.is(code, 0, 'api1 shut down cleanly on SIGTERM (exit code 0)')
})

test('a restarted instance is taken back by the balancer', async (ctx) => {
  await startApi(ctx, 'api1')
  const seen = new Set<string | undefined>()
  const deadline = Date.now() + 20_000
  while (!seen.has('api1') && Date.now() < deadline) {
    const reply = await call(ctx.base, 'GET', '/api-protected/my-domiciliation-orders', {
      headers: { apiToken: ctx.token },
      agent: ctx.agent,
    })
    assert.is(reply.status, 200)
    seen.add(reply.instance)
    await new Promise((r) => setTimeout(r, 100))
  }
  assert.ok(seen.has('api1'), 'api1 answers again through the balancer once its health check passes')
})

test('PostgreSQL ends every connection of both instances (a restart, a failover): both stay up and answer', async (ctx) => {
  const orders = () =>
    call(ctx.base, 'GET', '/api-protected/my-domiciliation-orders', { headers: { apiToken: ctx.token }, agent: ctx.agent })
  // Both instances have pooled connections (and their LISTEN one) before.
  const before = await Promise.all(Array.from({ length: 6 }, orders))
  assert.equal(
    before.map((r) => r.status),
    [200, 200, 200, 200, 200, 200],
  )
  const ended = await terminateBackends(ctx.env.databaseUrl)
  assert.ok(ended >= 2, `connections ended: ${ended}`)
  await new Promise((r) => setTimeout(r, 500))
  assert.equal([ctx.instances.api1.exitCode(), ctx.instances.api2.exitCode()], [undefined, undefined], 'both processes are still running')
  const after = await Promise.all(Array.from({ length: 10 }, orders))
  assert.equal(
    after.filter((r) => r.status !== 200).map((r) => `${r.status}@${r.instance} ${r.body}`),
    [],
    describe(after),
  )
  assert.equal(new Set(after.map((r) => r.instance)), new Set(['api1', 'api2']), 'on new connections, both answer')
})

/**
 * PostgreSQL restarted under steady calls, cleanly (`fast`) or as a crash (`immediate`: its processes killed, the
 * database recovered from its write-ahead log). The cluster runs with synchronous commits (PG_DURABLE, with-postgres.sh):
 * without them a crash loses the writes of the last fraction of a second that were already answered 200.
 */
async function restartUnderCalls(ctx: Ctx, mode: 'fast' | 'immediate') {
  const restart = process.env.PG_RESTART
  if (!restart) throw new Error('PG_RESTART manque : lancez ce test par `npm run test:cluster` (scripts/with-postgres.sh le donne).')
  const bearer = { apiToken: ctx.token }
  const orderId = (await call(ctx.base, 'GET', '/api-protected/my-domiciliation-orders', { headers: bearer, agent: ctx.agent })).json<
    { id: number }[]
  >()[0]!.id
  interface Sent {
    what: string
    folder?: { id: number; name: string }
    status: number
    resent?: boolean
    code?: string
    ms: number
    start: number
    end: number
  }
  const sent: Sent[] = []
  let running = true
  let n = 0
  // The writes rename folders written beforehand in the database: creating one is limited to 60 an hour per customer
  // (perUserHourly), renaming is not, and each rename is told apart from the others afterwards.
  const admin = new pg.Client({ connectionString: ctx.env.databaseUrl })
  await admin.connect()
  const prepared = await admin
    .query<{ id: number }>(
      `insert into folders (order_id, name)
    select $1, 'Avant ' || $2 || ' ' || n from generate_series(1, 1000) as n returning id`,
      [orderId, mode],
    )
    .finally(() => admin.end())
  const folderIds = prepared.rows.map((r) => r.id)
  // Four customers' worth of calls, a read and a write in turn, through the balancer (which retries a GET's 503 on the
  // other instance, never a write's).
  const worker = async () => {
    while (running) {
      const i = n++
      const folder = i % 2 && folderIds.length ? { id: folderIds.shift()!, name: `Redémarrage ${mode} ${i}` } : undefined
      const start = Date.now()
      // A network error (no answer at all) is recorded as status 0 with its message, and reported by the checks below.
      const reply = await (folder
        ? call(ctx.base, 'PUT', `/api-protected/folders/${folder.id}`, {
            ...json({ name: folder.name }),
            headers: { ...bearer, 'content-type': 'application/json' },
            agent: ctx.agent,
          })
        : call(ctx.base, 'GET', '/api-protected/my-domiciliation-orders', { headers: bearer, agent: ctx.agent })
      ).catch((error: Error) => ({
        status: 0,
        body: Buffer.from(`réseau : ${error.message}`),
        json: () => {
          throw error
        },
      }))
      const end = Date.now()
      let code: string | undefined
      try {
        code = reply.json().code
      } catch {
        code = reply.body.toString('utf8').slice(0, 80)
      }
      sent.push({
        what: folder ? 'PUT folders' : 'GET orders',
        folder,
        status: reply.status,
        resent: 'resent' in reply && reply.resent,
        code,
        ms: end - start,
        start,
        end,
      })
      await new Promise((r) => setTimeout(r, 25))
    }
  }
  const workers = Array.from({ length: 4 }, worker)
  await new Promise((r) => setTimeout(r, 500))
  const restartStart = Date.now()
  await promisify(execFile)(restart, [mode])
  const restartEnd = Date.now()
  await new Promise((r) => setTimeout(r, 1500))
  running = false
  await Promise.all(workers)

  const during = sent.filter((s) => s.end >= restartStart && s.start <= restartEnd)
  assert.ok(during.length > 0, 'calls were under way while PostgreSQL restarted')
  // A call that meets the database away is refused in French (the API's 503), never a 500, never held.
  // While the database recovers from a crash, both instances' /health fail and the balancer answers its own French 503
  // (deploy/haproxy.cfg, SERVICE_UNAVAILABLE) instead of passing the call.
  // Every call gets an answer. When the instance HAProxy chose fails before answering (its connection to it cut, both
  // marked down meanwhile), HAProxy closes a kept-alive client connection without an answer, so that the client sends
  // the request again, as a browser does by itself: the test's client does it too (`call`, processes.ts), and such
  // calls are counted (« renvoyés », docs/OPERATIONS.md).
  const wrong = sent.filter(
    (s) => s.status !== 200 && !(s.status === 503 && (s.code === 'DATABASE_UNAVAILABLE' || s.code === 'SERVICE_UNAVAILABLE')),
  )
  assert.equal(
    wrong.map((s) => `${s.what} ${s.status} ${s.code}`),
    [],
    'only 200 and the French 503',
  )
  const slowest = Math.max(...sent.map((s) => s.ms))
  assert.ok(slowest < 5_000, `no call held while the database restarted (slowest: ${slowest} ms)`)
  assert.equal([ctx.instances.api1.exitCode(), ctx.instances.api2.exitCode()], [undefined, undefined], 'both processes are still running')
  // Once it is back, both instances serve (their pools open new connections). An instance the balancer marked down
  // while the database was away is taken back after two good health checks a second apart (deploy/haproxy.cfg: inter
  // 1s, rise 2): on a busy machine that may come after the calls above, so the calls go on until both have answered,
  // 15 s at most. Every call an instance answers meanwhile answers 200; while the balancer has both still marked down
  // (the database back, their health checks not yet), it answers its own French 503 (SERVICE_UNAVAILABLE), never
  // passing the call.
  const seen = new Set<string | undefined>()
  const until = Date.now() + 15_000
  while (seen.size < 2 && Date.now() < until) {
    const reply = await call(ctx.base, 'GET', '/api-protected/my-domiciliation-orders', { headers: bearer, agent: ctx.agent })
    const noInstanceYet = reply.status === 503 && reply.instance === undefined && reply.json().code === 'SERVICE_UNAVAILABLE'
    if (!noInstanceYet) assert.is(reply.status, 200, `after the restart: ${reply.status} ${reply.body}`)
    if (reply.status === 200) seen.add(reply.instance)
    if (seen.size < 2) await new Promise((r) => setTimeout(r, 100))
  }
  assert.equal([...seen].sort(), ['api1', 'api2'], 'both instances answer after the restart')
  // Every write is whole or not done: a folder whose rename answered 200 has its new name, one answered 503 its old one.
  const folders = (
    await call(ctx.base, 'GET', `/api-protected/folders?domiciliationOrderId=${orderId}`, { headers: bearer, agent: ctx.agent })
  ).json<{ id: number; name: string }[]>()
  const nameOf = new Map(folders.map((f) => [f.id, f.name]))
  const writes = sent.filter((s) => s.folder)
  assert.ok(
    writes.some((s) => s.status === 200),
    'renames went through',
  )
  assert.equal(
    writes.filter((s) => s.status === 200 && nameOf.get(s.folder!.id) !== s.folder!.name).map((s) => s.folder!.name),
    [],
    'no rename answered 200 is lost',
  )
  // A clean stop ends every transaction before it stops: a rename refused is not done. A crash may cut a connection
  // between a commit and its answer, so a rename refused then may or may not be done; one answered 200 always is.
  if (mode === 'fast')
    assert.equal(
      writes.filter((s) => s.status !== 200 && nameOf.get(s.folder!.id) === s.folder!.name).map((s) => `${s.folder!.name} ${s.status}`),
      [],
      'each folder has its new name exactly when its rename answered 200',
    )
  console.log(
    `  redémarrage (${mode}) de PostgreSQL en ${restartEnd - restartStart} ms : ${sent.length} appels, ${writes.filter((s) => s.status === 200).length} écritures confirmées, ${sent.filter((s) => s.status === 503).length} × 503, ${sent.filter((s) => s.resent).length} renvoyés, le plus lent ${slowest} ms`,
  )
}

test('PostgreSQL restarts (pg_ctl restart -m fast) under steady calls: no 500, nothing half done, both answer again', (ctx) =>
  restartUnderCalls(ctx, 'fast'))

test('PostgreSQL crashes (pg_ctl restart -m immediate) under steady calls: no 500, no write answered 200 lost', (ctx) =>
  restartUnderCalls(ctx, 'immediate'))

suiteOf.run()
