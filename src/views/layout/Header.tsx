// The header (spec §2): back button, title and icon from the route's metadata, the notification
// bell (NotificationBell.tsx, once the first screen has painted), the order picker labelled 'Domiciliation' (every
// company plus 'Tous'), and logout.
import { useSelector } from '@xstate/react'
import { styled } from 'goober'
import { type Ref, useEffect, useState } from 'react'
import { useLocation } from 'wouter'
import type { StartupContext } from '../../machines/session/startup.machine.ts'
import { type StartupRef, useServices, useSession } from '../app-context.tsx'
import { IconPlace } from '../components/icon-button.ts'
import { Button, IconButton } from '../components/ui.tsx'
import { PAGE_TITLE_ID } from '../components/useFocusWhenShown.ts'
import { Icon } from '../icons.tsx'
import type { PageRoute } from '../pages/page.ts'
import { hasPainted, whenPainted } from '../painted.ts'
import { isFulfilled } from '../../wiring/settled.ts'
import { color, HEADER_HEIGHT_PX, mq, radius } from '../theme.ts'
import { NotificationBell } from './parts.ts'

const Bar = styled('header')`
  /* On a phone, the bell's panel opens below it (NotificationBell.tsx). */
  position: relative;
  display: flex;
  align-items: center;
  gap: 0.5rem;
  padding: 0.5rem 1rem;
  min-height: ${HEADER_HEIGHT_PX}px;
  background: ${color.surface};
  border-bottom: 1px solid ${color.border};
  h1 {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    margin: 0;
    font-size: 1.25rem;
    min-width: 0;
    /* A long title wraps, cut inside a word only when that word alone is wider than the bar leaves it (never clipped). */
    overflow-wrap: anywhere;
    svg { flex-shrink: 0; }
    /* On a phone the bar is shared with four buttons: a smaller title, without its (decorative) icon. */
    ${mq.mobile} { font-size: 1.1rem; svg { display: none; } }
  }
`

const Spacer = styled('div')`
  flex: 1;
`

const Picker = styled('div')`
  display: none;
  align-items: center;
  gap: 0.5rem;
  ${mq.desktop} { display: flex; }
  label { font-weight: 600; }
  select {
    min-height: 44px;
    max-width: 18rem;
    padding: 0.4rem 0.6rem;
    border: 1px solid ${color.border};
    border-radius: ${radius};
    background: ${color.surface};
  }
`

const LogoutLabel = styled('span')`
  ${mq.mobile} { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
`

const ALL = 'all'

/**
 * The bell, once the first screen has painted: it is not on the way to it (its code, its flows and its calls come
 * after), and its place is kept meanwhile so that nothing in the bar moves when it comes.
 */
function Bell() {
  const { loadFlows } = useServices()
  // Drawn again (the shell back after the order choice): the bell at once, if its code and flows are there.
  const [ready, setReady] = useState(() => hasPainted('signedIn') && NotificationBell.isLoaded() && isFulfilled(loadFlows('notifications')))
  useEffect(() => {
    if (ready) return
    let live = true
    whenPainted(
      'signedIn',
      () =>
        void Promise.all([NotificationBell.preload(), loadFlows('notifications')]).then(
          () => live && setReady(true),
          () => {},
        ),
    )
    return () => {
      live = false
    }
  }, [loadFlows, ready])
  // Its place meanwhile: the same round box, the same icon.
  return ready ? (
    <NotificationBell />
  ) : (
    <IconPlace aria-hidden="true">
      <Icon name="bell" />
    </IconPlace>
  )
}

/** `orderPicker`: where the focus returns from the order choice. */
export function Header({
  route,
  startup,
  orderPicker,
}: {
  route: PageRoute | undefined
  startup: StartupRef
  orderPicker?: Ref<HTMLSelectElement> | undefined
}) {
  const session = useSession()
  const [, navigate] = useLocation()
  const orders = useSelector(startup, (s) => (s.context as StartupContext).orders)
  const selectedOrderId = useSelector(startup, (s) => s.context.selectedOrderId)

  function back() {
    if (window.history.length > 1) window.history.back()
    else navigate('/tableau-de-bord')
  }

  return (
    <Bar>
      <IconButton type="button" aria-label="Retour" onClick={back}>
        <Icon name="back" />
      </IconButton>
      {/* Where the focus lands when an action on another page led here (the Shell: useFocusOnArrival). */}
      <h1 id={PAGE_TITLE_ID} tabIndex={-1}>
        {route && <Icon name={route.icon} />}
        {route?.title ?? 'Page introuvable'}
      </h1>
      <Spacer />
      <Picker>
        <label htmlFor="order-picker">Domiciliation</label>
        <select
          ref={orderPicker}
          id="order-picker"
          value={selectedOrderId === null ? ALL : String(selectedOrderId)}
          onChange={(e) => startup.send({ type: 'order.select', orderId: e.target.value === ALL ? null : Number(e.target.value) })}
        >
          {orders.map((order) => (
            <option key={order.id} value={order.id}>
              {order.raisonSociale}
            </option>
          ))}
          <option value={ALL}>Tous</option>
        </select>
      </Picker>
      <Bell />
      <Button type="button" $variant="ghost" onClick={() => session.send({ type: 'session.logout' })}>
        <Icon name="logout" />
        <LogoutLabel>Se déconnecter</LogoutLabel>
      </Button>
    </Bar>
  )
}
