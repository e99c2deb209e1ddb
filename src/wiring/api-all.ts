// Every call of src/api, as the areas' flows receive it: the first signed-in screen's (api.ts) and the people area's
// (the account, collaborators, representatives, invitations), a chunk of its own that comes with the first of the
// flows that need it.
import * as people from '../api/people.ts'
import { type Api, api } from './api.ts'

export const allApi: Api = { ...api, ...people }
