// The route table of the provider API (spec §7): one entry per call, with its exact method and path.
// The server registers its handlers against it, the OpenAPI document and the access-control test
// matrix are generated from it, and the SPA's client takes its types from it (type-only import).
import { billingRoutes } from './billing.ts'
import { billingBackofficeRoutes } from './billing-backoffice.ts'
import { HealthReply, ApiErrorBody } from './common.ts'
import { companyRoutes } from './company.ts'
import { companyBackofficeRoutes } from './company-backoffice.ts'
import { mailRoutes } from './mail.ts'
import { mailBackofficeRoutes } from './mail-backoffice.ts'
import { notificationsRoutes } from './notifications.ts'
import { notificationsBackofficeRoutes } from './notifications-backoffice.ts'
import { operatorsRoutes } from './operators.ts'
import { peopleRoutes } from './people.ts'
import { peopleExportRoutes } from './people-exports.ts'
import type { RouteDef } from './route-def.ts'
import { sessionRoutes } from './session.ts'
import { storageRoutes } from './storage.ts'

export type { Access, Auth, OperatorRole, RouteDef, RouteSchema } from './route-def.ts'

/** Every call, area by area (server/contract/<area>.ts), and the operations' own. */
export const routes = {
  ...sessionRoutes,
  ...peopleRoutes,
  ...peopleExportRoutes,
  ...mailRoutes,
  ...billingRoutes,
  ...companyRoutes,
  ...notificationsRoutes,
  ...operatorsRoutes,
  ...mailBackofficeRoutes,
  ...companyBackofficeRoutes,
  ...notificationsBackofficeRoutes,
  ...billingBackofficeRoutes,
  // --- Operations
  ...storageRoutes,
  health: {
    method: 'GET',
    path: '/health',
    auth: 'none',
    tags: ['Exploitation'],
    summary: 'Liveness and database check for load balancers (503 when the database does not answer).',
    schema: { response: { 200: HealthReply, 503: ApiErrorBody } },
  },
} as const satisfies Record<string, RouteDef>

export type Routes = typeof routes
export type RouteName = keyof Routes
