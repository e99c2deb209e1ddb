// The dashboard layout (spec §2, §4): it renders the startup sequence's state — the global
// spinner while loading, the order selection, the empty and error states — and, once ready, the
// sidebar, the mobile navigation, the header, the Kbis banner and the page of the route.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { Suspense, useEffect, useRef, useState } from 'react'
import { Link, Route, Switch, useLocation } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import type { portalDataMachine } from '../../machines/portalData.machine.ts'
import { NO_ORDERS_MESSAGE, selectedOrder, type StartupContext } from '../../machines/startup.machine.ts'
import { PageSpinner } from '../App.tsx'
import { type StartupRef, useFlows, useServices, useSession, useStartup } from '../app-context.tsx'
import { Alert, Button, Card, Centered, ErrorState, Spinner } from '../components/ui.tsx'
import { LEGAL_FORMALITIES_PATH, pageRoutes, routeByPath } from '../routes.ts'
import { color, DESKTOP_MIN_WIDTH, mq } from '../theme.ts'
import { Header } from './Header.tsx'
import { KbisBanner } from './KbisBanner.tsx'
import { MobileNav } from './MobileNav.tsx'
import { OrderSelection } from './OrderSelection.tsx'
import { ProblemModal } from './ProblemModal.tsx'
import { Sidebar } from './Sidebar.tsx'
import { useMediaQuery } from './useMediaQuery.ts'

const MENU_EXPANDED_KEY = 'menuExpanded'

const Grid = styled('div')`
  min-height: 100vh;
  ${mq.desktop} { display: flex; }
`

const Column = styled('div')`
  flex: 1;
  min-width: 0;
  display: flex;
  flex-direction: column;
`

const Content = styled('main')<{ $legal: boolean }>`
  flex: 1;
  width: 100%;
  max-width: ${(p) => (p.$legal ? 'none' : '72rem')};
  margin: 0 auto;
  padding: ${(p) => (p.$legal ? '0' : '1rem')};
  ${mq.desktop} { padding: ${(p) => (p.$legal ? '0' : '1.5rem 2rem')}; }
`

const LegalHero = styled('div')`
  padding: 2rem 1rem 1.5rem;
  background: ${color.primary};
  color: #fff;
  h1 { margin: 0.5rem 0 0; font-size: 1.75rem; }
  a { color: #fff; }
  ${mq.desktop} { padding: 2.5rem 2rem 2rem; }
`

const LegalBody = styled('div')`
  max-width: 72rem;
  margin: 0 auto;
  padding: 1.5rem 1rem;
`

const SkipLink = styled('a')`
  position: absolute;
  left: -999px;
  top: 0;
  z-index: 200;
  padding: 0.75rem 1rem;
  background: ${color.surface};
  &:focus { left: 0.5rem; top: 0.5rem; }
`

