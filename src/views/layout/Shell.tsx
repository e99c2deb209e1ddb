// The dashboard layout once the portal is ready (spec §2): the sidebar (a drawer on a phone), the
// mobile navigation, the header, the Kbis banner, the page of the route and the problem report.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { type RefObject, Suspense, useCallback, useEffect, useState } from 'react'
import { useLocation } from 'wouter'
import { selectedOrder, type StartupContext } from '../../machines/session/startup.machine.ts'
import { readMenuExpanded, writeMenuExpanded } from '../../wiring/storage.ts'
import { type StartupRef, useFlows } from '../app-context.tsx'
import { PAGE_CONTENT_ID, PAGE_TITLE_ID, useFocusOnArrival } from '../components/useFocusWhenShown.ts'
import { useMediaQuery } from '../components/useMediaQuery.ts'
import { LEGAL_FORMALITIES_PATH, routeByPath } from '../routes.ts'
import { color, DESKTOP_MIN_WIDTH, mq } from '../theme.ts'
import { Header } from './Header.tsx'
import { KbisBanner } from '../pages/company/KbisBanner.tsx'
import { MobileNav } from './MobileNav.tsx'
import { LoadingFlag, Pages } from './Pages.tsx'
import { ProblemModal } from './parts.ts'
import { SectionNav } from './SectionNav.tsx'
import { Sidebar } from './Sidebar.tsx'
import { useDrawer } from './useDrawer.ts'

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

/** `focusTarget`: what takes the focus when the shell comes back from the order choice: where the order shows. */
export function Shell({ startup, focusTarget }: { startup: StartupRef; focusTarget?: RefObject<HTMLElement | null> }) {
  const flows = useFlows('firstScreen')
  const [location] = useLocation()
  const isDesktop = useMediaQuery(`(min-width: ${DESKTOP_MIN_WIDTH}px)`)
  const [expanded, setExpanded] = useState(() => readMenuExpanded())
  const drawer = useDrawer()
  const order = useSelector(startup, (s) => selectedOrder(s.context as StartupContext))
  const contracts = useSelector(startup, (s) => s.context.contracts)
  const contractId = order?.contractId ?? contracts.find((c) => c.domiciliationOrderId === order?.id)?.id ?? null
  const problem = useActorRef(flows.problemReport)
  const problemOpen = useSelector(problem, (s) => s.hasTag('modal'))
  const route = routeByPath(location)
  const legal = location === LEGAL_FORMALITIES_PATH
  // The phone's drawer open, what lies behind its backdrop takes neither the focus nor a screen reader's reading.
  const behindDrawer = !isDesktop && drawer.open
  // The one on screen: the mobile navigation's choice on a phone, the header's picker on a desktop (the content without header).
  const focusHere = useCallback(
    (element: HTMLElement | null) => {
      if (focusTarget) focusTarget.current = element
    },
    [focusTarget],
  )

  // Reached by an action on another page (signed in, documents sent, an invitation accepted): the page's title, or its
  // content where there is no header (/formalites-juridique).
  useFocusOnArrival(() => document.getElementById(PAGE_TITLE_ID) ?? document.getElementById(PAGE_CONTENT_ID))

  useEffect(() => writeMenuExpanded(expanded), [expanded])
  useEffect(() => {
    document.title = `${route?.title ?? 'Page introuvable'} · Espace client`
  }, [route])

  return (
    <Grid>
      <SkipLink href="#contenu" inert={behindDrawer}>
        Aller au contenu
      </SkipLink>
      <Sidebar
        expanded={isDesktop ? expanded : drawer.open}
        onToggle={() => (isDesktop ? setExpanded(!expanded) : drawer.close(true))}
        isDesktop={isDesktop}
        isShareOrder={order?.isShareOrder ?? false}
        onProblem={() => {
          drawer.close(false)
          problem.send({ type: 'problem.open' })
        }}
        onNavigate={() => drawer.close(false)}
      />
      {behindDrawer && <Backdrop onClick={() => drawer.close(true)} />}
      <Column inert={behindDrawer}>
        <MobileNav
          startup={startup}
          menuOpen={drawer.open}
          onMenu={drawer.openDrawer}
          menuButton={drawer.menuButton}
          choiceButton={isDesktop ? undefined : focusHere}
        />
        {!legal && <Header route={route} startup={startup} orderPicker={isDesktop ? focusHere : undefined} />}
        <KbisBanner key={order?.id ?? 'all'} order={order} contractId={contractId} />
        <LoadingFlag startup={startup} />
        <Content ref={isDesktop && legal ? focusHere : undefined} id="contenu" tabIndex={-1} $legal={legal}>
          {/* The group's other pages, where the side menu does not list them (spec §2: sub-menus on an expanded desktop menu only). */}
          {!(isDesktop && expanded) && <SectionNav path={location} />}
          {/* (/formalites-juridique draws its hero itself: pages/company/LegalLayout.tsx.) */}
          <Pages />
        </Content>
      </Column>
      {/* Opened from the phone's drawer, closed at once (inert): the focus comes back to 'Ouvrir le menu'. */}
      {problemOpen && (
        <Suspense fallback={null}>
          <ProblemModal
            actor={problem}
            orderId={order?.id ?? null}
            company={order?.raisonSociale ?? null}
            fallbackFocus={() => drawer.menuButton.current}
          />
        </Suspense>
      )}
    </Grid>
  )
}
