// The special layout of /formalites-juridique (spec §2): no header (Shell.tsx leaves it out), a hero above the page.
// Drawn by the page itself, so that it comes with the page's chunk rather than with the first signed-in screen's code.
import { styled } from 'goober'
import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { touchLink } from '../../components/ui.tsx'
import { color, mq } from '../../theme.ts'

const Hero = styled('div')`
  padding: 2rem 1rem 1.5rem;
  background: ${color.primary};
  color: #fff;
  h1 { margin: 0.5rem 0 0; font-size: 1.75rem; }
  a { color: #fff; }
  ${mq.desktop} { padding: 2.5rem 2rem 2rem; }
`

const Body = styled('div')`
  max-width: 72rem;
  margin: 0 auto;
  padding: 1.5rem 1rem;
`

export function LegalLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <Hero>
        <Link className={touchLink()} href="/tableau-de-bord">
          ← Tableau de bord
        </Link>
        <h1>Formalités juridiques</h1>
        <p>Créer, modifier, transférer ou dissoudre votre société : nos juristes s’occupent de tout.</p>
      </Hero>
      <Body>{children}</Body>
    </>
  )
}
