// Every call of src/api, as the areas' flows receive it: the first signed-in screen's (api.ts) and the other areas'
// (company, people, notifications, the local test provider), a chunk of their own that comes with the first of
// those areas' flows.
import * as company from '../api/company.ts'
import * as notifications from '../api/notifications.ts'
import * as people from '../api/people.ts'
import * as testProvider from '../api/test-provider.ts'
import { type Api, api } from './api.ts'

export const allApi: Api = { ...api, ...company, ...testProvider, ...people, ...notifications }
