// The session (spec §4): login keeps the returned user object (with its apiToken) in the browser;
// logout (which also ends the session on the server), or a failed current-user fetch, removes it silently; a call refused later (401: the
// session
// expired during work) removes it too, and /login says so. While signed in, the session loads
// the portal's code (kept out of the first load of /login) with the default order the browser keeps
// for that user (by user id: it outlives a sign-out, and is never another person's), and runs the
// startup machine as its child `startup`, so that signing out stops everything it started. An e-mail's link opened
// signed out (`destination`) is where the next sign-in leads, whoever signs in (the startup checks it is theirs to
// see); a sign-out forgets it.
import { type ActorRefFrom, assign, enqueueActions, fromPromise, setup, stopChild } from 'xstate'
import type { AuthUser, LoginBody } from '../../../server/contract/session.ts'
import { messageOf } from '../shared.ts'
import type { StartupLogic, StartupRef, StoredChoice } from './startup.machine.ts'
import { deferred } from '../deferred.ts'

export interface SessionContext {
  user: AuthUser | null
  /** The order to start on instead of the kept default one: an order just shared with the user (an invitation). */
  openOrder: number | null
  /** The running startup machine, once its code has loaded. */
  startup: StartupRef | null
  error: string | null
  /**
   * Where signing in leads, instead of the dashboard: the page shown when the session expired during work (signing in
   * again as the same person goes back there), or the destination below.
   */
  returnTo: string | null
  /** The portal page a signed-out visitor opened (an e-mail's link), until a sign-in takes it or a sign-out forgets it. */
  destination: string | null
  /** Who was signed in last (kept past the sign-out): another person signing in is not sent to their page. */
  lastUserId: number | null
}

export type SessionEvent =
  | { type: 'session.login'; username: string; password: string }
  // « Se déconnecter » here, or (`elsewhere`) the stored user removed by another tab, which ended the session itself.
  | { type: 'session.logout'; elsewhere?: boolean }
  // An authenticated call answered 401; `path`: the page shown then, if it is one to come back to.
  | { type: 'session.expired'; path?: string }
  | { type: 'session.retry' }
  // Signed in another way than the password form (a passkey, an invitation's new account), or the
  // portal to start again showing an order that was just shared with the user.
  | { type: 'session.signedIn'; user: AuthUser; orderId?: number }
  // The startup child only ends when the current-user fetch failed.
  | { type: 'xstate.done.actor.startup'; output: unknown }

export const PORTAL_UNAVAILABLE = 'Votre espace n’a pas pu être chargé. Vérifiez votre connexion internet puis réessayez.'
/** The client's words for a 401 (src/api/errors.ts), shown on /login once the session expired during work. */
export const SESSION_EXPIRED = 'Votre session a expiré. Veuillez vous reconnecter.'

/** What the portal starts from: its code, and the default order the browser keeps for the user signed in. */
export interface PortalStart {
  startup: StartupLogic
  storedChoice: StoredChoice | null
  /** The portal page shown as the portal starts, if it is one to land on (not the dashboard, not a bare page). */
  destination: string | null
}

/**
 * The page to go to when `user` signs in: theirs, kept when their session expired during work; else the e-mail's link
 * opened signed out.
 */
const returnFor = (context: SessionContext, user: AuthUser) =>
  (context.lastUserId === user.id ? context.returnTo : null) ?? context.destination

/** The page a sign-in leads to, as the startup is told (below): none with an order just shared, the dashboard then. */
const landingOf = (context: SessionContext) => (context.openOrder === null ? context.returnTo : null)

/** Each sign-in's action, after its user is assigned: the startup's first calls leave with its token (provided below). */
const startEarly = {
  type: 'startEarly',
  params: ({ context }: { context: SessionContext }) => ({ apiToken: context.user!.apiToken, landing: landingOf(context) }),
} as const

