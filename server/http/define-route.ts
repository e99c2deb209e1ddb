// Registers handlers against the contract's route table: one handler per entry, none forgotten.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import type { Static, TSchema } from 'typebox'
import { NoQuery } from '../contract/common.ts'
import { routes, type RouteDef, type RouteName, type Routes } from '../contract/routes.ts'
import { countRateLimitHit, remainingRateLimitHits } from '../db/repositories/rate-limits.ts'
import { findSession, type SessionKey, type SessionUser } from '../db/repositories/session.ts'
import { findOperatorSession, type SessionOperator } from '../db/repositories/operators.ts'
import { API_KEY_PREFIX, findApiKeyInUse } from '../db/repositories/operators-api-keys.ts'
import type { AppDeps } from '../deps.ts'
import { sameDigest, sha256 } from '../lib/crypto.ts'
import { HttpError, invalidSessionError as invalidSession, messages, SMALL_BODY_LIMIT } from './errors.ts'

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null
    /** The back office's operator behind the session (auth 'operatorSession' only). */
    operator: SessionOperator | null
    /** auth 'operator': the API key behind the call, null for the bootstrap OPERATOR_TOKEN (and on other routes). */
    apiKeyId: number | null
  }
}

type SchemaOf<N extends RouteName> = Routes[N]['schema']
type Part<N extends RouteName, K extends string> = SchemaOf<N> extends { [P in K]: infer T extends TSchema } ? Static<T> : undefined
export type ReplyOf<N extends RouteName> = Static<SchemaOf<N>['response'][200]>

export interface RouteContext<N extends RouteName> {
  params: Part<N, 'params'>
  query: Part<N, 'querystring'>
  body: Part<N, 'body'>
  /** The signed-in user; routes with auth 'none', 'operator' or 'operatorSession' get null. */
  user: Routes[N]['auth'] extends 'none' | 'operator' | 'operatorSession' ? null : SessionUser
  /** The signed-in operator of the back office (auth 'operatorSession'), with one of the route's roles. */
  operator: Routes[N]['auth'] extends 'operatorSession' ? SessionOperator : null
  req: FastifyRequest
  reply: FastifyReply
}

export type Handler<N extends RouteName> = (ctx: RouteContext<N>) => Promise<ReplyOf<N>>

/**
 * A hot route's context: the session is not looked up beforehand, the handler's one statement checks it (docs/SPEED.md, "One statement per
 * request").
 */
export interface JoinedRouteContext<N extends RouteName> extends Omit<RouteContext<N>, 'user'> {
  session: SessionKey
}
/**
 * An answer the database already wrote as JSON (GET documents, GET my-domiciliation-orders; server/db/json.ts):
 * sent as it is, past the route's serializer; or its UTF-8 bytes, as a kept list holds them (db/kept-lists.ts).
 * `T` is the contract's type it stands for; a test per such query holds the text to the contract.
 */
export class JsonText<T> {
  declare readonly of: T
  constructor(readonly text: string | Buffer) {}
}

export type JoinedHandler<N extends RouteName> = (ctx: JoinedRouteContext<N>) => Promise<ReplyOf<N> | JsonText<ReplyOf<N>>>

export type DefineRoute = (<N extends RouteName>(name: N, handler: Handler<N>) => void) & {
  /** A signed-in route whose handler joins the token check into its own query (and throws `invalidSessionError()` when it finds none). */
  joined: <N extends RouteName>(name: N, handler: JoinedHandler<N>) => void
}

/** `/x/{id}:send-problem` → `/x/:id(^\d+)::send-problem` (find-my-way: a literal colon is doubled). */
export function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}(:?)/g, (_, name: string, colon: string) => (colon ? `:${name}(^\\d+)::` : `:${name}`))
}

/**
 * Login, the password-reset calls, the other ways in and the public certificate check are rate-limited per IP (counters in the database,
 * see rate-limit-store.ts).
 */
const rateLimited: ReadonlySet<RouteName> = new Set([
  'login',
  'resetPasswordRequest',
  'resetPassword',
  // people: the other ways in without a token
  'invitation',
  'createInvitationAccount',
  'passkeyLoginOptions',
  'passkeyLogin',
  // account: the link that undoes an e-mail change
  'revertEmailChange',
  // billing: the public certificate check
  'certificateVerification',
  // operators: the back office's ways in
  'operatorPassword',
  'operatorCode',
  'operatorPasskeyOptions',
  'operatorPasskey',
  'operatorEnrolment',
  'operatorEnrol',
])

