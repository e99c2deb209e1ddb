// The pages of the current page's menu group (spec §2: Mes courriers, Souscription, Suivi comptable), as links at
// the top of the content, wherever the side menu does not show them: spec §2 shows sub-menus only on a desktop with
// the menu expanded, so on a phone (the drawer lists the groups alone) or with the menu collapsed, a group's link
// opened its first page and the others (Réexpéditions, Colis, Calendrier fiscal, Simulateur de TVA…) could only be
// reached by typing their address.
import { css, styled } from 'goober'
import { Link } from 'wouter'
import { groupOf } from '../routes.ts'
import { color } from '../theme.ts'

const Nav = styled('nav')`
  margin: 0 0 1rem;
  ul { display: flex; flex-wrap: wrap; gap: 0.4rem; margin: 0; padding: 0; list-style: none; }
`

const item = (active: boolean) => css`
  display: inline-flex;
  align-items: center;
  min-height: 44px;
  padding: 0.3rem 0.7rem;
  font-size: 0.95rem;
  border-radius: 999px;
  border: 1px solid ${active ? color.primary : color.border};
  background: ${active ? color.primary : color.surface};
  color: ${active ? color.surface : color.primary};
  font-weight: ${active ? 700 : 500};
  text-decoration: none;
  &:hover { border-color: ${color.primary}; }
`

/** `path`: the page shown. Nothing outside a group. */
export function SectionNav({ path }: { path: string }) {
  const group = groupOf(path)
  if (!group?.children) return null
  return (
    <Nav aria-label={`${group.label} : sous-rubriques`}>
      <ul>
        {group.children.map((page) => (
          <li key={page.to}>
            <Link href={page.to} className={item(page.to === path)} aria-current={page.to === path ? 'page' : undefined}>
              {page.label}
            </Link>
          </li>
        ))}
      </ul>
    </Nav>
  )
}
