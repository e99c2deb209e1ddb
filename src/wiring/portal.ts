// The signed-in portal's startup machine with its real effects: loaded by the session once the
// user is signed in (see services.ts), so that none of it weighs on the first load of /login.
import { fromPromise } from 'xstate'
import { ApiError } from '../api/errors.ts'
import { portalDataMachine } from '../machines/session/portalData.machine.ts'
import { startupMachine } from '../machines/session/startup.machine.ts'
import type { FirstScreenApi } from './api.ts'
import type { WiringDeps } from './deps.ts'
import { createLoaders } from './portal-data.ts'
import { pause } from './pause.ts'
import { writeStoredChoice } from './storage.ts'

/**
 * The startup's calls (spec §4) while the service is away for a moment: a server restarting, an instance leaving the
 * balancer or the database restarting answer nothing (0) or 502–504 for about a second (docs/OPERATIONS.md). Such an answer
 * is asked again after these waits before it counts as a failure: a failed current-user fetch signs the user out
 * (spec §8), a failed contracts or orders fetch shows « Votre espace n’a pas pu être chargé ». Any other answer (a 401
 * above all) counts at once.
 */
export const STARTUP_RETRY_MS = [500, 1500] as const

// Narrower than isServiceFailure (machines/shared.ts): a 429 or a 500 would not go through a second later.
const UNAVAILABLE = new Set([0, 502, 503, 504])

/** `call` again after each of `delays` while it answers « unavailable »; stops (and waits for ever) once `signal` aborts. */
export async function askAgainWhileUnavailable<T>(
  call: () => Promise<T>,
  signal: AbortSignal,
  delays: readonly number[] = STARTUP_RETRY_MS,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call()
    } catch (error) {
      if (attempt >= delays.length || signal.aborted || !(error instanceof ApiError && UNAVAILABLE.has(error.status))) throw error
      await pause(delays[attempt]!, signal)
    }
  }
}

export function createStartup({ api, navigate }: Pick<WiringDeps<FirstScreenApi>, 'api' | 'navigate'>) {
  const load = createLoaders(api)
  return startupMachine.provide({
    actors: {
      fetchUser: fromPromise(({ signal }) => askAgainWhileUnavailable(() => api.getCurrentUser({ signal }), signal)),
      // Their failure shows « Votre espace n’a pas pu être chargé » and « Réessayer »: a moment's absence is asked again likewise.
      fetchContracts: fromPromise(({ signal }) => askAgainWhileUnavailable(() => api.getContracts({ signal }), signal)),
      fetchOrders: fromPromise(({ signal }) => askAgainWhileUnavailable(() => api.getMyOrders({ signal }), signal)),
      portalData: portalDataMachine.provide({
        actors: { load: fromPromise(({ input, signal }) => load(input, signal)) },
      }),
    },
    actions: {
      persistChoice: (_, { userId, choice }) => writeStoredChoice(userId, choice),
      navigate: (_, { to, replace }) => (replace ? navigate(to, { replace }) : navigate(to)),
    },
  })
}
