// Every flow the screens start themselves, with its effects provided once, area by area. Loaded
// lazily by the first screen that needs one, so that none of this weighs on the first load of /login.
import { createBillingFlows } from './billing.ts'
import { createCompanyFlows } from './company.ts'
import type { WiringDeps } from './deps.ts'
import { built } from './later.ts'
import { createMailFlows } from './mail.ts'
// notifications (issue 14)
import { createNotificationFlows } from './notifications.ts'
import { createPeopleFlows } from './people.ts'
import { createShellFlows } from './shell.ts'

export function createFlows(deps: WiringDeps) {
  // Each machine is built the first time a screen asks for it (later.ts).
  return built({ ...createShellFlows(deps), ...createMailFlows(deps), ...createBillingFlows(deps), ...createPeopleFlows(deps), ...createCompanyFlows(deps),
    // notifications (issue 14)
    ...createNotificationFlows(deps) })
}

/** Machines with their effects provided; views start them with useActorRef. */
export type Flows = ReturnType<typeof createFlows>
