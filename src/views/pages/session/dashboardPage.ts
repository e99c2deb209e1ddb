// The dashboard's page, preloadable: the page signing in lands on, fetched while the login form is
// shown (src/views/signedIn.ts) so that it renders without suspending.
import { preloadable } from '../../components/preloadable.ts'

export const DashboardPage = preloadable(() => import('./Dashboard.tsx'))
