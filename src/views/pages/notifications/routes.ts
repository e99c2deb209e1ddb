// The notifications area's pages: « Mes échanges », the conversations with the provider (the bell and the e-mails of
// an answer lead to one: /mes-echanges/{id}).
import { lazy } from 'react'
import type { Area } from '../page.ts'
import { MY_CONVERSATIONS_PATH } from './paths.ts'

const MyConversationsPage = lazy(() => import('./MyConversationsPage.tsx'))

export const notifications: Area = {
  routes: [
    {
      path: MY_CONVERSATIONS_PATH,
      title: 'Mes échanges',
      icon: 'messages',
      Page: MyConversationsPage,
      menu: { label: 'Mes échanges', position: 10 },
    },
    { path: `${MY_CONVERSATIONS_PATH}/:id`, title: 'Mes échanges', icon: 'messages', Page: MyConversationsPage },
  ],
}
