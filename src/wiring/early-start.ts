// With a stored user, the startup's first calls leave now, while the signed-in code loads
// (src/api/early.ts). A production build inlines this module in the signed-in page's head
// (esbuild.config.mjs), so that they leave while the HTML is parsed; main.tsx imports it first too, for
// the pages without it (a development build): a second start does nothing.
import { startEarly } from '../api/early.ts'
import { earlyPage } from './bare-pages.ts'
import { API_BASE_URL } from './config.ts'
import { readStoredUser } from './storage.ts'

const user = readStoredUser()
if (user) startEarly({ baseURL: API_BASE_URL, token: user.apiToken, page: earlyPage(location.pathname) })
