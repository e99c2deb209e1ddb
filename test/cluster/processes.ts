// The processes of the cluster test: API instances started as production starts them (`node scripts/start.mjs`),
// HAProxy with deploy/haproxy.cfg, and HTTP calls that say which instance answered (X-Instance).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createWriteStream, existsSync, readFileSync } from 'node:fs'
import { type Agent, request as httpRequest } from 'node:http'
import { createServer } from 'node:net'
import { join } from 'node:path'

export const root = join(import.meta.dirname, '../..')

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

export interface Reply {
  status: number
  instance: string | undefined
  body: Buffer
  json<T = any>(): T
  /** Sent a second time: its first connection, a kept-alive one, closed without an answer (call). */
  resent?: boolean
}

export interface CallOptions {
  headers?: Record<string, string>
  body?: string | Buffer
  agent?: Agent
  localAddress?: string
}

/** The methods a client may send again by itself when their connection closed without an answer (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'])

/**
 * One HTTP call; a network error rejects (the stream test counts it as a lost request). As a browser does, an
 * idempotent call sent on a kept-alive connection that closed before any answer is sent once more, on another
 * connection (`resent`): HAProxy closes a client's reused connection without answering when the instance it chose
 * failed before answering, so that the client may send the request again (docs/OPERATIONS.md); Chromium does it by
 * itself, Node's client does not (its documented pattern: `request.reusedSocket`).
 */
export function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  return callOnce(base, method, path, options).catch((error: Error & { resendable?: boolean }) => {
    if (!error.resendable || !IDEMPOTENT.has(method)) throw error
    return callOnce(base, method, path, options).then((reply) => ({ ...reply, resent: true }))
  })
}

function callOnce(base: string, method: string, path: string, options: CallOptions): Promise<Reply> {
  return new Promise((resolve, reject) => {
    let answered = false
    let timedOut = false
    const req = httpRequest(
      new URL(path, base),
      {
        method,
        headers: options.headers,
        agent: options.agent,
        localAddress: options.localAddress,
      },
      (res) => {
        answered = true
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('error', reject)
        res.on('end', () => {
          const body = Buffer.concat(chunks)
          const header = res.headers['x-instance']
          resolve({
            status: res.statusCode ?? 0,
            instance: Array.isArray(header) ? header[0] : header,
            body,
            json: () => JSON.parse(body.toString('utf8')),
          })
        })
      },
    )
    // Closed before any answer on a connection used before: what a browser sends again (call, above).
    req.on('error', (error) => reject(Object.assign(error, { resendable: !answered && !timedOut && req.reusedSocket })))
    req.setTimeout(30_000, () => {
      timedOut = true
      req.destroy(new Error(`${method} ${path} : pas de réponse en 30 s`))
    })
    req.end(options.body)
  })
}

export interface LiveStreamReply {
  status: number
  instance: string | undefined
  /** Everything received so far (the whole body of a refusal). */
  text(): string
  /** Resolves when the answer has ended (by the server, or by close()). */
  ended: Promise<void>
  isEnded(): boolean
  close(): void
}

/** A live notification stream opened as the bell opens it (token in its header), from `localAddress` if given; resolves once answered. */
export function openLiveStream(base: string, token: string, localAddress?: string): Promise<LiveStreamReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      new URL('/api-protected/notifications/stream', base),
      { headers: { apitoken: token, accept: 'text/event-stream' }, agent: false, localAddress },
      (res) => {
        req.setTimeout(0)
        let text = ''
        let over = false
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          text += chunk
        })
        res.on('error', () => {})
        const ended = new Promise<void>((done) => {
          const end = () => {
            over = true
            done()
          }
          res.once('end', end)
          res.once('close', end)
        })
        const header = res.headers['x-instance']
        resolve({
          status: res.statusCode ?? 0,
          instance: Array.isArray(header) ? header[0] : header,
          text: () => text,
          ended,
          isEnded: () => over,
          close: () => req.destroy(),
        })
      },
    )
    req.on('error', reject)
    req.setTimeout(30_000, () => req.destroy(new Error('flux : pas de réponse en 30 s')))
    req.end()
  })
}

const tail = (file: string, lines = 40) =>
  existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n') : '(pas de journal)'

export interface Managed {
  name: string
  child: ChildProcess
  log: string
  exited: Promise<number | null>
  exitCode(): number | null | undefined
}

function launch(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, log: string): Managed {
  const out = createWriteStream(log)
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout!.pipe(out, { end: false })
  child.stderr!.pipe(out, { end: false })
  let code: number | null | undefined
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (c, signal) => {
      code = c ?? (signal ? -1 : null)
      resolve(code)
    }),
  )
  return { name, child, log, exited, exitCode: () => code }
}

