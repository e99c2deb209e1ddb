// The pages outside the dashboard layout (src/views/App.tsx), listed once: the public ones a signed-out
// visitor opens (the server answers them without the signed-in code: esbuild.config.mjs learns them
// through src/prerender.tsx), and /missing-document, where the startup leads a signed-in customer. No
// startup runs on any of them (src/api/early.ts, main.tsx). Free of imports: the signed-in page inlines
// it with src/wiring/early-start.ts.

/** The pages open to a signed-out visitor (spec §2), as wouter patterns. */
export const publicPaths = {
  login: '/login',
  resetPassword: '/reset-password',
  setPassword: '/set-password/:token',
  invitation: '/invitation/:token',
  verification: '/verification/:code',
  // « Ce n’était pas vous ? »: the link of an address change's notice
  emailRevert: '/retablir-adresse/:token',
  // The legal pages: their paths are server/contract/rules/legal.ts's LEGAL_PAGES (a test holds them equal: this file
  // imports nothing). The server writes the provider's particulars into their HTML (server/http/spa.ts).
  legalNotice: '/mentions-legales',
  privacy: '/politique-de-confidentialite',
  terms: '/conditions-generales',
  accessibility: '/declaration-accessibilite',
} as const

export const MISSING_DOCUMENT_PATH = '/missing-document'

/** A route pattern as the router reads it: `:name` stands for one segment, a trailing slash is allowed. */
export function matchesRoute(route: string, path: string): boolean {
  const wanted = route.split('/')
  const given = (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).split('/')
  return wanted.length === given.length && wanted.every((part, i) => (part.startsWith(':') ? given[i] !== '' : part === given[i]))
}

const barePaths: readonly string[] = [...Object.values(publicPaths), MISSING_DOCUMENT_PATH]

/** A page in the bare layout, where no startup runs. */
export const isBarePath = (path: string) => barePaths.some((route) => matchesRoute(route, path))

/**
 * Parents that redirect to their first child (spec §2, App.tsx). The startup lands on the child too
 * (session-actor.ts's returnPath): taken back to the parent after its redirect, a browser drew nothing there.
 */
export const PARENT_PAGES: Readonly<Record<string, string>> = {
  '/': '/tableau-de-bord',
  '/mes-courriers': '/mes-courriers/courriers',
  '/souscription': '/souscription/mes-abonnements',
  '/suivi-comptable': '/suivi-comptable/tresorerie',
}

/** The dashboard's routes (App.tsx sends / there): where the unpaid-invoice status leaves early too. */
export const DASHBOARD_ROUTES = ['/', '/tableau-de-bord'] as const

/** Which page a path opens (its query and fragment aside), for the startup's early calls (src/api/early.ts). */
export const earlyPage = (path: string): 'bare' | 'dashboard' | 'other' => {
  const route = path.split(/[?#]/, 1)[0]!
  return isBarePath(route) ? 'bare' : DASHBOARD_ROUTES.some((dashboard) => matchesRoute(dashboard, route)) ? 'dashboard' : 'other'
}
