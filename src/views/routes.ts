// The routes of spec §2 inside the dashboard layout, and the side menu, both built from the areas'
// lists (src/views/pages/<area>/routes.ts), so that the menu and the routes cannot disagree.
import type { IconName } from './icons.tsx'
import { billing } from './pages/billing/routes.ts'
import { company } from './pages/company/routes.ts'
import { mail } from './pages/mail/routes.ts'
import { notifications } from './pages/notifications/routes.ts'
import type { Area, PageRoute } from './pages/page.ts'
import { people } from './pages/people/routes.ts'
import { shell } from './pages/session/routes.ts'

export { LEGAL_FORMALITIES_PATH } from './pages/company/routes.ts'

const areas: Area[] = [shell, mail, billing, people, company, notifications]

export const pageRoutes: PageRoute[] = areas.flatMap((a) => a.routes)

/** A route's path as a pattern: `:id` stands for one segment. */
const patternOf = (path: string) => new RegExp(`^${path.replace(/:[^/]+/g, '[^/]+')}$`)

export const routeByPath = (path: string) =>
  pageRoutes.find((r) => r.path === path || (r.path.includes(':') && patternOf(r.path).test(path)))

export interface MenuItem {
  to: string
  label: string
  icon: IconName
  children?: { to: string; label: string }[]
}

/** Top-level entries in their spec order; a group holds its pages in their list order. */
export const menu: MenuItem[] = [
  ...areas.flatMap((a) =>
    (a.groups ?? []).map((g) => ({
      position: g.position,
      item: {
        to: g.to,
        label: g.label,
        icon: g.icon,
        children: pageRoutes.flatMap((r) =>
          r.menu && 'group' in r.menu && r.menu.group === g.to ? [{ to: r.path, label: r.menu.label }] : [],
        ),
      },
    })),
  ),
  ...pageRoutes.flatMap((r) =>
    r.menu && 'position' in r.menu ? [{ position: r.menu.position, item: { to: r.path, label: r.menu.label, icon: r.icon } }] : [],
  ),
]
  .sort((a, b) => a.position - b.position)
  .map((entry) => entry.item)

/** The menu group holding this page (with its pages), if any. */
export const groupOf = (path: string): MenuItem | undefined => menu.find((item) => item.children?.some((page) => page.to === path))
