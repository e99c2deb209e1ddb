// Serves the built SPA (dist/): hashed assets with a long cache, and for every client route the page
// dist/pages.json names: index.html (or the page drawn ahead at build time: /login) for a public route,
// the page that also announces the signed-in screens' code for every other one; the back office's own page
// (dist/operateur.html, a build of its own) for /operateur and every path below it.
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isBackOfficePath } from '../contract/rules/backoffice.ts'
import { isLegalPath, LEGAL_PARTICULARS_ELEMENT_ID, type LegalParticulars } from '../contract/rules/legal.ts'
import { messages } from './errors.ts'

/** Paths that belong to the API: never answered with the SPA, whatever the method. */
const apiPath = /^\/(api|api-protected|stripe)(\/|$)|^\/(reset-password-request|step-upload-identity|health)(\/|$)/

/**
 * With the real payment provider (STRIPE_SECRET_KEY), /moyen-de-paiement loads Stripe.js, which draws its card field in
 * its own frame and talks to its API: those three hosts, and only in that mode (the test provider needs none).
 */
export function contentSecurityPolicy(nonce: string, options: { stripe?: boolean } = {}): string {
  const stripe = options.stripe ? ' https://js.stripe.com' : ''
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${stripe}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    `frame-src 'self' blob: https://player.vimeo.com${stripe}${options.stripe ? ' https://hooks.stripe.com' : ''}`,
    `connect-src 'self'${options.stripe ? ' https://api.stripe.com' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/**
 * A legal page's HTML carries the provider's particulars (server/config.ts) as a JSON block, which the page reads: no
 * call, no code on /login's first load. The links to the legal pages are plain links (a page load), so a legal page is
 * always served by this. `<` is escaped, so no value can close the block.
 */
export function legalParticularsBlock(legal: LegalParticulars): string {
  const json = JSON.stringify(legal).replace(/</g, '\\u003c')
  return `<script type="application/json" id="${LEGAL_PARTICULARS_ELEMENT_ID}">${json}</script>`
}

/** The back office's page (esbuild.config.mjs, BACK_OFFICE), written by every build, for its paths. */
const BACK_OFFICE_PAGE = 'operateur.html'

/** dist/pages.json: the public routes (wouter patterns of the SPA) and their page; every other route gets `signedIn`. */
interface PagesManifest {
  public: Record<string, string>
  signedIn: string
}

/** A route pattern as the SPA's router reads it: `:name` stands for one segment, a trailing slash is allowed. */
function matchesRoute(route: string, path: string): boolean {
  const wanted = route.split('/')
  const given = (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).split('/')
  return wanted.length === given.length && wanted.every((part, i) => (part.startsWith(':') ? given[i] !== '' : part === given[i]))
}

/** Source maps hold the whole source: served only from a development build (npm run dev), never otherwise. */
function developmentBuild(distDir: string): boolean {
  try {
    return JSON.parse(readFileSync(join(distDir, 'build-stamp.json'), 'utf8')).mode === 'development'
  } catch {
    return false
  }
}

export async function spaRoutes(app: FastifyInstance, distDir: string, options: { stripe?: boolean; legal?: LegalParticulars } = {}) {
  const assetsDir = join(distDir, 'assets')
  if (existsSync(assetsDir)) {
    const servesMaps = developmentBuild(distDir)
    await app.register(fastifyStatic, {
      root: assetsDir,
      prefix: '/assets/',
      allowedPath: (path) => servesMaps || !path.endsWith('.map'),
      // A production build writes each asset also as .br and .gz (esbuild.config.mjs): sent as they are, never
      // compressed again per request; a development build has none, and @fastify/compress does it.
      preCompressed: true,
      // Names carry a content hash: a changed file is a new URL.
      maxAge: '365d',
      immutable: true,
      index: false,
    })
  }

  /**
   * The page for this path, as dist/pages.json (written by a production build) says; read at each request, so that a
   * rebuild is served without a restart. No manifest (a development build): index.html everywhere.
   */
  async function pageFor(path: string): Promise<string> {
    if (isBackOfficePath(path)) return readFile(join(distDir, BACK_OFFICE_PAGE), 'utf8')
    try {
      const pages = JSON.parse(await readFile(join(distDir, 'pages.json'), 'utf8')) as PagesManifest
      const file = Object.entries(pages.public).find(([route]) => matchesRoute(route, path))?.[1] ?? pages.signedIn
      if (/^[a-z-]+\.html$/.test(file)) return await readFile(join(distDir, file), 'utf8')
    } catch {
      // a development build writes no manifest
    }
    return readFile(join(distDir, 'index.html'), 'utf8')
  }

  async function sendIndex(reply: FastifyReply, path: string) {
    let html: string
    try {
      html = await pageFor(path)
    } catch {
      return reply
        .status(503)
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .send(
          '<!doctype html><html lang="fr"><meta charset="utf-8"><title>Espace client</title><p>L’application n’est pas encore construite : lancez <code>npm start</code> (ou <code>npm run build</code>).</p></html>',
        )
    }
    const nonce = randomBytes(16).toString('base64')
    if (options.legal && isLegalPath(path)) html = html.replace('</head>', `${legalParticularsBlock(options.legal)}</head>`)
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', contentSecurityPolicy(nonce, options))
      .send(html.replaceAll('__CSP_NONCE__', nonce))
  }

  app.setNotFoundHandler(async (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0] ?? '/'
    const clientRoute = (req.method === 'GET' || req.method === 'HEAD') && (req.headers.accept ?? '').includes('text/html')
    if (clientRoute && !apiPath.test(path) && !path.startsWith('/assets/')) return sendIndex(reply, path)
    return reply.status(404).send({ message: messages.unknownRoute, statusCode: 404, code: 'NOT_FOUND' })
  })
}
