// The collapsible sidebar (spec §2): brand name, menu (sub-menus only on desktop with the menu
// expanded), the legal library, 'Mes collaborateurs' (hidden for shared orders) and
// 'Signaler un problème'. On a phone it is a drawer opened from the mobile navigation.
import { styled } from 'goober'
import { useEffect, useRef } from 'react'
import { useLocation } from 'wouter'
import { BRAND_NAME, COPYRIGHT_YEAR } from '../../wiring/config.ts'
import { VisuallyHidden } from '../components/ui.tsx'
import { Icon } from '../icons.tsx'
import { color, mq } from '../theme.ts'
import { menu } from '../routes.ts'
import { legalLibrary } from './legalLibrary.ts'

const Aside = styled('aside')<{ $expanded: boolean; $open: boolean }>`
  display: flex;
  flex-direction: column;
  background: ${color.primaryDark};
  color: #e8eef8;
  overflow-y: auto;
  z-index: 60;
  a, button { color: inherit; }
  ${mq.mobile} {
    position: fixed;
    inset: 0 auto 0 0;
    width: min(85vw, 300px);
    transform: translateX(${(p) => (p.$open ? '0' : '-100%')});
    visibility: ${(p) => (p.$open ? 'visible' : 'hidden')};
    transition: transform 0.2s ease, visibility 0.2s;
  }
  ${mq.desktop} {
    position: sticky;
    top: 0;
    height: 100vh;
    width: ${(p) => (p.$expanded ? '272px' : '76px')};
    transition: width 0.2s ease;
  }
`

const Top = styled('div')`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 0.5rem;
  padding: 0.75rem 0.75rem 0.75rem 1rem;
  min-height: 64px;
  font-weight: 700;
  font-size: 1.15rem;
`

const Toggle = styled('button')`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 44px;
  height: 44px;
  border: none;
  border-radius: 50%;
  background: transparent;
  cursor: pointer;
  &:hover { background: rgba(255, 255, 255, 0.12); }
`

const Nav = styled('nav')`
  ul { list-style: none; margin: 0; padding: 0; }
  h2 { font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.08em; color: #b9c6dc; margin: 1.25rem 1rem 0.5rem; }
`

const ItemLink = styled('a')<{ $active: boolean; $sub?: boolean }>`
  display: flex;
  align-items: center;
  gap: 0.75rem;
  min-height: 44px;
  padding: 0.5rem 1rem 0.5rem ${(p) => (p.$sub ? '3.25rem' : '1.1rem')};
  text-decoration: none;
  border-left: 4px solid ${(p) => (p.$active ? color.accent : 'transparent')};
  background: ${(p) => (p.$active ? 'rgba(255, 255, 255, 0.1)' : 'transparent')};
  font-weight: ${(p) => (p.$active ? 700 : 400)};
  font-size: ${(p) => (p.$sub ? '0.95rem' : '1rem')};
  &:hover { background: rgba(255, 255, 255, 0.08); }
`

const Actions = styled('div')`
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  padding: 1rem;
  margin-top: auto;
`

const actionStyles = `
  display: flex;
  align-items: center;
  gap: 0.6rem;
  min-height: 44px;
  padding: 0.5rem 0.75rem;
  border: 1px solid rgba(255, 255, 255, 0.35);
  border-radius: 10px;
  background: transparent;
  font-weight: 600;
  cursor: pointer;
  text-align: left;
  text-decoration: none;
  &:hover { background: rgba(255, 255, 255, 0.08); }
`
const ActionButton = styled('button')`${actionStyles}`
const ActionLink = styled('a')`${actionStyles}`

const Copyright = styled('p')`
  margin: 0;
  padding: 0 1rem 1rem;
  font-size: 0.8rem;
  color: #b9c6dc;
`

export interface SidebarProps {
  /** The menu is expanded (desktop) or the drawer is open (phone). */
  expanded: boolean
  onToggle: () => void
  isDesktop: boolean
  /** The order shown is shared with the user: no 'Mes collaborateurs'. */
  isShareOrder: boolean
  onProblem: () => void
  onNavigate: () => void
}

