// The collapsible sidebar (spec §2): brand name, menu (sub-menus only on desktop with the menu
// expanded), the legal library, 'Mes collaborateurs' (hidden for shared orders) and
// 'Signaler un problème'. On a phone it is a drawer opened from the mobile navigation.
import { useEffect, useRef } from 'react'
import { useLocation } from 'wouter'
import { BRAND_NAME, COPYRIGHT_YEAR } from '../../wiring/config.ts'
import { VisuallyHidden } from '../components/ui.tsx'
import { Icon } from '../icons.tsx'
import { menu } from '../routes.ts'
import { LEGAL_PAGES } from '../../../server/contract/rules/legal.ts'
import { legalLibrary } from './legalLibrary.ts'
import { ActionButton, ActionLink, Actions, Aside, Copyright, ItemLink, LegalLinks, Nav, Toggle, Top } from './Sidebar.styles.ts'

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
                        <ItemLink
                          href={child.to}
                          onClick={go(child.to)}
                          $active={location === child.to}
                          $sub
                          aria-current={location === child.to ? 'page' : undefined}
                        >
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
        <>
          {/* Plain links (a page load): the server writes the provider's particulars into a legal page. */}
          <LegalLinks aria-label="Informations légales">
            <ul>
              {LEGAL_PAGES.map((page) => (
                <li key={page.path}>
                  <a href={page.path}>{page.title}</a>
                </li>
              ))}
            </ul>
          </LegalLinks>
          <Copyright>
            © {COPYRIGHT_YEAR} {BRAND_NAME}
          </Copyright>
        </>
      )}
    </Aside>
  )
}
