// notifications: the bell of the header: a count of unread notifications, a panel listing
// them (unread first) kept live by the stream; opening one marks it read and goes to it; "Tout marquer
// comme lu". Escape and its « Fermer » close the panel and give the focus back to the bell; so does a click or tap
// outside it. On a phone it opens below the header (Header.tsx's bar is its containing block), never over the bars.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { useEffect, useRef, useState } from 'react'
import { useLocation } from 'wouter'
import type { PortalNotification } from '../../../../server/contract/notifications.ts'
import { frenchDateFormat } from '../../../../server/contract/rules/french-date.ts'
import { useFlows } from '../../app-context.tsx'
import { Alert, BusyButton, ErrorState, IconButton, Spinner } from '../../components/ui.tsx'
import { PAGE_CONTENT_ID } from '../../components/useFocusWhenShown.ts'
import { Icon } from '../../icons.tsx'
import { color, mq, radius, shadow } from '../../theme.ts'

const Box = styled('div')`
  position: relative;
  ${mq.mobile} { position: static; }
`

const BellButton = styled(IconButton)`
  position: relative;
`

const Count = styled('span')`
  position: absolute;
  top: 2px;
  right: 2px;
  min-width: 1.25rem;
  padding: 0 0.3rem;
  border-radius: 999px;
  background: ${color.danger};
  color: #fff;
  font-size: 0.75rem;
  font-weight: 700;
  line-height: 1.25rem;
  text-align: center;
  pointer-events: none;
`

const Panel = styled('section')`
  position: absolute;
  right: -3.5rem;
  top: 48px;
  z-index: 30;
  width: min(22rem, calc(100vw - 1rem));
  max-height: min(70vh, 32rem);
  overflow: auto;
  padding: 0.75rem;
  background: ${color.surface};
  border: 1px solid ${color.border};
  border-radius: ${radius};
  box-shadow: ${shadow};
  ${mq.mobile} { top: calc(100% + 0.25rem); left: 0.5rem; right: 0.5rem; width: auto; }
  h2 { margin: 0; font-size: 1rem; flex: 1; }
  header { display: flex; align-items: center; justify-content: space-between; gap: 0.5rem; margin-bottom: 0.5rem; flex-wrap: wrap; }
  ul { list-style: none; margin: 0; padding: 0; }
  li + li { border-top: 1px solid ${color.border}; }
`

const Item = styled('button')`
  display: block;
  width: 100%;
  min-height: 44px;
  padding: 0.6rem 0.5rem;
  border: 0;
  background: transparent;
  text-align: left;
  font: inherit;
  color: inherit;
  cursor: pointer;
  &:hover, &:focus-visible { background: ${color.background}; }
  strong { display: block; }
  span { display: block; color: ${color.muted}; font-size: 0.875rem; overflow-wrap: anywhere; }
  &[data-unread='true'] strong::before {
    content: '';
    display: inline-block;
    width: 0.5rem;
    height: 0.5rem;
    margin-right: 0.4rem;
    border-radius: 50%;
    background: ${color.primary};
    vertical-align: middle;
  }
`

