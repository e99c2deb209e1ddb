// The signed-in portal's startup machine with its real effects: loaded by the session once the
// user is signed in (see services.ts), so that none of it weighs on the first load of /login.
import { fromPromise } from 'xstate'
import { portalDataMachine } from '../machines/portalData.machine.ts'
import { startupMachine } from '../machines/startup.machine.ts'
import type { WiringDeps } from './deps.ts'
import { createLoaders } from './portal-data.ts'
import { writeStoredChoice } from './storage.ts'

export function createStartup({ api, navigate }: Pick<WiringDeps, 'api' | 'navigate'>) {
  const load = createLoaders(api)
  return startupMachine.provide({
    actors: {
      fetchUser: fromPromise(({ signal }) => api.getCurrentUser({ signal })),
      fetchContracts: fromPromise(({ signal }) => api.getContracts({ signal })),
      fetchOrders: fromPromise(({ signal }) => api.getMyOrders({ signal })),
      portalData: portalDataMachine.provide({
        actors: { load: fromPromise(({ input, signal }) => load(input, signal)) },
      }),
    },
    actions: {
      persistChoice: (_, { userId, choice }) => writeStoredChoice(userId, choice),
      navigate: (_, { to }) => navigate(to),
    },
  })
}
