// A real server in a child process: killed with SIGKILL during uploads then restarted (nothing left behind once
// swept), and stopped with SIGTERM through `npm start` (the server ends, in-flight requests finish, the lock goes);
// and, in this process, a request that arrives on a kept-alive connection while the app closes: a French 503.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, utimes } from 'node:fs/promises'
import { request } from 'node:http'
import { connect as connectSocket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import { connect } from '../../server/db/connect.ts'
import { STORED_FILE_COLUMNS } from '../../server/db/repositories/stored-files.ts'
import { SWEEP_GRACE_MS } from '../../server/services/storage-sweep.ts'
import { buildApp } from '../../server/app.ts'
import { messages } from '../../server/http/errors.ts'
import { buildTestApp, DEMO_PASSWORD } from '../util/server.ts'
import { gate } from '../util/gate.ts'
import { multipart, tinyPng } from '../util/server-samples.ts'

const ROOT = join(import.meta.dirname, '..', '..')

interface Dirs {
  root: string
  data: string
  storage: string
}

/** The environment of a child server: PGlite in its own directories (never DATABASE_URL: the lock is the point). */
const serverEnv = (dirs: Dirs, extra: Record<string, string> = {}) => ({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE_URL: '',
  DATA_DIR: dirs.data,
  STORAGE_DIR: dirs.storage,
  DIST_DIR: join(dirs.root, 'no-dist'),
  LOG_LEVEL: 'error',
  OPERATOR_TOKEN: '',
  SMTP_URL: '',
  STRIPE_SECRET_KEY: '',
  ...extra,
})

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once('exit', () => resolve())
  })

/** `node server/server.ts`, resolved once it listens (it tells its port over IPC). */
function startServer(dirs: Dirs): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'server.ts')], {
    cwd: ROOT,
    env: serverEnv(dirs),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('le serveur n’a pas démarré en 60 s')), 60_000)
    child.on('message', (message: { ready?: boolean; port?: number }) => {
      if (!message.ready) return
      clearTimeout(timer)
      resolve({ child, url: `http://127.0.0.1:${message.port}` })
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`le serveur s’est arrêté (${code})`))
    })
  })
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort()
}

/** A valid PNG of about `size` bytes: tinyPng with a large private ancillary chunk. */
async function bigPng(size: number): Promise<Buffer> {
  const { crc32 } = await import('node:zlib')
  const data = Buffer.alloc(size)
  const head = Buffer.alloc(8)
  head.writeUInt32BE(size)
  head.write('prVt', 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0)
  const afterIhdr = 8 + 12 + 13
  return Buffer.concat([tinyPng.subarray(0, afterIhdr), head, data, crc, tinyPng.subarray(afterIhdr)])
}

