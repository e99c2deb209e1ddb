// The signed-in portal's startup machine with its real effects: loaded by the session once the
// user is signed in (see services.ts), so that none of it weighs on the first load of /login.
import { fromPromise } from 'xstate'
import { getCurrentUser } from './api/account.ts'
import { getContracts } from './api/contracts.ts'
import { getMyOrders } from './api/orders.ts'
import { loadResource } from './effects.ts'
import { portalDataMachine } from './machines/portalData.machine.ts'
import { startupMachine } from './machines/startup.machine.ts'
import { writeStoredChoice } from './storage.ts'

export function createStartup({ navigate }: { navigate: (to: string) => void }) {
  return startupMachine.provide({
    actors: {
      fetchUser: fromPromise(({ signal }) => getCurrentUser({ signal })),
      fetchContracts: fromPromise(({ signal }) => getContracts({ signal })),
      fetchOrders: fromPromise(({ signal }) => getMyOrders({ signal })),
      portalData: portalDataMachine.provide({
        actors: { load: fromPromise(({ input, signal }) => loadResource(input, signal)) },
      }),
    },
    actions: {
      persistChoice: (_, { choice }) => writeStoredChoice(choice),
      navigate: (_, { to }) => navigate(to),
    },
  })
}
