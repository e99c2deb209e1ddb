// The API as the wiring receives it: the client functions of src/api in one object, so that tests
// build the same wiring with a fake one. Here the first signed-in screen's calls (the session's, the
// startup's and its portal data's, the dashboard's flows'); the other areas' join them in api-all.ts,
// loaded with the first of those areas' flows, after that screen.
import * as billing from '../api/billing.ts'
import { configureApi } from '../api/client.ts'
import * as company from '../api/company.ts'
import * as mail from '../api/mail.ts'
import * as notifications from '../api/notifications.ts'
import type * as people from '../api/people.ts'
import * as session from '../api/session.ts'
import { API_BASE_URL } from './config.ts'

export const api = { ...session, ...mail, ...billing, ...company, ...notifications, configureApi }

/** The first signed-in screen's calls: what the session, the startup and the dashboard's flows receive. */
export type FirstScreenApi = typeof api

/** Every call (api-all.ts): what the areas' flows receive. */
export type Api = FirstScreenApi & typeof people

configureApi({ baseURL: API_BASE_URL })