const crash = suite<{ dirs: Dirs; children: ChildProcess[] }>('a server killed during uploads leaves nothing once restarted')
crash.before(async (ctx) => {
  const root = await mkdtemp(join(tmpdir(), 'portail-crash-'))
  ctx.dirs = { root, data: join(root, 'data'), storage: join(root, 'storage') }
  ctx.children = []
})
crash.after(async (ctx) => {
  for (const child of ctx.children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  await Promise.all(ctx.children.map(exited))
  await rm(ctx.dirs.root, { recursive: true, force: true })
})

crash('SIGKILL while 9 MB identity documents are written, restart: no temp file, no file without its row', async (ctx) => {
  const form = async (url: string) => {
    const login = await fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo@example.com', password: DEMO_PASSWORD }),
    })
    const { apiToken } = (await login.json()) as { apiToken: string }
    const orders = (await (await fetch(`${url}/api-protected/my-domiciliation-orders`, { headers: { apiToken } })).json()) as {
      id: number
      raisonSociale: string
    }[]
    const orderId = orders.find((o) => o.raisonSociale === 'Conseil Horizon EURL')!.id
    const parts = multipart({ orderId: String(orderId) }, [
      { field: 'identity_manager', filename: 'cni.png', contentType: 'image/png', bytes: await bigPng(9 * 1024 * 1024) },
    ])
    return { apiToken, headers: parts.headers, body: Uint8Array.from(parts.payload) }
  }
  const tmp = join(ctx.dirs.storage, '.tmp')
  // Uploads one after the other; the server is killed as soon as a file is being written to storage/.tmp. The kill
  // may land just after that file was renamed (a fast disk, a busy machine): then the server is started and killed
  // again, a few times at most, until a half-written temp file is left.
  let left: string[] = []
  for (let attempt = 1; attempt <= 5 && !left.length; attempt++) {
    const first = await startServer(ctx.dirs)
    ctx.children.push(first.child)
    const upload = await form(first.url)
    let killed = false
    const uploads = (async () => {
      while (!killed) {
        await fetch(`${first.url}/step-upload-identity`, {
          method: 'POST',
          headers: { ...upload.headers, apiToken: upload.apiToken },
          body: upload.body,
        }).catch(() => undefined)
      }
    })()
    const deadline = Date.now() + 60_000
    while (!killed && Date.now() < deadline) {
      if ((await readdir(tmp).catch(() => [])).length) {
        first.child.kill('SIGKILL')
        killed = true
      } else {
        await new Promise((resolve) => setTimeout(resolve, 1))
      }
    }
    killed = true
    await exited(first.child)
    await uploads
    assert.is(first.child.signalCode, 'SIGKILL')
    left = await filesUnder(tmp)
  }
  assert.ok(left.length >= 1, 'the kill left a half-written temp file')

  // Later than the grace period (files of a crash are old by the time anyone restarts; here they are aged).
  const old = new Date(Date.now() - SWEEP_GRACE_MS - 60_000)
  for (const file of await filesUnder(ctx.dirs.storage)) await utimes(join(ctx.dirs.storage, file), old, old)

  const second = await startServer(ctx.dirs)
  ctx.children.push(second.child)
  second.child.kill('SIGTERM')
  await exited(second.child)
  assert.is(second.child.exitCode, 0)

  assert.equal(await filesUnder(tmp), [], 'no temp file')
  const handle = await connect({ dataDir: ctx.dirs.data })
  try {
    const keys = new Set<string>()
    for (const [table, column] of STORED_FILE_COLUMNS) {
      const { rows } = await sql<{ key: string | null }>`select ${sql.ref(column)} as key from ${sql.table(table)}`.execute(handle.db)
      for (const row of rows) if (row.key) keys.add(row.key)
    }
    const files = (await filesUnder(ctx.dirs.storage)).filter((f) => !f.startsWith('.tmp/'))
    assert.equal(
      files.filter((f) => !keys.has(f)),
      [],
      'no file without its row',
    )
    assert.equal(
      [...keys].filter((k) => !files.includes(k)),
      [],
      'no row without its file',
    )
  } finally {
    await handle.close()
  }
})

crash.run()

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connectSocket(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', () => resolve(true))
  })

const shutdown = suite<{ dirs: Dirs; npm?: ChildProcess; serverPid?: number }>('SIGTERM to npm start')
shutdown.before(async (ctx) => {
  const root = await mkdtemp(join(tmpdir(), 'portail-stop-'))
  ctx.dirs = { root, data: join(root, 'data'), storage: join(root, 'storage') }
})
shutdown.after(async (ctx) => {
  // Only what this test started: the npm process and the server it ran.
  if (ctx.npm && ctx.npm.exitCode === null && ctx.npm.signalCode === null) ctx.npm.kill('SIGKILL')
  if (ctx.serverPid && alive(ctx.serverPid)) process.kill(ctx.serverPid, 'SIGKILL')
  await rm(ctx.dirs.root, { recursive: true, force: true })
})

