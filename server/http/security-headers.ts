// The security headers of every answer, in one place: helmet's own list, computed once, and the Permissions-Policy;
// app.ts sets them on every answer in one hook, and the few answers written before any hook runs (malformed URL, too long id, a request the
// HTTP parser cannot read) copy them.
import { createRequire } from 'node:module'
import type { FastifyHelmetOptions } from '@fastify/helmet'

export const helmetOptions: FastifyHelmetOptions = {
  contentSecurityPolicy: false, // set on index.html by spa.ts, with a per-response nonce
  crossOriginEmbedderPolicy: false,
  frameguard: { action: 'deny' }, // as the CSP's frame-ancestors 'none', for older browsers
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
}

type Middleware = (
  req: object,
  res: { setHeader(name: string, value: string): void; removeHeader(name: string): void },
  next: () => void,
) => void

/** What helmet sets, read by running its middleware on a stub answer: the same list as on a real one. */
function helmetHeaders(): Readonly<Record<string, string>> {
  // The very helmet @fastify/helmet runs (its own dependency, not one of ours).
  const helmet = createRequire(createRequire(import.meta.url).resolve('@fastify/helmet'))('helmet') as (options: object) => Middleware
  const headers: Record<string, string> = {}
  const { global: _, enableCSPNonces: __, ...options } = helmetOptions
  helmet(options)(
    {},
    {
      setHeader: (name, value) => {
        headers[name] = String(value)
      },
      removeHeader: () => undefined,
    },
    () => undefined,
  )
  return Object.freeze(headers)
}

/**
 * What the portal's pages may ask of the browser (helmet sets no Permissions-Policy): no camera, microphone, place,
 * motion sensors, USB or interest topics for any page or frame. Payment only for the page and Stripe's frames, served
 * from js.stripe.com: the card field itself does not use the Payment Request API, but Stripe's 3-D Secure frame may
 * (Secure Payment Confirmation), and an authentication refused by the header would refuse the card. The passkeys'
 * features (publickey-credentials-*) keep their default, the page's own origin.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=(self "https://js.stripe.com")',
  'usb=()',
].join(', ')

export const securityHeaders: Readonly<Record<string, string>> = Object.freeze({
  ...helmetHeaders(),
  'Permissions-Policy': PERMISSIONS_POLICY,
})

/** The Content-Security-Policy of Swagger UI (/api/docs): its own files only, nothing inline, never framed. */
export const swaggerUiCsp = [
  "default-src 'self'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')
