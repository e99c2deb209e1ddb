// The billing area's public page (bare layout, no sign-in): the certificate check the QR code leads to.
import { lazy } from 'react'

export const VerificationPage = lazy(() => import('./VerificationPage.tsx'))