shutdown('stops the server: the request in flight is answered, the port and the database lock are freed', async (ctx) => {
  // npm itself, as a container would start it (npm_execpath: the npm running these tests, if any).
  const npm = process.env.npm_execpath
  ctx.npm = npm
    ? spawn(process.execPath, [npm, 'start', '--silent'], {
        cwd: ROOT,
        env: serverEnv(ctx.dirs, { SEED_DEMO: 'false' }),
        stdio: ['ignore', 'pipe', 'inherit'],
      })
    : spawn('npm', ['start', '--silent'], {
        cwd: ROOT,
        env: serverEnv(ctx.dirs, { SEED_DEMO: 'false' }),
        stdio: ['ignore', 'pipe', 'inherit'],
      })
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`npm start n’a pas démarré en 90 s : ${out}`)), 90_000)
    ctx.npm!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /prêt : http:\/\/localhost:(\d+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve(Number(match[1]))
      }
    })
  })
  const lock = join(ctx.dirs.data, 'pglite.lock')
  ctx.serverPid = Number(await readFile(lock, 'utf8'))
  assert.ok(alive(ctx.serverPid))

  // A login whose body is still on its way when SIGTERM arrives.
  const body = JSON.stringify({ username: 'personne@example.com', password: 'MotDePasse1!' })
  const answer = new Promise<{ status: number; message: string }>((resolve, reject) => {
    const req = request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/api/login',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString()
        })
        res.on('end', () => resolve({ status: res.statusCode!, message: JSON.parse(text).message }))
      },
    )
    req.on('error', reject)
    req.write(body.slice(0, 10))
    setTimeout(() => {
      ctx.npm!.kill('SIGTERM')
      setTimeout(() => req.end(body.slice(10)), 500)
    }, 300)
  })
  const res = await answer
  assert.is(res.status, 401, 'answered, not cut')
  assert.is(res.message, 'Identifiants incorrects')

  await exited(ctx.npm)
  const deadline = Date.now() + 15_000
  while (alive(ctx.serverPid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
  assert.not.ok(alive(ctx.serverPid), 'the server process ended with npm')
  assert.not.ok(existsSync(lock), 'the database lock is released')
  assert.ok(await refused(port), 'nothing listens any more')
})

shutdown(
  'npm start and npm run dev run node in the place of npm’s shell, so npm’s SIGTERM reaches it (a shell stops and leaves its child running)',
  async () => {
    const { scripts } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    assert.match(scripts.start!, /^exec node /)
    assert.match(scripts.dev!, /^exec node /)
  },
)

shutdown.run()

const closing = suite('a request on a kept-alive connection while the server closes')

/**
 * A test app listening, with a route the test holds in flight (`/__held`): its connection is busy when the close starts.
 * `closingHook`: a preClose hook of its own (the close waits for it, its port still open).
 */
async function appWithHeldRequest(closingHook?: () => Promise<void>) {
  const t = await buildTestApp({ seed: false })
  const app = await buildApp(t.deps, { databaseKind: process.env.DATABASE_URL ? 'postgres' : 'pglite' })
  if (closingHook) app.addHook('preClose', closingHook)
  const entered = gate()
  const released = gate()
  const inFlight = entered.opened
  const release = () => released.open()
  app.get('/__held', async () => {
    entered.open()
    await released.opened
    return { held: true }
  })
  const close = async () => {
    release()
    await app.close()
    await t.close()
  }
  try {
    await app.listen({ port: 0, host: '127.0.0.1' })
  } catch (error) {
    await close()
    throw error
  }
  return { port: (app.server.address() as { port: number }).port, app, inFlight, release, close }
}