const when = frenchDateFormat({ day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' })
const relative = new Intl.RelativeTimeFormat('fr-FR', { numeric: 'auto' })

/** "il y a 5 minutes" for the last day, then "12 mars à 10:05". */
export function formatWhen(iso: string, now = Date.now()): string {
  const minutes = Math.round((new Date(iso).getTime() - now) / 60_000)
  if (minutes > -1) return 'à l’instant'
  if (minutes > -60) return relative.format(minutes, 'minute')
  if (minutes > -24 * 60) return relative.format(Math.round(minutes / 60), 'hour')
  return when.format(new Date(iso))
}

export const bellLabel = (unread: number) =>
  unread === 0 ? 'Notifications' : `${unread} notification${unread > 1 ? 's' : ''} non lue${unread > 1 ? 's' : ''}`

export function NotificationBell() {
  const flows = useFlows('notifications')
  const [path] = useLocation()
  const bell = useActorRef(flows.notifications)
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const panel = useRef<HTMLElement>(null)
  const unread = useSelector(bell, (s) => s.context.unread)
  const notifications = useSelector(bell, (s) => s.context.notifications)
  const loading = useSelector(bell, (s) => s.matches('loading'))
  const error = useSelector(bell, (s) => s.context.error)
  const actionError = useSelector(bell, (s) => s.context.actionError)
  // Refused only while it is being saved, or already asked after the read mark under way.
  const canReadAll = useSelector(bell, (s) => s.can({ type: 'notification.readAll' }))

  const box = useRef<HTMLDivElement>(null)
  const close = () => {
    setOpen(false)
    button.current?.focus()
  }

  // preventScroll: the panel hangs below the bell, and focusing it must not scroll the bell off the screen.
  useEffect(() => {
    if (open) panel.current?.focus({ preventScroll: true })
  }, [open])

  // 'Tout marquer comme lu' goes once nothing is unread: if it had the focus, the panel takes it (not <body>, where
  // Escape would reach nothing).
  useEffect(() => {
    if (open && unread === 0 && (document.activeElement === document.body || document.activeElement === null))
      panel.current?.focus({ preventScroll: true })
  }, [open, unread])

  // Escape closes the panel also when the focus is nowhere (on <body>); inside, the panel's own handler does it.
  // Close only sends to the bell's actor: the listener needs no renewal when it is made again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reason above
  useEffect(() => {
    if (!open) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && (document.activeElement === document.body || document.activeElement === null)) close()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [open])

  // A click or tap elsewhere closes it; the focus goes where that press puts it (the bell's own press toggles it).
  useEffect(() => {
    if (!open) return
    const onPointerDown = (event: PointerEvent) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [open])

  // The panel closes with the notification that had the focus. It goes to the page's content, where the page the
  // notification leads to gives it to its heading (useFocusOnArrival); back to the bell when it leads where we are.
  const choose = (notification: PortalNotification) => {
    setOpen(false)
    if (notification.link === path) button.current?.focus()
    else document.getElementById(PAGE_CONTENT_ID)?.focus()
    bell.send({ type: 'notification.open', id: notification.id })
  }

  return (
    <Box
      ref={box}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation()
          close()
        }
      }}
    >
      <BellButton
        ref={button}
        type="button"
        aria-label={bellLabel(unread)}
        aria-expanded={open}
        // Names the panel only while it is there: an id that names nothing is an error to assistive technology.
        aria-controls={open ? 'notifications' : undefined}
        onClick={() => (open ? close() : setOpen(true))}
      >
        <Icon name="bell" />
        {unread > 0 && <Count aria-hidden="true">{unread > 99 ? '99+' : unread}</Count>}
      </BellButton>
      {open && (
        <Panel id="notifications" ref={panel} tabIndex={-1} aria-labelledby="notifications-title">
          <header>
            <h2 id="notifications-title">Notifications</h2>
            <IconButton type="button" aria-label="Fermer" onClick={close}>
              <Icon name="close" />
            </IconButton>
            {unread > 0 && (
              <BusyButton type="button" $variant="ghost" busy={!canReadAll} onClick={() => bell.send({ type: 'notification.readAll' })}>
                Tout marquer comme lu
              </BusyButton>
            )}
          </header>
          {actionError && (
            <Alert $kind="error" role="alert">
              {actionError}
            </Alert>
          )}
          {loading ? (
            <Spinner size={24} label="Chargement des notifications…" />
          ) : error ? (
            <ErrorState message={error} onRetry={() => bell.send({ type: 'list.retry' })} />
          ) : notifications.length === 0 ? (
            <p role="status">Aucune nouvelle notification</p>
          ) : (
            <>
              {unread === 0 && <p role="status">Aucune nouvelle notification</p>}
              <ul>
                {notifications.map((n) => (
                  <li key={n.id}>
                    <Item type="button" data-unread={!n.read} onClick={() => choose(n)}>
                      <strong>
                        {n.title}
                        {n.read ? '' : <VisuallyHiddenText> (non lue)</VisuallyHiddenText>}
                      </strong>
                      <span>{n.body}</span>
                      <span>
                        <time dateTime={n.createdAt}>{formatWhen(n.createdAt)}</time>
                      </span>
                    </Item>
                  </li>
                ))}
              </ul>
            </>
          )}
        </Panel>
      )}
    </Box>
  )
}

const VisuallyHiddenText = styled('span')`
  position: absolute !important;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
`
