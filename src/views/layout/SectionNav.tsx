// The pages of the current page's menu group (spec §2: Mes courriers, Souscription, Suivi comptable), as links at
// the top of the content, wherever the side menu does not show them: spec §2 shows sub-menus only on a desktop with
// the menu expanded, so on a phone (the drawer lists the groups alone) or with the menu collapsed, a group's link
// opened its first page and the others (Réexpéditions, Colis, Calendrier fiscal, Simulateur de TVA…) could only be
// reached by typing their address. On a phone they make one row that scrolls sideways (the next one cut at the edge
// says there is more), brought to the page shown, rather than up to three rows above every page of the group.
import { styled } from 'goober'
import { useLayoutEffect, useRef } from 'react'
import { Link } from 'wouter'
import { groupOf } from '../routes.ts'
import { color, mq } from '../theme.ts'

// The page shown is the link marked aria-current: its look follows from that mark.
const Nav = styled('nav')`
  margin: 0 0 1rem;
  ul { position: relative; display: flex; flex-wrap: wrap; gap: 0.4rem; margin: 0; padding: 0; list-style: none; }
  a {
    display: inline-flex;
    align-items: center;
    min-height: 44px;
    padding: 0.3rem 0.7rem;
    font-size: 0.95rem;
    border-radius: 999px;
    border: 1px solid ${color.border};
    background: ${color.surface};
    color: ${color.primary};
    font-weight: 500;
    white-space: nowrap;
    text-decoration: none;
  }
  a:hover { border-color: ${color.primary}; }
  a[aria-current='page'] { border-color: ${color.primary}; background: ${color.primary}; color: ${color.surface}; font-weight: 700; }
  ${mq.mobile} {
    ul { flex-wrap: nowrap; overflow-x: auto; scrollbar-width: thin; padding-bottom: 0.25rem; }
    li { flex: none; }
  }
`

/** `path`: the page shown. Nothing outside a group. */
export function SectionNav({ path }: { path: string }) {
  const group = groupOf(path)
  const list = useRef<HTMLUListElement>(null)
  // The page shown brought into the row when it is off its edge; the row alone scrolls (scrollIntoView could move the page too).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the page shown changes with the path: the row is read again then
  useLayoutEffect(() => {
    const row = list.current
    const shown = row?.querySelector<HTMLElement>('[aria-current="page"]')
    if (!row || !shown) return
    if (shown.offsetLeft < row.scrollLeft || shown.offsetLeft + shown.offsetWidth > row.scrollLeft + row.clientWidth)
      row.scrollLeft = shown.offsetLeft - 16
  }, [path])
  if (!group?.children) return null
  return (
    <Nav aria-label={`${group.label} : sous-rubriques`}>
      <ul ref={list}>
        {group.children.map((page) => (
          <li key={page.to}>
            <Link href={page.to} aria-current={page.to === path ? 'page' : undefined}>
              {page.label}
            </Link>
          </li>
        ))}
      </ul>
    </Nav>
  )
}
