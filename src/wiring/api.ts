// The API as the wiring receives it: every client function of src/api in one object, so that tests
// build the same wiring with a fake one.
import * as account from '../api/account.ts'
import { configureApi } from '../api/client.ts'
import * as company from '../api/company.ts'
import * as contracts from '../api/contracts.ts'
import * as invoices from '../api/invoices.ts'
import * as mail from '../api/mail.ts'
// notifications (issue 14)
import * as notifications from '../api/notifications.ts'
import * as orders from '../api/orders.ts'
import * as people from '../api/people.ts'
import * as subscription from '../api/subscription.ts'
import * as testProvider from '../api/test-provider.ts'
import { API_BASE_URL } from './config.ts'

export const api = { ...account, ...company, ...contracts, ...invoices, ...mail, ...orders, ...subscription, ...testProvider, ...people, ...notifications, configureApi }

export type Api = typeof api

configureApi({ baseURL: API_BASE_URL })
