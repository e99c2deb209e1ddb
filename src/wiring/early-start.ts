// Imported first by main.tsx, so that it runs before React and the app are evaluated: with a stored
// user, the startup's first calls leave now, while the signed-in code loads (src/api/early.ts).
import { startEarly } from '../api/early.ts'
import { API_BASE_URL } from './config.ts'
import { readStoredUser } from './storage.ts'

const user = readStoredUser()
if (user) startEarly({ baseURL: API_BASE_URL, token: user.apiToken, path: location.pathname })
