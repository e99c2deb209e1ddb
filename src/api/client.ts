// The HTTP core of the typed client: one ofetch instance, the three ways of authenticating
// (spec §6), and the conversion of every failure into an ApiError with a French message.
import { FetchError, ofetch } from 'ofetch'
import type { Static, TSchema } from 'typebox'
import type { RouteName, Routes } from '../../server/contract/routes.ts'
import { takeEarly } from './early.ts'
import { ApiError, fallbackMessage, isAbortError } from './errors.ts'

export type Reply<K extends RouteName> = Static<Routes[K]['schema']['response'][200]>
export type Body<K extends RouteName> = Routes[K]['schema'] extends { body: infer B extends TSchema } ? Static<B> : never
export type Query<K extends RouteName> = Routes[K]['schema'] extends { querystring: infer Q extends TSchema } ? Static<Q> : never

export type Auth = 'none' | 'apiToken' | 'bearer'

export interface CallOptions {
  signal?: AbortSignal
  /** The token of a user signed in a moment ago and not yet kept by the session (an invitation accepted on sign-in). */
  apiToken?: string
}

export interface ApiHooks {
  /** The stored token, read at each call. */
  getToken: () => string | null
  /** An authenticated call answered 401: the session is over. */
  onUnauthorized: (error: ApiError) => void
  /** A call the spec says swallows its errors failed: tell the customer anyway (PRODUCT.md). */
  onSwallowedError: (error: ApiError) => void
}

const hooks: ApiHooks = {
  getToken: () => null,
  onUnauthorized: () => {},
  onSwallowedError: () => {},
}

/** Called once by the composition root (and by tests). */
export function configureApi(next: Partial<ApiHooks> & { baseURL?: string }): void {
  const { baseURL, ...rest } = next
  Object.assign(hooks, rest)
  if (baseURL !== undefined) {
    http = createHttp(baseURL)
    streamBase = baseURL
  }
}

const createHttp = (baseURL: string) => ofetch.create({ baseURL, retry: 0 })
// Same origin until the composition root says otherwise (API_BASE_URL).
let http = createHttp('')
// notifications: the live stream goes through fetch itself (ofetch would read it to the end).
let streamBase = ''

function authHeaders(auth: Auth, override?: string): Record<string, string> {
  if (auth === 'none') return {}
  const token = override ?? hooks.getToken()
  if (!token) return {}
  return auth === 'apiToken' ? { apiToken: token } : { Authorization: `Bearer ${token}` }
}

/** A failed answer: the server's French message and code when it gave them, else the status's. */
function answerError(status: number, body: unknown): ApiError {
  const data = body as { message?: unknown; code?: unknown } | undefined
  const message = status !== 0 && typeof data?.message === 'string' && data.message ? data.message : fallbackMessage(status)
  return new ApiError(message, status, typeof data?.code === 'string' ? data.code : undefined)
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  if (error instanceof FetchError) return answerError(error.response?.status ?? 0, error.data)
  return new ApiError(fallbackMessage(0), 0)
}

/** An answer the entry fetched ahead (early.ts), read as ofetch would have read it. */
async function earlyAnswer<T>(response: Promise<Response>, signal?: AbortSignal): Promise<T> {
  let answer: Response
  try {
    answer = await response
  } catch {
    throw new ApiError(fallbackMessage(0), 0)
  }
  signal?.throwIfAborted()
  const body: unknown = await answer.json().catch(() => undefined)
  signal?.throwIfAborted()
  if (!answer.ok || body === undefined) throw answerError(answer.ok ? 500 : answer.status, body)
  return body as T
}

interface Request {
  auth: Auth
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  body?: unknown
  query?: Record<string, string | number | undefined>
  responseType?: 'json' | 'blob'
}

/** Sends one call; throws an ApiError (or the AbortError when the caller cancelled). */
export async function call<T>(request: Request, options: CallOptions = {}): Promise<T> {
  const query = request.query && Object.fromEntries(Object.entries(request.query).filter(([, v]) => v !== undefined))
  const early =
    request.method === 'GET' && !query && !options.apiToken && request.auth !== 'none'
      ? takeEarly(request.path, hooks.getToken())
      : undefined
  try {
    if (early) return await earlyAnswer<T>(early, options.signal)
    return (await http<T, 'json' | 'blob'>(request.path, {
      method: request.method,
      headers: authHeaders(request.auth, options.apiToken),
      body: request.body as BodyInit | Record<string, unknown> | undefined,
      query,
      signal: options.signal,
      responseType: request.responseType ?? 'json',
    })) as T
  } catch (error) {
    if (options.signal?.aborted || isAbortError(error)) throw error
    const apiError = toApiError(error)
    if (apiError.status === 401 && request.auth !== 'none') hooks.onUnauthorized(apiError)
    throw apiError
  }
}

/**
 * For the calls the spec says swallow their errors: report, then answer the fallback. Reported to the person who
 * made the call only: a failure answered after a sign-out (or once another person signed in, or after a 401 ended
 * the session, which says so itself) is not told.
 */
export async function swallow<T, F>(promise: Promise<T>, fallback: F): Promise<T | F> {
  const token = hooks.getToken()
  try {
    return await promise
  } catch (error) {
    if (isAbortError(error)) throw error
    if (hooks.getToken() === token) hooks.onSwallowedError(toApiError(error))
    return fallback
  }
}

export const encode = (value: string | number) => encodeURIComponent(String(value))

/**
 * notifications: opens a long-lived GET (Server-Sent Events) with the token in its header,
 * never in the URL; answers the response once its headers are in. A 401 ends the session as any call.
 */
export async function openStream(
  path: string,
  options: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<Response> {
  let response: Response
  try {
    response = await fetch(`${streamBase}${path}`, {
      headers: { accept: 'text/event-stream', ...options.headers, ...authHeaders('apiToken') },
      signal: options.signal,
    })
  } catch (error) {
    if (options.signal?.aborted || isAbortError(error)) throw error
    throw new ApiError(fallbackMessage(0), 0)
  }
  if (!response.ok || !response.body) {
    const data = (await response.json().catch(() => undefined)) as { message?: unknown } | undefined
    const apiError = new ApiError(typeof data?.message === 'string' ? data.message : fallbackMessage(response.status), response.status)
    if (apiError.status === 401) hooks.onUnauthorized(apiError)
    throw apiError
  }
  return response
}