function credential(req: FastifyRequest, auth: RouteDef['auth']): string | undefined {
  if (auth === 'apiToken') {
    const header = req.headers.apitoken
    return (Array.isArray(header) ? header[0] : header)?.trim() || undefined
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')
  return match?.[1]
}

/** Wrong operator tokens from one address before it is refused for the rest of the window (guesses cost nothing). */
export const OPERATOR_FAILURES = { max: 20, windowMs: 15 * 60_000 }
const operatorFailuresKey = (req: FastifyRequest) => `operator-failures:${req.ip}`

/**
 * A machine of the provider: an API key (api_keys, by its SHA-256, unrevoked; its use noted in the same statement) or
 * the bootstrap OPERATOR_TOKEN (compared as digests, in constant time), never a customer's token nor an operator's
 * session. An address past OPERATOR_FAILURES wrong tokens gets a French 429 without its token being compared (the
 * counter read is the only cost a right token pays: machines' calls are few); each wrong one is counted and logged (the
 * address, never the token). `req.apiKeyId`: the key behind the call, null for OPERATOR_TOKEN.
 */
async function checkOperator(req: FastifyRequest, deps: Pick<AppDeps, 'db' | 'clock' | 'config'>) {
  const { operatorToken } = deps.config
  const token = credential(req, 'operator')
  if (!token) throw new HttpError(401, messages.operatorNoToken, 'UNAUTHENTICATED')
  const now = deps.clock.now()
  const { remaining, resetAt } = await remainingRateLimitHits(deps.db, operatorFailuresKey(req), OPERATOR_FAILURES.max, now)
  if (remaining === 0)
    throw new HttpError(
      429,
      messages.operatorLocked(Math.max(1, Math.ceil(((resetAt ?? now).getTime() - now.getTime()) / 60_000))),
      'RATE_LIMITED',
    )
  if (operatorToken && sameDigest(sha256(token), sha256(operatorToken))) {
    req.apiKeyId = null
    return
  }
  const key = token.startsWith(API_KEY_PREFIX) ? await findApiKeyInUse(deps.db, token, now) : undefined
  if (key) {
    req.apiKeyId = key.id
    return
  }
  await countRateLimitHit(deps.db, operatorFailuresKey(req), now, new Date(now.getTime() + OPERATOR_FAILURES.windowMs))
  req.log.warn({ ip: req.ip }, 'jeton opérateur refusé')
  throw new HttpError(401, messages.operatorBadToken, 'INVALID_TOKEN')
}

/**
 * A person of the back office: a session of the operator_sessions table (a customer's token is never found there), its
 * idle time, the operator's being active and its use noted in one statement; then the route's roles (a French 403).
 */
async function checkOperatorSession(req: FastifyRequest, def: RouteDef, deps: Pick<AppDeps, 'db' | 'clock'>) {
  const token = credential(req, def.auth)
  if (!token) throw new HttpError(401, messages.operatorSessionNone, 'UNAUTHENTICATED')
  const operator = await findOperatorSession(deps.db, token, deps.clock.now())
  if (!operator) throw new HttpError(401, messages.operatorSessionInvalid, 'INVALID_TOKEN')
  if (def.roles && !def.roles.some((role) => operator.roles.includes(role)))
    throw new HttpError(403, messages.operatorRoleRequired(def.roles), 'FORBIDDEN_ROLE')
  req.operator = operator
}

/** Every route's first hook (a callback, no promise on the hot path): see routeRegistrar. */
const noStore = (_req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
  reply.header('Cache-Control', 'no-store')
  done()
}

/** A JSON body with a field long enough for a file (a data URL of up to 10 MB). */
const carriesFile = (def: RouteDef) =>
  Object.values((def.schema as { body?: { properties?: Record<string, { maxLength?: number }> } }).body?.properties ?? {}).some(
    (property) => (property.maxLength ?? 0) > SMALL_BODY_LIMIT,
  )

export function routeRegistrar(app: FastifyInstance, deps: AppDeps) {
  const defined = new Set<RouteName>()

  /**
   * A write limited per user: refused (a French 429) once `max` calls of the hour have succeeded; only a call that
   * succeeds is counted, before its answer leaves, so that a refused input stores and counts nothing. Concurrent calls may pass
   * the limit by as many as run at once: an anti-automation bound, not an exact one.
   */
  const perUserLimit = (name: RouteName, max: number) => {
    const key = (req: FastifyRequest) => `user:${req.user!.id}:route:${name}`
    return {
      preHandler: async (req: FastifyRequest) => {
        const { remaining } = await remainingRateLimitHits(deps.db, key(req), max, deps.clock.now())
        if (remaining === 0) throw new HttpError(429, messages.tooManyWrites, 'RATE_LIMITED')
      },
      // Before the answer leaves, so that the next call of the same client already sees it counted.
      onSend: async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        if (reply.statusCode >= 400 || !req.user) return payload
        const now = deps.clock.now()
        await countRateLimitHit(deps.db, key(req), now, new Date(now.getTime() + 3_600_000)).catch((error: unknown) =>
          req.log.error({ err: error }, 'écriture non comptée pour sa limite par utilisateur'),
        )
        return payload
      },
    }
  }

  const register = <N extends RouteName>(name: N, handler: Handler<N> | JoinedHandler<N>, joined: boolean) => {
    if (defined.has(name)) throw new Error(`route ${name} définie deux fois`)
    const limited: RouteDef = routes[name]
    if (limited.perUserHourly && (joined || limited.auth === 'none' || limited.auth === 'operator' || limited.auth === 'operatorSession')) {
      throw new Error(`route ${name} : une limite par utilisateur demande une route connectée, non jointe`)
    }
    defined.add(name)
    const def: RouteDef = routes[name]
    const { response, ...input } = def.schema
    const kind = def.kind ?? 'json'
    app.route({
      method: def.method,
      url: fastifyPath(def.path),
      // A body that carries no file (a data URL field, a multipart form) is small: refused past SMALL_BODY_LIMIT
      // before it is read whole, instead of parsing megabytes (a deeply nested JSON holds the event loop for seconds).
      ...(kind === 'multipart' || carriesFile(def) ? {} : { bodyLimit: SMALL_BODY_LIMIT }),
      // No HEAD twin: some GETs of the spec act (want-comptable records a request and e-mails; a letter's file marks
      // it opened), and a HEAD, which anything may send to probe a link, must not. HEAD on the API answers 404.
      exposeHeadRoute: false,
      schema: {
        // A route that declares no query takes none: an unknown parameter is a French 400, never silently dropped (a
        // client asking `?id=17` of a call that has no such filter would get another answer than it believes).
        querystring: NoQuery,
        ...input,
        // Only the success answers: errors all leave through errorHandler as exactly { message, statusCode, code? }
        // (ApiErrorBody, documented by openapi.ts); eight error schemas per route cost ~800 serializers compiled at start.
        ...(kind === 'file' || kind === 'stream' ? {} : { response }),
      },
      config: rateLimited.has(name) ? { rateLimit: { max: deps.config.authRateLimit, timeWindow: 60_000, groupId: name } } : {},
      onRequest: [
        // No answer of the API is kept by a cache, a shared one or the browser's (the token travels in an `apitoken`
        // header, which caches do not take as a sign of a personal answer the way they take Authorization). Files and
        // streams set their own, as strict.
        noStore,
        // Authentication reads headers only, so it runs first: no token means 401 whatever the body.
        ...(def.auth === 'none'
          ? []
          : [
              def.auth === 'operator'
                ? async (req: FastifyRequest) => checkOperator(req, deps)
                : def.auth === 'operatorSession'
                  ? async (req: FastifyRequest) => {
                      if (joined) throw new Error(`route ${name} : une route du back-office n’est pas jointe`)
                      await checkOperatorSession(req, def, deps)
                    }
                  : async (req: FastifyRequest) => {
                      const token = credential(req, def.auth)
                      if (!token) throw new HttpError(401, messages.noToken, 'UNAUTHENTICATED')
                      if (joined) return
                      const user = await findSession(deps.db, token, deps.clock.now())
                      if (!user) throw invalidSession()
                      req.user = user
                    },
            ]),
      ],
      // A joined route checks its token after validation: bad input is then told 400 only once the token is known good, as elsewhere.
      ...(joined ? { attachValidation: true } : {}),
      // A write that stores something, counted per user once it has succeeded (a refused form costs nothing).
      ...(def.perUserHourly ? perUserLimit(name, def.perUserHourly) : {}),
      handler: joined
        ? async (req, reply) => {
            const now = deps.clock.now()
            if (req.validationError) {
              if (!(await findSession(deps.db, credential(req, def.auth)!, now))) throw invalidSession()
              throw req.validationError
            }
            const session: SessionKey = { tokenHash: sha256(credential(req, def.auth)!), now }
            const answer = await (handler as JoinedHandler<N>)({
              params: req.params,
              query: req.query,
              body: req.body,
              session,
              req,
              reply,
            } as JoinedRouteContext<N>)
            if (!(answer instanceof JsonText)) return answer
            // A string or a Buffer with a JSON content type is sent untouched by Fastify (no serializer runs).
            return reply.type('application/json; charset=utf-8').send(answer.text)
          }
        : async (req, reply) => {
            const ctx = { params: req.params, query: req.query, body: req.body, user: req.user, operator: req.operator, req, reply }
            return (handler as Handler<N>)(ctx as RouteContext<N>)
          },
    })
  }

  const define = Object.assign(<N extends RouteName>(name: N, handler: Handler<N>) => register(name, handler, false), {
    joined: <N extends RouteName>(name: N, handler: JoinedHandler<N>) => register(name, handler, true),
  }) as DefineRoute

  return {
    define,
    /** Refuses to start when an entry of the route table has no handler. */
    assertComplete() {
      const missing = (Object.keys(routes) as RouteName[]).filter((name) => !defined.has(name))
      if (missing.length) throw new Error(`routes du contrat sans gestionnaire : ${missing.join(', ')}`)
    },
  }
}
