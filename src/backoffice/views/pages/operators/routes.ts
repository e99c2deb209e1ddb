// The operators area: Administration (operators, API keys, the journal), for administrators; « Mes clés d’accès », for
// every operator. Its pages without the
// shell (sign-in, enrolment) are routed by App.tsx.
import { lazy } from 'react'
import type { BackOfficeArea } from '../page.ts'
import { ADMINISTRATION_PATH, MY_PASSKEYS_PATH } from './paths.ts'

export const operators: BackOfficeArea = {
  pages: [
    {
      path: ADMINISTRATION_PATH,
      title: 'Administration',
      roles: ['admin'],
      menu: { label: 'Administration', position: 10 },
      nested: true,
      Page: lazy(() => import('./AdministrationPage.tsx')),
    },
    {
      path: MY_PASSKEYS_PATH,
      title: 'Mes clés d’accès',
      menu: { label: 'Mes clés d’accès', position: 11 },
      Page: lazy(() => import('./MyPasskeysPage.tsx')),
    },
  ],
}
