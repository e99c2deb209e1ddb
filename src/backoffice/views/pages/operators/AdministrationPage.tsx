// /operateur/administration: Opérateurs, Clés d’API and Journal, each a section of its own path, reached by the tabs
// under the title (links: a section can be bookmarked, and the browser's back button goes back to the one before).
import { styled } from 'goober'
import { Link, useLocation } from 'wouter'
import { color } from '../../../../views/theme.ts'
import type { PageProps } from '../page.ts'
import { lazy, Suspense } from 'react'
import { CodeLoading } from '../../../../views/components/ui.tsx'
import { ADMINISTRATION_PATH } from './paths.ts'

// Each section a chunk of its own, loaded with its tab.
const OperatorsSection = lazy(() => import('./OperatorsSection.tsx').then((m) => ({ default: m.OperatorsSection })))
const ApiKeysSection = lazy(() => import('./ApiKeysSection.tsx').then((m) => ({ default: m.ApiKeysSection })))
const JournalSection = lazy(() => import('./JournalSection.tsx').then((m) => ({ default: m.JournalSection })))

export const ADMINISTRATION_SECTIONS = [
  { path: ADMINISTRATION_PATH, label: 'Opérateurs' },
  { path: `${ADMINISTRATION_PATH}/cles-api`, label: 'Clés d’API' },
  { path: `${ADMINISTRATION_PATH}/journal`, label: 'Journal' },
] as const

const Tabs = styled('nav')`
  margin: 0 0 1.25rem;
  ul { list-style: none; display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0; padding: 0; border-bottom: 1px solid ${color.border}; }
  a {
    display: block;
    padding: 0.6rem 1rem;
    text-decoration: none;
    font-weight: 600;
    color: ${color.muted};
    border-bottom: 3px solid transparent;
  }
  a[aria-current='page'] { color: ${color.primary}; border-bottom-color: ${color.primary}; }
`

export default function AdministrationPage({ operator }: PageProps) {
  const [path] = useLocation()
  const bare = path.endsWith('/') ? path.slice(0, -1) : path
  const section = ADMINISTRATION_SECTIONS.find((s) => s.path === bare)
  return (
    <>
      <Tabs aria-label="Sections de l’administration">
        <ul>
          {ADMINISTRATION_SECTIONS.map((s) => (
            <li key={s.path}>
              <Link href={s.path} aria-current={s === section ? 'page' : undefined}>
                {s.label}
              </Link>
            </li>
          ))}
        </ul>
      </Tabs>
      {!section && <p>Cette section de l’administration n’existe pas.</p>}
      <Suspense fallback={<CodeLoading />}>
        {section?.label === 'Opérateurs' && <OperatorsSection me={operator} />}
        {section?.label === 'Clés d’API' && <ApiKeysSection />}
        {section?.label === 'Journal' && <JournalSection />}
      </Suspense>
    </>
  )
}
