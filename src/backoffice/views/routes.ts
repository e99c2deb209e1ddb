// The back office's pages and its menu, both built from the areas' lists (pages/<area>/routes.ts): a page of a role the
// operator lacks has no menu entry, and its path shows « Accès réservé » (the server refuses its calls anyway).
import type { OperatorRole } from '../../../server/contract/route-def.ts'
import { billing } from './pages/billing/routes.ts'
import { company } from './pages/company/routes.ts'
import { dashboard } from './pages/dashboard/routes.ts'
import { mail } from './pages/mail/routes.ts'
import { notifications } from './pages/notifications/routes.ts'
import { operators } from './pages/operators/routes.ts'
import type { BackOfficeArea, BackOfficePage } from './pages/page.ts'

const areas: BackOfficeArea[] = [dashboard, operators, mail, company, notifications, billing]

export const backOfficePages: BackOfficePage[] = areas.flatMap((area) => area.pages)

/** Whether an operator with these roles may open the page. */
export const opens = (page: BackOfficePage, roles: readonly OperatorRole[]) =>
  !page.roles || page.roles.some((role) => roles.includes(role))

/** The page a path belongs to: its own, or the nearest page above it that answers the paths below it. */
export function pageFor(path: string): BackOfficePage | undefined {
  const bare = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
  return (
    backOfficePages.find((page) => page.path === bare) ??
    backOfficePages.filter((page) => page.nested && bare.startsWith(`${page.path}/`)).sort((a, b) => b.path.length - a.path.length)[0]
  )
}

/** The side menu of an operator with these roles, in PRODUCT.md's order. */
export const menuFor = (roles: readonly OperatorRole[]) =>
  backOfficePages
    .filter((page) => page.menu && opens(page, roles))
    .sort((a, b) => a.menu!.position - b.menu!.position)
    .map((page) => ({ to: page.path, label: page.menu!.label }))
