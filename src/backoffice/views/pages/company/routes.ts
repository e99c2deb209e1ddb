// The company area of the back office: Justificatifs and Formalités juridiques, for the Conformité role (and
// administrators), as the server's routes (server/contract/company-backoffice.ts).
import { lazy } from 'react'
import type { OperatorRole } from '../../../../../server/contract/route-def.ts'
import type { BackOfficeArea } from '../page.ts'
import { FORMALITIES_PATH, JUSTIFICATIFS_PATH } from './paths.ts'

const COMPLIANCE: readonly OperatorRole[] = ['admin', 'conformite']

export const company: BackOfficeArea = {
  pages: [
    {
      path: JUSTIFICATIFS_PATH,
      title: 'Justificatifs',
      roles: COMPLIANCE,
      menu: { label: 'Justificatifs', position: 6 },
      Page: lazy(() => import('./JustificatifsPage.tsx')),
    },
    {
      path: FORMALITIES_PATH,
      title: 'Formalités juridiques',
      roles: COMPLIANCE,
      menu: { label: 'Formalités juridiques', position: 8 },
      Page: lazy(() => import('./FormalitiesPage.tsx')),
    },
  ],
}