export function Sidebar({ expanded, onToggle, isDesktop, isShareOrder, onProblem, onNavigate }: SidebarProps) {
  const [location, navigate] = useLocation()
  // Labels show on a phone (the drawer) and on a desktop with the menu expanded.
  const showLabels = !isDesktop || expanded
  const showSubMenus = isDesktop && expanded
  const open = !isDesktop && expanded
  const toggle = useRef<HTMLButtonElement>(null)

  // The drawer takes the focus when it opens, so a keyboard can go through it at once.
  useEffect(() => {
    if (open) toggle.current?.focus()
  }, [open])

  const go = (to: string) => (event: React.MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
    event.preventDefault()
    navigate(to)
    onNavigate()
  }

  return (
    <Aside id="menu-principal" $expanded={expanded} $open={open} aria-label="Menu principal" inert={!isDesktop && !expanded}>
      <Top>
        {showLabels ? <span>{BRAND_NAME}</span> : <VisuallyHidden>{BRAND_NAME}</VisuallyHidden>}
        <Toggle
          ref={toggle}
          type="button"
          onClick={onToggle}
          aria-expanded={expanded}
          aria-controls="menu-principal"
          aria-label={isDesktop ? (expanded ? 'Réduire le menu' : 'Déplier le menu') : 'Fermer le menu'}
        >
          <Icon name={isDesktop ? (expanded ? 'chevronLeft' : 'chevronRight') : 'close'} />
        </Toggle>
      </Top>
      <Nav aria-label="Rubriques">
        <ul>
          {menu.map((item) => {
            const active = location === item.to || location.startsWith(item.to + '/')
            const href = item.children ? item.children[0]!.to : item.to
            return (
              <li key={item.to}>
                <ItemLink
                  href={href}
                  onClick={go(href)}
                  $active={active}
                  aria-current={location === href ? 'page' : undefined}
                  title={showLabels ? undefined : item.label}
                >
                  <Icon name={item.icon} />
                  {showLabels ? <span>{item.label}</span> : <VisuallyHidden>{item.label}</VisuallyHidden>}
                </ItemLink>
                {showSubMenus && item.children && (
                  <ul aria-label={`${item.label} : sous-rubriques`}>
                    {item.children.map((child) => (
                      <li key={child.to}>
                        <ItemLink href={child.to} onClick={go(child.to)} $active={location === child.to} $sub aria-current={location === child.to ? 'page' : undefined}>
                          {child.label}
                        </ItemLink>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            )
          })}
        </ul>
        {showLabels && (
          <section aria-labelledby="bibliotheque-juridique">
            <h2 id="bibliotheque-juridique">Bibliothèque juridique</h2>
            <ul>
              {legalLibrary.map((link) => (
                <li key={link.href}>
                  <ItemLink href={link.href} target="_blank" rel="noopener noreferrer" $active={false}>
                    <Icon name="external" size={16} />
                    <span>
                      {link.label}
                      <VisuallyHidden> (nouvel onglet)</VisuallyHidden>
                    </span>
                  </ItemLink>
                </li>
              ))}
            </ul>
          </section>
        )}
      </Nav>
      <Actions>
        {!isShareOrder && (
          <ActionLink href="/mes-collaborateurs" onClick={go('/mes-collaborateurs')} title={showLabels ? undefined : 'Mes collaborateurs'}>
            <Icon name="users" />
            {showLabels ? 'Mes collaborateurs' : <VisuallyHidden>Mes collaborateurs</VisuallyHidden>}
          </ActionLink>
        )}
        <ActionButton type="button" onClick={onProblem} title={showLabels ? undefined : 'Signaler un problème'}>
          <Icon name="alert" />
          {showLabels ? 'Signaler un problème' : <VisuallyHidden>Signaler un problème</VisuallyHidden>}
        </ActionButton>
      </Actions>
      {showLabels && (
        <Copyright>
          © {COPYRIGHT_YEAR} {BRAND_NAME}
        </Copyright>
      )}
    </Aside>
  )
}
