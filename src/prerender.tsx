// Build time only (esbuild.config.mjs bundles this for Node and runs it): /login as the app first
// draws it for a signed-out visitor, as HTML with goober's CSS, so that the page paints as soon as
// its HTML arrives instead of after its JavaScript (Lighthouse, LCP). The app then takes
// over with createRoot, which replaces this markup with the same markup, live, keeping what was typed
// meanwhile and where the focus was (takeover.ts). Until then its buttons are disabled, so that the
// browser's own form submission (Enter in a field) sends nothing. It also hands the build the public
// routes (App.tsx), which the server answers without announcing the signed-in code.
import { extractCss } from 'goober'
import { renderToString } from 'react-dom/server.browser'
import type { AppServices } from './views/app-context.tsx'
import './views/goober.ts'
import { App } from './views/App.tsx'
import { publicPaths } from './wiring/bare-pages.ts'

/** The routes open to a signed-out visitor, as wouter patterns: the build serves them without the signed-in code. */
export const publicRoutes: string[] = Object.values(publicPaths)

const never = () => new Promise<never>(() => {})

export function prerender(path: string): { html: string; css: string } {
  const services: AppServices = { navigate: () => {}, notify: () => {}, loadSession: never, loadFlows: never }
  const html = renderToString(<App services={services} ssrPath={path} />)
    // What stays for the app to draw (its lazy parts' Suspense markers, the toasts' place): nothing to paint.
    .replace(/<template\b[^>]*><\/template>|<!--.*?-->/g, '')
    .replace(/<button\b(?![^>]*\bdisabled)/g, '<button disabled=""')
  // goober.ts's global rules (written when it was evaluated) and the page's own.
  return { html, css: extractCss() }
}
