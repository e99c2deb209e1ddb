// The back office's HTTP core: one ofetch instance, the operator's session token (`Authorization: Bearer`) on the
// routes that need it, every failure turned into an ApiError with the server's French message. The portal's client
// (src/api/client.ts) is the customers': the two never share a token nor a hook.
import { FetchError, ofetch } from 'ofetch'
import type { Static, TSchema } from 'typebox'
import type { RouteName, Routes } from '../../../server/contract/routes.ts'
import { ApiError, fallbackMessage, isAbortError } from '../../api/errors.ts'

export type Reply<K extends RouteName> = Static<Routes[K]['schema']['response'][200]>
export type Body<K extends RouteName> = Routes[K]['schema'] extends { body: infer B extends TSchema } ? Static<B> : never
export type Query<K extends RouteName> = Routes[K]['schema'] extends { querystring: infer Q extends TSchema } ? Static<Q> : never

export interface CallOptions {
  signal?: AbortSignal
}

export interface BackOfficeHooks {
  /** The operator's session token, read at each call. */
  getToken: () => string | null
  /** A call with the session answered 401: the session is over (30 minutes idle, deactivated, signed out elsewhere). */
  onUnauthorized: (error: ApiError) => void
}

const hooks: BackOfficeHooks = { getToken: () => null, onUnauthorized: () => {} }
const createHttp = (baseURL: string) => ofetch.create({ baseURL, retry: 0 })
let http = createHttp('')
let base = ''

/** Called once by the back office's composition root (and by tests). */
export function configureBackOfficeApi(next: Partial<BackOfficeHooks> & { baseURL?: string }): void {
  const { baseURL, ...rest } = next
  Object.assign(hooks, rest)
  if (baseURL !== undefined) {
    http = createHttp(baseURL)
    base = baseURL
  }
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  if (error instanceof FetchError) {
    const status = error.response?.status ?? 0
    const data = error.data as { message?: unknown; code?: unknown } | undefined
    const message = status !== 0 && typeof data?.message === 'string' && data.message ? data.message : fallbackMessage(status)
    return new ApiError(message, status, typeof data?.code === 'string' ? data.code : undefined)
  }
  return new ApiError(fallbackMessage(0), 0)
}

interface Request {
  /** 'session': the operator's token; 'none': the sign-in and enrolment routes. */
  auth: 'none' | 'session'
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  body?: unknown
  query?: Record<string, string | number | undefined>
  responseType?: 'json' | 'blob'
}

/** Sends one call; throws an ApiError (or the AbortError when the caller cancelled). */
export async function call<T>(request: Request, options: CallOptions = {}): Promise<T> {
  const query = request.query && Object.fromEntries(Object.entries(request.query).filter(([, v]) => v !== undefined && v !== ''))
  const token = request.auth === 'session' ? hooks.getToken() : null
  try {
    return (await http<T, 'json' | 'blob'>(request.path, {
      method: request.method,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      body: request.body as Record<string, unknown> | undefined,
      query,
      signal: options.signal,
      responseType: request.responseType ?? 'json',
    })) as T
  } catch (error) {
    if (options.signal?.aborted || isAbortError(error)) throw error
    const apiError = toApiError(error)
    if (apiError.status === 401 && request.auth === 'session') hooks.onUnauthorized(apiError)
    throw apiError
  }
}

export const encode = (value: string | number) => encodeURIComponent(String(value))

export interface UploadOptions extends CallOptions {
  /** The share of the body sent so far, from 0 to 1. */
  onProgress?: (sent: number) => void
}

/**
 * Sends one JSON body with the session and reports how much of it has left (ofetch's fetch cannot: a request body's
 * progress is XMLHttpRequest's `upload` events alone). Failures as `call`'s: an ApiError with the server's French
 * message, a 401 ending the session. Where there is no XMLHttpRequest (Node), `call` sends it, without progress.
 */
export function upload<T>(request: { method: 'POST' | 'PUT'; path: string; body: unknown }, options: UploadOptions = {}): Promise<T> {
  if (typeof XMLHttpRequest === 'undefined')
    return call<T>({ auth: 'session', ...request }, options).then((reply) => {
      options.onProgress?.(1)
      return reply
    })
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    const abort = () => xhr.abort()
    const fail = (status: number, data: unknown) => {
      const body = data as { message?: unknown; code?: unknown } | null
      const message = status !== 0 && typeof body?.message === 'string' && body.message ? body.message : fallbackMessage(status)
      const error = new ApiError(message, status, typeof body?.code === 'string' ? body.code : undefined)
      if (status === 401) hooks.onUnauthorized(error)
      reject(error)
    }
    xhr.open(request.method, `${base}${request.path}`)
    xhr.responseType = 'json'
    xhr.setRequestHeader('Content-Type', 'application/json')
    const token = hooks.getToken()
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`)
    xhr.upload.onprogress = (event) => event.lengthComputable && options.onProgress?.(event.loaded / event.total)
    xhr.onload = () => {
      options.signal?.removeEventListener('abort', abort)
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(1)
        resolve(xhr.response as T)
      } else fail(xhr.status, xhr.response)
    }
    xhr.onerror = () => fail(0, null)
    xhr.onabort = () => reject(new DOMException('The upload was aborted.', 'AbortError'))
    options.signal?.addEventListener('abort', abort, { once: true })
    xhr.send(JSON.stringify(request.body))
  })
}
