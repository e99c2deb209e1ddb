// The mail area of the back office, the mail room: Numérisation, Colis and Réexpéditions, for the Courrier role (and
// administrators), as the server's routes (server/contract/mail-backoffice.ts).
import { lazy } from 'react'
import type { OperatorRole } from '../../../../../server/contract/route-def.ts'
import type { BackOfficeArea } from '../page.ts'
import { FORWARDING_PATH, PACKAGES_PATH, SCANS_PATH } from './paths.ts'

const MAIL_ROOM: readonly OperatorRole[] = ['admin', 'courrier']

export const mail: BackOfficeArea = {
  pages: [
    {
      path: SCANS_PATH,
      title: 'Numérisation',
      roles: MAIL_ROOM,
      menu: { label: 'Numérisation', position: 3 },
      Page: lazy(() => import('./ScansPage.tsx')),
    },
    {
      path: PACKAGES_PATH,
      title: 'Colis',
      roles: MAIL_ROOM,
      menu: { label: 'Colis', position: 4 },
      Page: lazy(() => import('./PackagesPage.tsx')),
    },
    {
      path: FORWARDING_PATH,
      title: 'Réexpéditions',
      roles: MAIL_ROOM,
      menu: { label: 'Réexpéditions', position: 5 },
      Page: lazy(() => import('./ForwardingPage.tsx')),
    },
  ],
}
