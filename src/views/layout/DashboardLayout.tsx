// The dashboard layout (spec §2, §4): it renders the startup sequence's state — the global
// spinner while loading, the order selection, the empty and error states — and, once ready, the
// shell with the page of the route.
import { useSelector } from '@xstate/react'
import { Suspense, useDeferredValue, useEffect, useRef } from 'react'
import { Link } from 'wouter'
import { NO_ORDERS_MESSAGE } from '../../machines/session/startup.machine.ts'
import { type StartupRef, useSession, useStartup } from '../app-context.tsx'
import { Alert, Button, Centered, ErrorState, PageSpinner } from '../components/ui.tsx'
import { useFocusOnArrival, useFocusWhenShown } from '../components/useFocusWhenShown.ts'
import { screenShown, whenIdle, whenPainted } from '../painted.ts'
import { OrderSelection, preloadLayoutParts } from './parts.ts'
import { Shell } from './Shell.tsx'

function SignOutButton() {
  const session = useSession()
  return (
    <Button type="button" $variant="ghost" onClick={() => session.send({ type: 'session.logout' })}>
      Se déconnecter
    </Button>
  )
}

/** A screen's title, where a sign-in that led here puts the focus (useFocusOnArrival). */
function Title({ children }: { children: string }) {
  const title = useRef<HTMLHeadingElement>(null)
  useFocusOnArrival(title)
  return (
    <h1 ref={title} tabIndex={-1}>
      {children}
    </h1>
  )
}

function NoOrders({ startup }: { startup: StartupRef }) {
  return (
    <Centered>
      <Title>Aucune domiciliation</Title>
      <p>{NO_ORDERS_MESSAGE}</p>
      <Button type="button" $variant="secondary" onClick={() => startup.send({ type: 'startup.retry' })}>
        Réessayer
      </Button>
      <SignOutButton />
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
  const current = useSelector(startup, (s) => {
    if (!s || s.hasTag('loading')) return 'loading'
    for (const state of ['ready', 'selecting', 'noOrders', 'failed', 'missingDocuments'] as const) if (s.matches(state)) return state
    return 'loading'
  })
  // The screen the startup reached is rendered at transition priority, from the first render on (the
  // spinner first): React renders it in slices of a few milliseconds, between which the browser stays
  // responsive (the whole shell at once is a long task on a phone), while the spinner stays up.
  const view = useDeferredValue(current, 'loading')
  const error = useSelector(startup, (s) => s?.context.error ?? null)
  // The shell back after the selection screen (an order chosen, or 'Annuler'): the focus goes to where the order shows.
  const shellFocus = useRef<HTMLElement>(null)
  useFocusWhenShown(view !== 'selecting', shellFocus)
  // A screen drawn (the portal's, its error): once painted, what it does not draw may come (painted.ts), its own parts too.
  const shown = !!portalError || (!!startup && view !== 'loading')
  useEffect(() => {
    if (!shown) return
    screenShown(true)
    whenPainted('signedIn', () => whenIdle(preloadLayoutParts))
  }, [shown])
  if (portalError) {
    return (
      <Centered>
        <ErrorState message={portalError} onRetry={() => session.send({ type: 'session.retry' })} />
        <SignOutButton />
      </Centered>
    )
  }
  if (!startup || view === 'loading') return <PageSpinner />
  if (view === 'selecting') {
    return (
      <Suspense fallback={<PageSpinner />}>
        <OrderSelection startup={startup} />
      </Suspense>
    )
  }
  if (view === 'noOrders') return <NoOrders startup={startup} />
  if (view === 'missingDocuments') return <MissingDocumentsNotice startup={startup} />
  if (view === 'failed') {
    // What failed in words, the server's reason after it (a bare « Une erreur interne est survenue. » said neither what
    // nor what to do), 'Réessayer', and a way out: nothing else of the portal is shown.
    return (
      <Centered>
        <Title>Votre espace n’a pas pu être chargé</Title>
        <ErrorState message={error ?? 'Impossible de charger votre espace.'} onRetry={() => startup.send({ type: 'startup.retry' })} />
        <SignOutButton />
      </Centered>
    )
  }
  return <Shell startup={startup} focusTarget={shellFocus} />
}
