// The shell's bare pages (spec §2: outside the dashboard layout, no sign-in needed).
import { lazy } from 'react'

// The login form is part of the first load: /login paints without waiting for one more chunk.
export { default as LoginPage } from './LoginPage.tsx'
export const ResetPasswordPage = lazy(() => import('./ResetPasswordPage.tsx'))
export const SetPasswordPage = lazy(() => import('./SetPasswordPage.tsx'))
export const MissingDocumentPage = lazy(() => import('../company/MissingDocumentPage.tsx'))
// people: the invitation e-mail's link (open without signing in, like set-password)
export const InvitationPage = lazy(() => import('../people/InvitationPage.tsx'))
// « Ce n’était pas vous ? »: the link of an address change's notice (open without signing in)
export const EmailRevertPage = lazy(() => import('../people/EmailRevertPage.tsx'))
