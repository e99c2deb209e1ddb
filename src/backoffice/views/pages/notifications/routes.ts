// The notifications area of the back office: Messages, the customers' conversations, for the Conformité role (and
// administrators), as the server's routes (server/contract/notifications-backoffice.ts).
import { lazy } from 'react'
import type { OperatorRole } from '../../../../../server/contract/route-def.ts'
import type { BackOfficeArea } from '../page.ts'
import { MESSAGES_PATH } from './paths.ts'

const COMPLIANCE: readonly OperatorRole[] = ['admin', 'conformite']

export const notifications: BackOfficeArea = {
  pages: [
    {
      path: MESSAGES_PATH,
      title: 'Messages',
      roles: COMPLIANCE,
      menu: { label: 'Messages', position: 7 },
      // One conversation: /operateur/messages/:id.
      nested: true,
      Page: lazy(() => import('./MessagesPage.tsx')),
    },
  ],
}