export const sessionMachine = deferred(() =>
  setup({
    types: {
      context: {} as SessionContext,
      input: {} as { storedUser: AuthUser | null; destination?: string | null },
      events: {} as SessionEvent,
    },
    actors: {
      login: fromPromise<AuthUser, LoginBody>(async () => {
        throw new Error('session: login is not provided')
      }),
      /** Loads the startup machine's code, with its effects provided, and reads the default order kept for `userId`. */
      loadPortal: fromPromise<PortalStart, { userId: number }>(async () => {
        throw new Error('session: loadPortal is not provided')
      }),
    },
    actions: {
      /** Writes the user object under the storage key (provided by the composition root). */
      persistUser: (_, _params: { user: AuthUser }) => {},
      /** Removes the stored user (not their default order), if the entry is still this sign-in's (provided by the composition root). */
      removeUser: (_, _params: { apiToken: string | null }) => {},
      /** Ends the session on the server too (DELETE users/me/sessions/current), without waiting nor reporting (provided). */
      endSession: (_, _params: { apiToken: string }) => {},
      /**
       * Sends the startup's first calls for this sign-in's token at once (src/api/early.ts, provided): they travel while
       * the startup is built and spawned, which takes them. `landing`: the page the sign-in leads to (null: the dashboard).
       */
      startEarly: (_, _params: { apiToken: string; landing: string | null }) => {},
    },
    guards: {
      hasUser: ({ context }) => context.user !== null,
      /** The startup is at its first step: a 401 now is the current-user fetch failing, removed silently (spec §8). */
      fetchingCurrentUser: ({ context }) => context.startup?.getSnapshot().matches('account') ?? false,
    },
  }).createMachine({
    id: 'session',
    context: ({ input }) => ({
      user: input.storedUser,
      openOrder: null,
      startup: null,
      error: null,
      returnTo: null,
      destination: input.destination ?? null,
      lastUserId: null,
    }),
    initial: 'restoring',
    states: {
      restoring: {
        always: [{ guard: 'hasUser', target: 'signedIn' }, { target: 'signedOut' }],
      },
      signedOut: {
        on: {
          'session.login': { target: 'signingIn', actions: assign({ error: null }) },
          // The user signed in another way (a passkey, an invitation), kept like a login's.
          'session.signedIn': {
            target: 'signedIn',
            actions: [
              assign({
                user: ({ event }) => event.user,
                openOrder: ({ event }) => event.orderId ?? null,
                error: null,
                returnTo: ({ context, event }) => returnFor(context, event.user),
                destination: null,
              }),
              { type: 'persistUser', params: ({ event }) => ({ user: event.user }) },
              startEarly,
            ],
          },
        },
      },
      signingIn: {
        tags: ['loading'],
        invoke: {
          id: 'login',
          src: 'login',
          input: ({ event }) =>
            event.type === 'session.login' ? { username: event.username, password: event.password } : { username: '', password: '' },
          onDone: {
            target: 'signedIn',
            actions: [
              assign({
                user: ({ event }) => event.output,
                openOrder: null,
                returnTo: ({ context, event }) => returnFor(context, event.output),
                destination: null,
              }),
              { type: 'persistUser', params: ({ event }) => ({ user: event.output }) },
              startEarly,
            ],
          },
          onError: { target: 'signedOut', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      signedIn: {
        // Every way out of here is a sign-out: the stored user goes, and what was started stops.
        exit: [
          // A sign-out chosen here ends the session on the server as well: its token, kept anywhere, is refused from now
          // on. Not when another tab signed out (it ended it), nor when the session had expired (the server ended it).
          enqueueActions(({ context, event, enqueue }) => {
            if (event.type === 'session.logout' && !event.elsewhere && context.user)
              enqueue({ type: 'endSession', params: { apiToken: context.user.apiToken } })
          }),
          { type: 'removeUser', params: ({ context }) => ({ apiToken: context.user?.apiToken ?? null }) },
          stopChild('startup'),
          assign({
            user: null,
            openOrder: null,
            startup: null,
            error: null,
            returnTo: null,
            destination: null,
            lastUserId: ({ context }) => context.user?.id ?? null,
          }),
        ],
        initial: 'loadingPortal',
        states: {
          loadingPortal: {
            tags: ['loading'],
            invoke: {
              id: 'loadPortal',
              src: 'loadPortal',
              input: ({ context }) => ({ userId: context.user!.id }),
              onDone: {
                target: 'portal',
                actions: assign({
                  // An order just shared comes first; otherwise the user's kept default order (the startup checks it is theirs).
                  // The page to land on: the one a sign-in leads to, else the one shown; none with an order just shared.
                  startup: ({ spawn, event, context }) =>
                    spawn(event.output.startup, {
                      id: 'startup',
                      input: {
                        storedChoice: context.openOrder ?? event.output.storedChoice,
                        destination: context.openOrder === null ? (context.returnTo ?? event.output.destination) : null,
                      },
                    } as never) as StartupRef,
                }),
              },
              onError: { target: 'portalUnavailable', actions: assign({ error: PORTAL_UNAVAILABLE }) },
            },
          },
          portal: {},
          portalUnavailable: {
            on: { 'session.retry': { target: 'loadingPortal', actions: assign({ error: null }) } },
          },
        },
        on: {
          // The running portal stops and starts anew on the order given; the user stays stored all along (removed
          // for a moment, every other tab would sign out, and its own clean-up would remove the entry written back).
          'session.signedIn': {
            target: '.loadingPortal',
            actions: [
              stopChild('startup'),
              assign({
                user: ({ event }) => event.user,
                openOrder: ({ event }) => event.orderId ?? null,
                startup: null,
                error: null,
                returnTo: null,
              }),
              { type: 'persistUser', params: ({ event }) => ({ user: event.user }) },
            ],
          },
          'session.logout': { target: 'signedOut' },
          'session.expired': [
            { guard: 'fetchingCurrentUser', target: 'signedOut' },
            { target: 'signedOut', actions: assign({ error: SESSION_EXPIRED, returnTo: ({ event }) => event.path ?? null }) },
          ],
          'xstate.done.actor.startup': { target: 'signedOut' },
        },
      },
    },
  }),
)
export type SessionRef = ActorRefFrom<typeof sessionMachine>
