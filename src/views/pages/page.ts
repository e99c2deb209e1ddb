// What a page is to the router and the side menu. Each area lists its pages in its routes.ts; the
// global route table and the menu are built from those lists (src/views/routes.ts).
import type { ComponentType, LazyExoticComponent } from 'react'
import type { IconName } from '../icons.tsx'

export interface PageProps {
  route: PageRoute
}

export interface PageRoute {
  path: string
  /** The header's title (and the document's). */
  title: string
  icon: IconName
  /** Loaded lazily, each page its own chunk; the dashboard's comes with the first signed-in screen's code (session/routes.ts). */
  Page: LazyExoticComponent<ComponentType<PageProps>> | ComponentType<PageProps>
  /** Its entry in the side menu: at `position` among the top-level entries, or in a group (in list order). */
  menu?: { label: string; position: number } | { label: string; group: string }
}

/** A menu entry that opens onto its pages (spec §2: its path redirects to the first one). */
export interface MenuGroup {
  to: string
  label: string
  icon: IconName
  position: number
}

export interface Area {
  routes: PageRoute[]
  groups?: MenuGroup[]
}
