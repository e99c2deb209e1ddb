// The session actor with its real effects. Loaded right behind the first screen (see services.ts):
// with it come xstate and the HTTP client, which the first paint of /login does not need.
import { createActor, fromPromise } from 'xstate'
import { login } from './api/account.ts'
import { configureApi } from './api/client.ts'
import { sessionMachine } from './machines/session.machine.ts'
import { readStoredChoice, readStoredUser, removeStoredSession, USER_KEY, writeStoredUser } from './storage.ts'
import type { AppServices, SessionRef } from './views/app-context.tsx'

/** In a development build, ?inspect in the address shows every actor in the Stately inspector. */
async function inspector() {
  // The whole branch goes away in a production build, the inspector's chunk with it.
  if (process.env.NODE_ENV !== 'production' && new URLSearchParams(window.location.search).has('inspect')) {
    const { createBrowserInspector } = await import('@statelyai/inspect')
    return createBrowserInspector().inspect
  }
  return undefined
}

export async function createSession({ navigate, notify }: Pick<AppServices, 'navigate' | 'notify'>): Promise<SessionRef> {
  const inspect = await inspector()
  const session = createActor(
    sessionMachine.provide({
      actors: {
        login: fromPromise(({ input, signal }) => login(input, { signal })),
        loadPortal: fromPromise(async () => (await import('./portal.ts')).createStartup({ navigate })),
      },
      actions: {
        persistUser: (_, { user }) => writeStoredUser(user),
        removeUser: () => removeStoredSession(),
      },
    }),
    { input: { storedUser: readStoredUser(), storedChoice: readStoredChoice() }, inspect },
  )

  configureApi({
    getToken: () => session.getSnapshot().context.user?.apiToken ?? null,
    onUnauthorized: () => session.send({ type: 'session.expired' }),
    onSwallowedError: (error) => notify({ kind: 'error', message: error.message }),
  })

  // Signing out in another tab signs out this one too.
  window.addEventListener('storage', (event) => {
    if (event.key === USER_KEY && event.newValue === null) session.send({ type: 'session.expired' })
  })

  session.start()
  return session
}