closing('gets a French 503 with Connection: close (the balancer retries it elsewhere), not Fastify’s English one', async () => {
  const { port, app, inFlight, release, close } = await appWithHeldRequest()
  try {
    const socket = connectSocket(port, '127.0.0.1')
    let received = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      received += chunk
    })
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()))
    const get = (path: string) => socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`)
    // A request held in flight: its connection is busy when the close starts, so it stays open.
    get('/__held')
    await inFlight
    const closed = app.close()
    await new Promise((resolve) => setTimeout(resolve, 50))
    release()
    while (!received.includes('{"held":true}')) await new Promise((resolve) => setTimeout(resolve, 5))
    // The next request on that kept-alive connection arrives while the server closes.
    get('/health')
    await ended
    await closed
    const [first, second] = received.split(/(?=HTTP\/1\.1 )/)
    assert.match(first ?? '', /^HTTP\/1\.1 200/, 'the request in flight is answered')
    assert.match(second ?? '', /^HTTP\/1\.1 503/, received)
    assert.match(second!, /\r\nconnection: close\r\n/i)
    assert.match(second!, /\r\nx-content-type-options: nosniff\r\n/i, 'with the security headers')
    const body = JSON.parse(second!.slice(second!.indexOf('\r\n\r\n') + 4)) as unknown
    assert.equal(body, { message: messages.closing, statusCode: 503, code: 'SHUTTING_DOWN' })
  } finally {
    await close()
  }
})

closing('a connection that has sent nothing, or half its headers, does not hold the close; a request being answered finishes', async () => {
  const { port, app, inFlight, release, close } = await appWithHeldRequest()
  const sockets: ReturnType<typeof connectSocket>[] = []
  try {
    const open = async (first?: string) => {
      const socket = connectSocket(port, '127.0.0.1')
      sockets.push(socket)
      let received = ''
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        received += chunk
      })
      const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()))
      await new Promise((resolve) => socket.once('connect', resolve))
      if (first) socket.write(first)
      return { ended, received: () => received }
    }
    // A browser's preconnect, and a client stopped in the middle of its headers: Node's close waited for them
    // forever (it stops timing connections out once closing), and SIGTERM's 10 s forced exit ended the process.
    const silent = await open()
    const halfway = await open('GET /health HTTP/1.1\r\nHost: localhost\r\n')
    const held = await open('GET /__held HTTP/1.1\r\nHost: localhost\r\n\r\n')
    await inFlight
    const started = Date.now()
    const closed = app.close()
    // Bounded: without the fix, these would wait for the client forever.
    const within = (what: string, promise: Promise<unknown>) =>
      Promise.race([
        promise,
        new Promise((_, reject) => setTimeout(() => reject(new Error(`${what} : toujours ouvert après 3 s`)), 3000).unref()),
      ])
    await within('les connexions sans requête', Promise.all([silent.ended, halfway.ended]))
    assert.is(halfway.received(), '', 'nothing was answered on it')
    release()
    // Answered, its kept-alive connection waits CLOSING_KEEP_ALIVE_MS for a next request, not 72 s.
    await within('la connexion de la requête en cours', held.ended)
    await closed
    assert.ok(Date.now() - started < 2000, `closed in ${Date.now() - started} ms`)
    assert.match(held.received(), /^HTTP\/1\.1 200[\s\S]*\{"held":true\}$/, 'the request in flight is answered')
  } finally {
    for (const socket of sockets) socket.destroy()
    await close()
  }
})

closing('a connection opened while the close runs its hooks (its port still open), sending nothing, does not hold the close', async () => {
  // The notifications' hook ends the live streams and gives their places back (a database write): a client connecting
  // then, and sending nothing (a preconnect, a balancer's check), held the close for Fastify's 72 s (seen on PostgreSQL).
  const hooked = gate()
  const left = gate()
  const leave = () => left.open()
  const { port, app, close } = await appWithHeldRequest(async () => {
    hooked.open()
    await left.opened
  })
  const sockets: ReturnType<typeof connectSocket>[] = []
  try {
    const started = Date.now()
    const closed = app.close()
    await hooked.opened
    const late = connectSocket(port, '127.0.0.1')
    sockets.push(late)
    const ended = new Promise<void>((resolve) => late.on('close', () => resolve()))
    await new Promise((resolve) => late.once('connect', resolve))
    leave()
    await Promise.race([
      Promise.all([ended, closed]),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('la connexion ouverte pendant la fermeture la retient après 3 s')), 3000).unref(),
      ),
    ])
    assert.ok(Date.now() - started < 2000, `closed in ${Date.now() - started} ms`)
  } finally {
    leave()
    for (const socket of sockets) socket.destroy()
    await close()
  }
})

closing.run()
