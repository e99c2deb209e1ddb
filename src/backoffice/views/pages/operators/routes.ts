// The operators area: Clients (every operator: the search, an order's page; « Nouveau client » for administrators),
// Administration (operators, API keys, the journal), for administrators, and « Mes clés d’accès », for every operator.
// Its pages without the shell (sign-in, enrolment) are routed by App.tsx.
import { lazy } from 'react'
import type { BackOfficeArea } from '../page.ts'
import { ADMINISTRATION_PATH, CLIENTS_PATH, MY_PASSKEYS_PATH, NEW_CLIENT_PATH } from './paths.ts'

export const operators: BackOfficeArea = {
  pages: [
    {
      path: CLIENTS_PATH,
      title: 'Clients',
      menu: { label: 'Clients', position: 2 },
      // An order's page: /operateur/clients/:id, the search kept behind it.
      nested: true,
      Page: lazy(() => import('./ClientsPage.tsx')),
    },
    {
      path: NEW_CLIENT_PATH,
      title: 'Nouveau client',
      roles: ['admin'],
      Page: lazy(() => import('./NewClientPage.tsx')),
    },
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
