// The page of the route inside the dashboard layout (the areas' routes, spec §2), the global loading
// flag, and the page for an unknown address.
import { useSelector } from '@xstate/react'
import { styled } from 'goober'
import { Suspense } from 'react'
import { Link, Route, Switch } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import type { portalDataMachine } from '../../machines/session/portalData.machine.ts'
import type { StartupRef } from '../app-context.tsx'
import { Card, CodeLoading, Spinner } from '../components/ui.tsx'
import { pageRoutes } from '../routes.ts'
import { color } from '../theme.ts'

const TopProgress = styled('div')`
  position: fixed;
  top: 0;
  left: 0;
  right: 0;
  z-index: 150;
  height: 3px;
  background: ${color.accent};
`

/** The global spinner (spec §2), shown while the loading flag is set. */
export function LoadingFlag({ startup }: { startup: StartupRef }) {
  const data = useSelector(startup, (s) => s.children.data as ActorRefFrom<typeof portalDataMachine> | undefined)
  const loading = useSelector(data, (s) => s?.hasTag('loading') ?? false)
  if (!loading) return null
  return (
    <TopProgress>
      <Spinner size={0} label="Chargement des données de la domiciliation…" />
    </TopProgress>
  )
}

function NotFound() {
  return (
    <Card>
      <h2>Page introuvable</h2>
      <p>
        Cette adresse ne correspond à aucune page de votre espace. <Link href="/tableau-de-bord">Revenir au tableau de bord</Link>
      </p>
    </Card>
  )
}

export function Pages() {
  return (
    <Suspense fallback={<CodeLoading />}>
      <Switch>
        {pageRoutes.map((route) => (
          <Route key={route.path} path={route.path}>
            <route.Page route={route} />
          </Route>
        ))}
        <Route>
          <NotFound />
        </Route>
      </Switch>
    </Suspense>
  )
}
