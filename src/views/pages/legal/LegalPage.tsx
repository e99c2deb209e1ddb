// The frame of the four legal pages (public, bare layout): the title, the provider's particulars (or, if the page was
// reached without them, a French message and a reload), the text, and the links to the other three pages.
import { styled } from 'goober'
import type { ReactNode } from 'react'
import { LEGAL_PAGES, type LegalParticulars } from '../../../../server/contract/rules/legal.ts'
import { Alert } from '../../components/ui.tsx'
import { BareLayout } from '../../layout/BareLayout.tsx'
import { color } from '../../theme.ts'
import { readParticulars } from './particulars.ts'

const Text = styled('div')`
  line-height: 1.55;
  h2 { font-size: 1.2rem; margin: 1.75rem 0 0.5rem; }
  h3 { font-size: 1.05rem; margin: 1.25rem 0 0.4rem; }
  p, li { overflow-wrap: anywhere; }
  dl { margin: 0; }
  dt { font-weight: 600; margin-top: 0.5rem; }
  dd { margin: 0 0 0 1rem; }
  ul[aria-label] { list-style: none; padding: 0; }
  ul[aria-label] > li { border-left: 3px solid ${color.border}; padding-left: 0.75rem; margin-bottom: 1rem; }
`

const Others = styled('nav')`
  margin-top: 2rem;
  padding-top: 1rem;
  border-top: 1px solid ${color.border};
  ul { margin: 0; padding-left: 1.25rem; }
`

export function LegalPage({
  title,
  path,
  children,
}: {
  title: string
  path: string
  children: (particulars: LegalParticulars) => ReactNode
}) {
  const particulars = readParticulars()
  return (
    <BareLayout title={title} wide>
      {particulars ? (
        <Text>{children(particulars)}</Text>
      ) : (
        <Alert $kind="error" role="alert">
          Les informations du prestataire n’ont pas pu être chargées. <a href={path}>Recharger la page</a>
        </Alert>
      )}
      <Others aria-label="Autres informations légales">
        <ul>
          {LEGAL_PAGES.filter((page) => page.path !== path).map((page) => (
            <li key={page.path}>
              <a href={page.path}>{page.title}</a>
            </li>
          ))}
          <li>
            <a href="/login">Espace client</a>
          </li>
        </ul>
      </Others>
    </BareLayout>
  )
}