const Backdrop = styled('div')`
  position: fixed;
  inset: 0;
  z-index: 50;
  background: rgba(15, 23, 42, 0.45);
  ${mq.desktop} { display: none; }
`

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
function LoadingFlag({ startup }: { startup: StartupRef }) {
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

function Pages() {
  return (
    <Suspense fallback={<PageSpinner />}>
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

function readExpanded(): boolean {
  try {
    return localStorage.getItem(MENU_EXPANDED_KEY) !== 'false'
  } catch {
    return true
  }
}

function Shell({ startup }: { startup: StartupRef }) {
  const { notify } = useServices()
  const flows = useFlows()
  const [location] = useLocation()
  const isDesktop = useMediaQuery(`(min-width: ${DESKTOP_MIN_WIDTH}px)`)
  const [expanded, setExpanded] = useState(readExpanded)
  const [drawerOpen, setDrawerOpen] = useState(false)
  const menuButton = useRef<HTMLButtonElement>(null)
  const refocusMenu = useRef(false)
  const closeDrawer = (refocus: boolean) => {
    refocusMenu.current = refocus
    setDrawerOpen(false)
  }
  const order = useSelector(startup, (s) => selectedOrder(s.context as StartupContext))
  const contracts = useSelector(startup, (s) => s.context.contracts)
  const contractId = order?.contractId ?? contracts.find((c) => c.domiciliationOrderId === order?.id)?.id ?? null
  const [problemLogic] = useState(() => flows.problemReport.provide({ actions: { notify: (_, notice) => notify(notice) } }))
  const problem = useActorRef(problemLogic)
  const problemOpen = useSelector(problem, (s) => s.hasTag('modal'))
  const route = routeByPath(location)
  const legal = location === LEGAL_FORMALITIES_PATH

  useEffect(() => {
    try {
      localStorage.setItem(MENU_EXPANDED_KEY, String(expanded))
    } catch {
      // Private browsing: the preference is simply not kept.
    }
  }, [expanded])

  // Closed without going anywhere (Escape, the close button, the backdrop): the focus goes back to
  // the menu button.
  useEffect(() => {
    if (!drawerOpen && refocusMenu.current) {
      refocusMenu.current = false
      menuButton.current?.focus()
    }
  }, [drawerOpen])

  useEffect(() => {
    if (!drawerOpen) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && closeDrawer(true)
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [drawerOpen])

  useEffect(() => {
    document.title = `${route?.title ?? 'Page introuvable'} · Espace client`
  }, [route])

  return (
    <Grid>
      <SkipLink href="#contenu">Aller au contenu</SkipLink>
      <Sidebar
        expanded={isDesktop ? expanded : drawerOpen}
        onToggle={() => (isDesktop ? setExpanded(!expanded) : closeDrawer(true))}
        isDesktop={isDesktop}
        isShareOrder={order?.isShareOrder ?? false}
        onProblem={() => {
          closeDrawer(false)
          problem.send({ type: 'problem.open' })
        }}
        onNavigate={() => closeDrawer(false)}
      />
      {!isDesktop && drawerOpen && <Backdrop onClick={() => closeDrawer(true)} />}
      <Column>
        <MobileNav startup={startup} menuOpen={drawerOpen} onMenu={() => setDrawerOpen(true)} menuButton={menuButton} />
        {!legal && <Header route={route} startup={startup} />}
        <KbisBanner key={order?.id ?? 'all'} order={order} contractId={contractId} startup={startup} />
        <LoadingFlag startup={startup} />
        <Content id="contenu" tabIndex={-1} $legal={legal}>
          {legal ? (
            <>
              <LegalHero>
                <Link href="/tableau-de-bord">← Tableau de bord</Link>
                <h1>Formalités juridiques</h1>
                <p>Créer, modifier, transférer ou dissoudre votre société : nos juristes s’occupent de tout.</p>
              </LegalHero>
              <LegalBody>
                <Pages />
              </LegalBody>
            </>
          ) : (
            <Pages />
          )}
        </Content>
      </Column>
      {problemOpen && <ProblemModal actor={problem} orderId={order?.id ?? null} company={order?.raisonSociale ?? null} />}
    </Grid>
  )
}

function NoOrders({ startup }: { startup: StartupRef }) {
  const session = useSession()
  return (
    <Centered>
      <h1>Aucune domiciliation</h1>
      <p>{NO_ORDERS_MESSAGE}</p>
      <Button type="button" $variant="secondary" onClick={() => startup.send({ type: 'startup.retry' })}>
        Réessayer
      </Button>
      <Button type="button" $variant="ghost" onClick={() => session.send({ type: 'session.logout' })}>
        Se déconnecter
      </Button>
    </Centered>
  )
}

function MissingDocumentsNotice({ startup }: { startup: StartupRef }) {
  return (
    <Centered>
      <Alert $kind="info" role="status">
        Des documents sont nécessaires pour finaliser cette domiciliation.
      </Alert>
      <Link href="/missing-document">Transmettre mes documents</Link>
      <Button type="button" $variant="secondary" onClick={() => startup.send({ type: 'order.reopen' })}>
        Choisir une autre domiciliation
      </Button>
    </Centered>
  )
}

export default function DashboardLayout() {
  const session = useSession()
  const portalError = useSelector(session, (s) => (s.matches({ signedIn: 'portalUnavailable' }) ? s.context.error : null))
  const startup = useStartup()
  const view = useSelector(startup, (s) => {
    if (!s || s.hasTag('loading')) return 'loading'
    for (const state of ['ready', 'selecting', 'noOrders', 'failed', 'missingDocuments'] as const) if (s.matches(state)) return state
    return 'loading'
  })
  const error = useSelector(startup, (s) => s?.context.error ?? null)
  if (portalError) {
    return (
      <Centered>
        <ErrorState message={portalError} onRetry={() => session.send({ type: 'session.retry' })} />
      </Centered>
    )
  }
  if (!startup || view === 'loading') return <PageSpinner />
  if (view === 'selecting') return <OrderSelection startup={startup} />
  if (view === 'noOrders') return <NoOrders startup={startup} />
  if (view === 'missingDocuments') return <MissingDocumentsNotice startup={startup} />
  if (view === 'failed') {
    return (
      <Centered>
        <ErrorState message={error ?? 'Impossible de charger votre espace.'} onRetry={() => startup.send({ type: 'startup.retry' })} />
      </Centered>
    )
  }
  return <Shell startup={startup} />
}
