// The legal pages (public, bare layout, no sign-in), each its own chunk: nothing of them is in /login's first load.
import { lazy } from 'react'

export const LegalNoticePage = lazy(() => import('./LegalNoticePage.tsx'))
export const PrivacyPage = lazy(() => import('./PrivacyPage.tsx'))
export const TermsPage = lazy(() => import('./TermsPage.tsx'))
export const AccessibilityPage = lazy(() => import('./AccessibilityPage.tsx'))