async function waitFor(what: string, managed: Managed | null, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (managed && managed.exitCode() !== undefined) {
      throw new Error(`${what} s’est arrêté au démarrage (code ${managed.exitCode()}). Fin de son journal :\n${tail(managed.log)}`)
    }
    if (await ready().catch(() => false)) return
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${what} n’est pas prêt après ${timeoutMs / 1000} s.${managed ? ` Fin de son journal :\n${tail(managed.log)}` : ''}`)
}

export interface InstanceEnv {
  databaseUrl: string
  /** The one store both instances share: an S3 bucket (with-s3.sh), with a prefix of this run's own. */
  storageUrl: string
  /** Each instance gets a directory of its own under this one for STORAGE_DIR and DATA_DIR: they share no disk. */
  localDir: string
  authRateLimit: number
}

/** An API process exactly as production runs it (the Dockerfile's CMD), ready once its /health answers 200. */
export async function startInstance(name: string, port: number, env: InstanceEnv, logDir: string): Promise<Managed> {
  const instance = launch(
    name,
    process.execPath,
    ['scripts/start.mjs'],
    {
      ...process.env,
      NODE_ENV: 'production',
      // A demonstration instance: the demo accounts, the local test payment provider and the outbox mailer (a
      // production one without SEED_DEMO=true refuses to start without Stripe and SMTP: server/config.ts).
      SEED_DEMO: 'true',
      INSTANCE_NAME: name,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: env.databaseUrl,
      STORAGE_URL: env.storageUrl,
      STORAGE_DIR: join(env.localDir, name, 'storage'),
      DATA_DIR: join(env.localDir, name, 'data'),
      TRUST_PROXY: 'true',
      AUTH_RATE_LIMIT: String(env.authRateLimit),
      LOG_LEVEL: 'info',
    },
    join(logDir, `${name}.log`),
  )
  await waitFor(
    `L’instance ${name}`,
    instance,
    async () => (await call(`http://127.0.0.1:${port}`, 'GET', '/health')).status === 200,
    120_000,
  )
  return instance
}

export function haproxyPath(): string {
  if (process.env.HAPROXY_PATH) return process.env.HAPROXY_PATH
  for (const candidate of ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy']) if (existsSync(candidate)) return candidate
  throw new Error(
    'HAProxy est introuvable (/usr/sbin/haproxy) : installez le paquet Debian « haproxy » (.ci/run le fait) ou donnez HAPROXY_PATH.',
  )
}

/**
 * HAProxy with the repository's deploy/haproxy.cfg (the one compose.yaml mounts), its addresses from the environment; `maxconn`:
 * HAPROXY_MAXCONN.
 */
export async function startBalancer(port: number, backends: [number, number], logDir: string, maxconn?: number): Promise<Managed> {
  const config = join(root, 'deploy/haproxy.cfg')
  const env = {
    ...process.env,
    BALANCER_BIND: `127.0.0.1:${port}`,
    API1_ADDR: `127.0.0.1:${backends[0]}`,
    API2_ADDR: `127.0.0.1:${backends[1]}`,
    ...(maxconn ? { HAPROXY_MAXCONN: String(maxconn) } : {}),
  }
  const binary = haproxyPath()
  const check = spawnSync(binary, ['-c', '-f', config], { env, encoding: 'utf8' })
  if (check.status !== 0) throw new Error(`deploy/haproxy.cfg est refusé par HAProxy :\n${check.stdout}${check.stderr}`)
  const balancer = launch('haproxy', binary, ['-db', '-f', config], env, join(logDir, 'haproxy.log'))
  // Ready when both instances answer through it: its health checks have marked them up.
  const seen = new Set<string>()
  await waitFor(
    'HAProxy',
    balancer,
    async () => {
      const reply = await call(`http://127.0.0.1:${port}`, 'GET', '/health')
      if (reply.status === 200 && reply.instance) seen.add(reply.instance)
      return seen.size === 2
    },
    30_000,
  )
  return balancer
}

/** SIGTERM and wait; SIGKILL after `graceMs`. The exit code (-1: killed by a signal). */
export async function stop(managed: Managed, graceMs = 15_000): Promise<number | null> {
  if (managed.exitCode() !== undefined) return managed.exitCode()!
  managed.child.kill('SIGTERM')
  const timer = setTimeout(() => managed.child.kill('SIGKILL'), graceMs)
  const code = await managed.exited
  clearTimeout(timer)
  return code
}

export { tail }
