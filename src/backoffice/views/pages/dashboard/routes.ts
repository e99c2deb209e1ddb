// The dashboard: every operator's first page.
import { lazy } from 'react'
import { BACK_OFFICE_PATH } from '../../../../../server/contract/rules/backoffice.ts'
import type { BackOfficeArea } from '../page.ts'

export const dashboard: BackOfficeArea = {
  pages: [
    {
      path: BACK_OFFICE_PATH,
      title: 'Tableau de bord',
      menu: { label: 'Tableau de bord', position: 1 },
      Page: lazy(() => import('./DashboardPage.tsx')),
    },
  ],
}
