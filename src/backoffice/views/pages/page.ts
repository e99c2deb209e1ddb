// What an entry of the back office's route table is: each area lists its pages in its routes.ts; the router, the
// access check and the menu are built from these lists (src/backoffice/views/routes.ts), so that a page is one entry.
import type { ComponentType } from 'react'
import type { OperatorRole } from '../../../../server/contract/route-def.ts'
import type { OperatorMe } from '../../../../server/contract/operators.ts'

export interface PageProps {
  operator: OperatorMe
  /** The operator's menu (routes.ts: the pages their roles open), for a page that leads to the others. */
  menu: { to: string; label: string }[]
}

export interface BackOfficePage {
  /** Absolute, under /operateur. */
  path: string
  /** The page's <h1> and the document's title. */
  title: string
  /** The roles that open the page (any one of them); absent: every operator. The server's routes check the same. */
  roles?: readonly OperatorRole[]
  /** Its entry in the side menu, by position (PRODUCT.md's order). */
  menu?: { label: string; position: number }
  /** The page also answers the paths below its own (its sections). */
  nested?: boolean
  Page: ComponentType<PageProps>
}

export interface BackOfficeArea {
  pages: BackOfficePage[]
}
