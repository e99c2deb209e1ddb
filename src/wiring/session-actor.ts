// The session actor with its real effects. Loaded right behind the first screen (see services.ts):
// with it come xstate and the HTTP client, which the first paint of /login does not need.
import { createActor, fromPromise, type InspectionEvent, type Observer } from 'xstate'
import { type SessionRef, sessionMachine } from '../machines/session/session.machine.ts'
import type { StartupLogic } from '../machines/session/startup.machine.ts'
import { isPortalPath } from '../../server/contract/rules/links.ts'
import { type EarlyPage, startEarly as sendEarly } from '../api/early.ts'
import { DASHBOARD_ROUTES, earlyPage, isBarePath, PARENT_PAGES } from './bare-pages.ts'
import { API_BASE_URL } from './config.ts'
import type { FirstScreenApi } from './api.ts'
import type { WiringDeps } from './deps.ts'
import {
  adoptUnkeyedChoice,
  onSignedInElsewhere,
  onSignedOutElsewhere,
  readStoredChoice,
  readStoredUser,
  removeStoredSession,
  writeStoredUser,
} from './storage.ts'

/** In a development build, ?inspect in the address shows every actor in the Stately inspector. */
async function inspector() {
  // The whole branch goes away in a production build, the inspector's chunk with it.
  if (process.env.NODE_ENV !== 'production' && new URLSearchParams(window.location.search).has('inspect')) {
    const { createBrowserInspector } = await import('@statelyai/inspect')
    return createBrowserInspector().inspect
  }
  return undefined
}

type InspectionObserver = Observer<InspectionEvent> | ((event: InspectionEvent) => void)

export interface SessionDeps extends Pick<WiringDeps<FirstScreenApi>, 'api' | 'notify'> {
  /** The signed-in portal's startup machine, loaded once the user is signed in. */
  loadPortal: () => Promise<StartupLogic>
  /** The page shown now (the browser's address; a test's memory location). */
  currentPath?: () => string
  /** The address this tab opened on (an e-mail's link, before the guard sent a signed-out visitor to /login); else the page shown now. */
  openedOn?: string
  /** Sends the startup's first calls for a token just given by a sign-in (src/api/early.ts); none if not given (tests). */
  startEarly?: (token: string, page: EarlyPage) => void
}

const browserPath = () => window.location.pathname + window.location.search

/**
 * A page to go to once signed in (again): a path of this portal, never another origin, the API nor the back office
 * (rules/links.ts), nor a bare page (/login…); the dashboard, where a sign-in leads anyway, is not kept either. A
 * parent gives the first child it redirects to (App.tsx), which the portal shows by the time its startup lands there.
 */
export function returnPath(path: string): string | undefined {
  if (!isPortalPath(path)) return undefined
  const asked = path.split(/[?#]/, 1)[0]!
  const child = Object.hasOwn(PARENT_PAGES, asked) ? PARENT_PAGES[asked] : undefined
  const route = child ?? asked
  return isBarePath(route) || (DASHBOARD_ROUTES as readonly string[]).includes(route) ? undefined : (child ?? path)
}

/** This tab's page to go to once signed in, kept in sessionStorage: a reload of /login, signed out, keeps an e-mail link's. */
export const DESTINATION_KEY = 'portail.destination'

function readKeptDestination(): string | null {
  try {
    const kept = sessionStorage.getItem(DESTINATION_KEY)
    return (kept && returnPath(kept)) ?? null
  } catch {
    return null
  }
}

function keepDestination(path: string | null) {
  try {
    if (path) sessionStorage.setItem(DESTINATION_KEY, path)
    else sessionStorage.removeItem(DESTINATION_KEY)
  } catch {
    // Storage refused (a private window's quota): the destination lives in memory only, as before.
  }
}

export async function createSession(deps: SessionDeps): Promise<SessionRef> {
  const early = (token: string, page: EarlyPage) => sendEarly({ baseURL: API_BASE_URL, token, page, signedIn: true })
  return createSessionActor({ startEarly: early, ...deps }, await inspector())
}

/** The session actor, started, with the API hooked to it. */
export function createSessionActor(
  { api, notify, loadPortal, currentPath = browserPath, openedOn = currentPath(), startEarly }: SessionDeps,
  inspect?: InspectionObserver,
): SessionRef {
  adoptUnkeyedChoice()
  const storedUser = readStoredUser()
  const session = createActor(
    sessionMachine.provide({
      actors: {
        login: fromPromise(({ input, signal }) => api.login(input, { signal })),
        // The kept default order is read as the portal starts (not when this tab opened): another tab may have chosen since.
        // So is the page to show: the one the portal opens on (a sign-in passes the one it keeps itself).
        loadPortal: fromPromise(async ({ input }) => ({
          startup: await loadPortal(),
          storedChoice: readStoredChoice(input.userId),
          destination: returnPath(currentPath()) ?? null,
        })),
      },
      actions: {
        persistUser: (_, { user }) => writeStoredUser(user),
        removeUser: (_, { apiToken }) => removeStoredSession(apiToken),
        // Nothing waits for it nor reports it: the sign-out is done here whatever the server answers.
        endSession: (_, { apiToken }) => void api.signOut({ apiToken }).catch(() => {}),
        // As the page's head does for a stored user: the calls leave now, not once the startup is built and spawned.
        startEarly: (_, { apiToken, landing }) => startEarly?.(apiToken, landing ? earlyPage(landing) : 'dashboard'),
      },
    }),
    // Signed out, the address opened (an e-mail's link) is where the next sign-in leads; opened on /login (a reload),
    // the one this tab kept.
    { input: { storedUser, destination: storedUser ? null : (returnPath(openedOn) ?? readKeptDestination()) }, inspect },
  )

  api.configureApi({
    getToken: () => session.getSnapshot().context.user?.apiToken ?? null,
    onUnauthorized: () => session.send({ type: 'session.expired', path: returnPath(currentPath()) }),
    onSwallowedError: (error) => notify({ kind: 'error', message: error.message }),
  })
  const unfollow = [
    // Signed out in another tab: as a logout here (that tab said why, if its session expired).
    onSignedOutElsewhere(() => session.send({ type: 'session.logout', elsewhere: true })),
    // Signed in in another tab while this one is signed out: its guard lets the portal through, so the session follows.
    onSignedInElsewhere((user) => session.getSnapshot().matches('signedOut') && session.send({ type: 'session.signedIn', user })),
  ]
  // A stopped session (a test's page closed) follows the other tabs no more.
  session.subscribe({ complete: () => unfollow.forEach((stop) => stop()) })
  // The destination kept for this tab as the session holds it: written while signed out, gone once a sign-in used it
  // or a sign-out forgot it.
  let kept: string | null | undefined
  session.subscribe((snapshot) => {
    const destination = snapshot.context.destination
    if (destination !== kept) keepDestination((kept = destination))
  })

  session.start()
  return session
}
