// The back office's journeys in Chromium: the demo operators, a code of their authenticator as their phone would
// compute it, signing in, the back office's menu, and axe-core on each screen.
import type { Page } from 'playwright-core'
import { TOTP_PERIOD_SECONDS, totpCode, totpStep } from '../../server/lib/totp.ts'
import { DEMO_PASSWORD } from './e2e.ts'

/** The mail room's screens also work on a tablet (PRODUCT.md). */
export const TABLET = { width: 768, height: 1024 }
/** The demo operators and their TOTP secrets (README). */
export const OPERATORS = {
  'operateur@example.com': 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  'courrier@example.com': 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU',
} as const
export type OperatorEmail = keyof typeof OPERATORS

/** The last time step whose code each operator used: the server takes a step's code once (a replay is refused). */
const lastStep = new Map<OperatorEmail, number>()
/** A code the server takes now: the current step's, or the next one's (its window), or, both used, after waiting. */
export async function freshCode(email: OperatorEmail): Promise<string> {
  for (;;) {
    const now = Date.now()
    const step = Math.max(totpStep(new Date(now)), (lastStep.get(email) ?? 0) + 1)
    if (step <= totpStep(new Date(now)) + 1) {
      lastStep.set(email, step)
      return totpCode(OPERATORS[email], new Date(step * TOTP_PERIOD_SECONDS * 1000))
    }
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}

/** axe-core on each screen: test/util/e2e.ts's, shared with the portal's journeys. */
export { axeChecker } from './e2e.ts'

/** Signs in at /operateur/connexion with the demo password and a fresh code, until the dashboard shows. */
export async function signInOperator(page: Page, email: OperatorEmail, check?: (screen: string) => Promise<void>) {
  await page.goto('/operateur')
  await page.waitForURL((url) => url.pathname === '/operateur/connexion')
  await page.getByRole('heading', { name: 'Connexion au back-office', level: 1 }).waitFor()
  await check?.('/operateur/connexion')
  await page.getByLabel('Adresse e-mail', { exact: true }).fill(email)
  await page.getByLabel('Mot de passe', { exact: true }).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Continuer', exact: true }).click()
  await page.getByLabel('Code à 6 chiffres', { exact: true }).waitFor()
  await check?.('/operateur/connexion, le code')
  await page.getByLabel('Code à 6 chiffres', { exact: true }).fill(await freshCode(email))
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click()
  await page.getByRole('heading', { name: 'Tableau de bord', level: 1 }).waitFor()
}

/** The back office's side menu. */
export const menu = (page: Page) => page.getByRole('navigation', { name: 'Menu du back-office' })
