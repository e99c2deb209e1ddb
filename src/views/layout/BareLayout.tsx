// The bare layout (spec §2): login, reset-password, set-password, missing-document.
import { styled } from 'goober'
import { type ReactNode, useEffect, useRef } from 'react'
import { LEGAL_PAGES } from '../../../server/contract/rules/legal.ts'
import { BRAND_NAME, COPYRIGHT_YEAR } from '../../wiring/config.ts'
import { PAGE_TITLE_ID, useFocusOnArrival } from '../components/useFocusWhenShown.ts'
import { screenShown } from '../painted.ts'
import { color, radius, shadow } from '../theme.ts'

const Page = styled('div')`
  min-height: 100vh;
  display: flex;
  flex-direction: column;
  align-items: center;
  padding: 2rem 1rem;
  background: linear-gradient(180deg, ${color.primary} 0, ${color.primary} 14rem, ${color.background} 14rem);
`

// The page's banner landmark: no text of the page lies outside a landmark.
const Brand = styled('header')`
  margin: 0 0 1.5rem;
  color: #fff;
  font-size: 1.5rem;
  font-weight: 700;
  letter-spacing: 0.01em;
`

const Panel = styled('main')<{ $wide: boolean }>`
  width: 100%;
  max-width: ${(p) => (p.$wide ? '40rem' : '28rem')};
  background: ${color.surface};
  border-radius: ${radius};
  box-shadow: ${shadow};
  padding: 1.75rem 1.5rem;
  h1 { font-size: 1.5rem; }
`

const Footer = styled('footer')`
  margin-top: auto;
  padding-top: 2rem;
  color: ${color.muted};
  font-size: 0.875rem;
  text-align: center;
  ul { display: flex; flex-wrap: wrap; justify-content: center; gap: 0.25rem 1rem; margin: 0 0 0.5rem; padding: 0; list-style: none; }
  a { color: ${color.muted}; display: inline-block; padding: 0.25rem 0; }
  p { margin: 0; }
`

export function BareLayout({ title: heading, children, wide = false }: { title: string; children: ReactNode; wide?: boolean }) {
  // Reached by an action on another page (a new password chosen, then /login; the portal, then /missing-document).
  const title = useRef<HTMLHeadingElement>(null)
  useFocusOnArrival(title)
  useEffect(() => screenShown(false), [])
  return (
    <Page>
      <Brand>{BRAND_NAME}</Brand>
      <Panel $wide={wide}>
        <h1 id={PAGE_TITLE_ID} ref={title} tabIndex={-1}>
          {heading}
        </h1>
        {children}
      </Panel>
      <Footer>
        {/* Plain links (a page load): the server writes the provider's particulars into a legal page (server/http/spa.ts). */}
        <nav aria-label="Informations légales">
          <ul>
            {LEGAL_PAGES.map((page) => (
              <li key={page.path}>
                <a href={page.path}>{page.title}</a>
              </li>
            ))}
          </ul>
        </nav>
        <p>
          © {COPYRIGHT_YEAR} {BRAND_NAME}
        </p>
      </Footer>
    </Page>
  )
}
