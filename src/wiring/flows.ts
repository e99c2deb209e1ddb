// Every flow the screens start themselves, with its effects provided once, area by area. Each area's
// module is its own lazily loaded chunk, imported by the first screen that needs one of its flows
// (services.ts, loadFlows(area)): none of this weighs on the first load of /login, a page waits only
// for its own area's code, and each area has the 20 kB route-chunk budget to itself (npm run size
// checks that every area is still a chunk of its own). The flows the dashboard's first screen starts are a group of
// their own (first-screen.ts: firstScreen, not an area), so that a signed-in page's first paint waits for them and for none of the areas'
// others: they come with the rest of that screen's code (src/signed-in-first-screen.ts), in its chunks (services.ts).
// Type imports only besides: importing an area's module here would pull it into the entry.
import type { createBillingFlows } from './billing.ts'
import type { createCompanyFlows } from './company.ts'
import type { createFirstScreenFlows } from './first-screen.ts'
import type { Built } from './later.ts'
import type { createMailFlows } from './mail.ts'
import type { createNotificationFlows } from './notifications.ts'
import type { createPeopleFlows } from './people.ts'
import type { createSessionFlows } from './session.ts'

/** Each area's flows factory, as its module exports it. */
export interface FlowFactories {
  /** The flows the dashboard's first screen starts (its layout's and its page's), apart from their areas' others. */
  firstScreen: typeof createFirstScreenFlows
  session: typeof createSessionFlows
  mail: typeof createMailFlows
  billing: typeof createBillingFlows
  people: typeof createPeopleFlows
  company: typeof createCompanyFlows
  notifications: typeof createNotificationFlows
}

export type FlowArea = keyof FlowFactories

/** An area's machines with their effects provided (each built on first read, later.ts); views start them with useActorRef. */
export type Flows<A extends FlowArea> = Built<ReturnType<FlowFactories[A]>>

/** The flows of every area, as the test services build them at once. */
export type AllFlows = { [A in FlowArea]: Flows<A> }

/**
 * Each area's code, one dynamic import each: esbuild makes each its own chunk. The dashboard's flows come with the rest
 * of the first signed-in screen's code (src/signed-in-first-screen.ts, loaded by services.ts through main.tsx).
 */
export const flowCode: { [A in Exclude<FlowArea, 'firstScreen'>]: () => Promise<FlowFactories[A]> } = {
  session: () => import('./session.ts').then((m) => m.createSessionFlows),
  mail: () => import('./mail.ts').then((m) => m.createMailFlows),
  billing: () => import('./billing.ts').then((m) => m.createBillingFlows),
  people: () => import('./people.ts').then((m) => m.createPeopleFlows),
  company: () => import('./company.ts').then((m) => m.createCompanyFlows),
  notifications: () => import('./notifications.ts').then((m) => m.createNotificationFlows),
}

export const FLOW_AREAS: FlowArea[] = ['firstScreen', ...(Object.keys(flowCode) as FlowArea[])]
