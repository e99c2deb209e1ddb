// The back office's router: the sign-in and the enrolment link without the shell; every other path of /operateur
// behind the session (checked against the server as the page opens), in the shell.
import { useSelector } from '@xstate/react'
import { lazy, Suspense } from 'react'
import { type BaseLocationHook, Redirect, Route, Router, Switch } from 'wouter'
import { ENROLMENT_ROUTE, SIGN_IN_PATH } from '../../../server/contract/rules/backoffice.ts'
import { CodeLoading, ErrorState, PageSpinner } from '../../views/components/ui.tsx'
import { BackOfficeContext, type BackOfficeServices, useBackOffice } from './context.tsx'
import { Shell } from './layout/Shell.tsx'
import SignInPage from './pages/operators/SignInPage.tsx'

const EnrolmentPage = lazy(() => import('./pages/operators/EnrolmentPage.tsx'))
const Toasts = lazy(() => import('../../views/Toasts.tsx'))

function SignedIn() {
  const { session } = useBackOffice()
  const state = useSelector(session, (s) => s.value as string)
  const operator = useSelector(session, (s) => s.context.session?.operator ?? null)
  const error = useSelector(session, (s) => s.context.error)
  if (state === 'signedIn' && operator) return <Shell operator={operator} />
  if (state === 'signedOut') return <Redirect to={SIGN_IN_PATH} replace />
  if (state === 'unavailable')
    return (
      <main>
        <ErrorState message={error!} onRetry={() => session.send({ type: 'session.retry' })} />
      </main>
    )
  return (
    <main>
      <PageSpinner label={state === 'signingOut' ? 'Déconnexion…' : 'Vérification de votre session…'} />
    </main>
  )
}

export function BackOfficeApp({ services, hook }: { services: BackOfficeServices; hook?: BaseLocationHook }) {
  return (
    <BackOfficeContext.Provider value={services}>
      <Router {...(hook ? { hook } : {})}>
        <Suspense fallback={null}>
          <Toasts />
        </Suspense>
        <Suspense fallback={<CodeLoading />}>
          <Switch>
            <Route path={SIGN_IN_PATH} component={SignInPage} />
            <Route path={ENROLMENT_ROUTE}>{(params) => <EnrolmentPage token={params.token} />}</Route>
            <Route>
              <SignedIn />
            </Route>
          </Switch>
        </Suspense>
      </Router>
    </BackOfficeContext.Provider>
  )
}
