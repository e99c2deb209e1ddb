// The router: bare pages, the guard, the parent redirects, and the dashboard layout that holds
// every other screen. Everything below the router but the login form is loaded lazily; the
// dashboard layout is fetched ahead (signedIn.ts) and then renders without suspending.
import { lazy, type ReactNode, Suspense, useSyncExternalStore } from 'react'
import { Redirect, Route, Router, Switch } from 'wouter'
import type { BaseLocationHook } from 'wouter'
import { MISSING_DOCUMENT_PATH, PARENT_PAGES, publicPaths } from '../wiring/bare-pages.ts'
import { hasStoredUser, subscribeStoredUser } from '../wiring/storage.ts'
import { AppContext, type AppServices } from './app-context.tsx'
import { CodeLoading } from './components/ui.tsx'
import {
  EmailRevertPage,
  InvitationPage,
  LoginPage,
  MissingDocumentPage,
  ResetPasswordPage,
  SetPasswordPage,
} from './pages/session/bare.ts'
import { VerificationPage } from './pages/billing/bare.ts'
import { AccessibilityPage, LegalNoticePage, PrivacyPage, TermsPage } from './pages/legal/bare.ts'
import { usePainted } from './painted.ts'
import { DashboardLayout } from './signedIn.ts'

const Toasts = lazy(() => import('./Toasts.tsx'))

/**
 * Spec §2: every route but login, reset-password, set-password and missing-document needs a stored user (and the invitation link, people
 * area).
 */
export function Guard({ children }: { children: ReactNode }) {
  const signedIn = useSyncExternalStore(subscribeStoredUser, hasStoredUser, hasStoredUser)
  return signedIn ? children : <Redirect to="/login" replace />
}

export function AppRoutes() {
  return (
    <Suspense fallback={<CodeLoading />}>
      <Switch>
        <Route path={publicPaths.login} component={LoginPage} />
        <Route path={publicPaths.resetPassword} component={ResetPasswordPage} />
        <Route path={publicPaths.setPassword}>{(params) => <SetPasswordPage token={params.token} />}</Route>
        <Route path={MISSING_DOCUMENT_PATH} component={MissingDocumentPage} />
        <Route path={publicPaths.invitation}>{(params) => <InvitationPage token={params.token} />}</Route>
        <Route path={publicPaths.emailRevert}>{(params) => <EmailRevertPage token={params.token} />}</Route>
        {/* billing: public, where a certificate's QR code leads */}
        <Route path={publicPaths.verification}>{(params) => <VerificationPage code={params.code} />}</Route>
        {/* legal pages: public, linked from /login, the sidebar and every e-mail */}
        <Route path={publicPaths.legalNotice} component={LegalNoticePage} />
        <Route path={publicPaths.privacy} component={PrivacyPage} />
        <Route path={publicPaths.terms} component={TermsPage} />
        <Route path={publicPaths.accessibility} component={AccessibilityPage} />
        {Object.entries(PARENT_PAGES).map(([from, to]) => (
          <Route key={from} path={from}>
            <Guard>
              <Redirect to={to} replace />
            </Guard>
          </Route>
        ))}
        <Route>
          <Guard>
            <DashboardLayout />
          </Guard>
        </Route>
      </Switch>
    </Suspense>
  )
}

/** `ssrPath`: the path drawn ahead at build time (src/prerender.tsx), where there is no location. */
export function App({ services, hook, ssrPath }: { services: AppServices; hook?: BaseLocationHook; ssrPath?: string }) {
  // The toaster (its code) once the first screen has painted: a toast asked before waits in its store until then.
  const toasts = usePainted('any')
  return (
    <AppContext.Provider value={services}>
      <Router {...(hook ? { hook } : {})} {...(ssrPath ? { ssrPath } : {})}>
        {toasts && (
          <Suspense fallback={null}>
            <Toasts />
          </Suspense>
        )}
        <AppRoutes />
      </Router>
    </AppContext.Provider>
  )
}
