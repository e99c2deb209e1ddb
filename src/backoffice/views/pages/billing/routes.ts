// The billing area of the back office: Résiliations, the customers' termination requests, for the Conformité role (and
// administrators), as the server's routes (server/contract/billing-backoffice.ts).
import { lazy } from 'react'
import type { OperatorRole } from '../../../../../server/contract/route-def.ts'
import type { BackOfficeArea } from '../page.ts'
import { TERMINATIONS_PATH } from './paths.ts'

const COMPLIANCE: readonly OperatorRole[] = ['admin', 'conformite']

export const billing: BackOfficeArea = {
  pages: [
    {
      path: TERMINATIONS_PATH,
      title: 'Résiliations',
      roles: COMPLIANCE,
      menu: { label: 'Résiliations', position: 9 },
      Page: lazy(() => import('./TerminationsPage.tsx')),
    },
  ],
}
