// The order selection screen (spec §2): 'Sélectionnez la domiciliation', each order with its
// company ('Société') and creation date ('Créée le'), three logos cycled by index modulo 3, the
// option 'Tous', and the presentation video from its third-party host, loaded only on request.
import { useSelector } from '@xstate/react'
import { styled } from 'goober'
import { useEffect, useRef, useState } from 'react'
import { SELECTION_VIDEO_URL } from '../../../wiring/config.ts'
import type { StartupContext } from '../../../machines/session/startup.machine.ts'
import type { StartupRef } from '../../app-context.tsx'
import { Button, formatDate } from '../../components/ui.tsx'
import { focusLost, useArrivalAfter, useFocusOnArrival } from '../../components/useFocusWhenShown.ts'
import { Icon } from '../../icons.tsx'
import { color, mq, radius, shadow } from '../../theme.ts'

const Screen = styled('main')`
  max-width: 64rem;
  margin: 0 auto;
  padding: 1.5rem 1rem 3rem;
  h1 { font-size: 1.6rem; text-align: center; margin-bottom: 1.5rem; }
`

const List = styled('ul')`
  list-style: none;
  margin: 0 0 2rem;
  padding: 0;
  display: grid;
  gap: 0.75rem;
  ${mq.desktop} { grid-template-columns: repeat(2, 1fr); gap: 1rem; }
`

const Choice = styled('button')`
  display: flex;
  align-items: center;
  gap: 1rem;
  width: 100%;
  min-height: 88px;
  padding: 1rem;
  border: 1px solid ${color.border};
  border-radius: ${radius};
  background: ${color.surface};
  box-shadow: ${shadow};
  text-align: left;
  cursor: pointer;
  &:hover { border-color: ${color.primary}; }
  svg { flex-shrink: 0; }
`

const Lines = styled('span')`
  display: flex;
  flex-direction: column;
  gap: 0.15rem;
  min-width: 0;
`

const Label = styled('span')`
  color: ${color.muted};
  font-size: 0.85rem;
`

const Company = styled('span')`
  font-weight: 700;
  font-size: 1.05rem;
  overflow-wrap: anywhere;
`

const CancelRow = styled('p')`
  text-align: center;
`

const VideoBox = styled('section')`
  max-width: 40rem;
  margin: 0 auto;
  h2 { font-size: 1.1rem; }
  iframe, .poster {
    width: 100%;
    aspect-ratio: 16 / 9;
    border: 0;
    border-radius: ${radius};
  }
  .poster {
    display: flex;
    align-items: center;
    justify-content: center;
    gap: 0.75rem;
    background: ${color.primary};
    color: #fff;
    font-weight: 600;
    cursor: pointer;
  }
`

/** The three logos cycled by index modulo 3 (spec §9). */
export const LOGO_COLORS = [color.primary, '#0f766e', '#b45309'] as const

export function OrderLogo({ index }: { index: number }) {
  const variant = index % 3
  const fill = LOGO_COLORS[variant]
  return (
    <svg width="48" height="48" viewBox="0 0 48 48" aria-hidden="true" data-logo={variant} focusable="false">
      <rect width="48" height="48" rx="12" fill={fill} />
      {variant === 0 && (
        <path d="M14 34V18l10-6 10 6v16H14zm6 0v-8h8v8" fill="none" stroke="#fff" strokeWidth="2.5" strokeLinejoin="round" />
      )}
      {variant === 1 && (
        <path
          d="M12 34h24M16 34V16h16v18M20 21h3M25 21h3M20 26h3M25 26h3"
          fill="none"
          stroke="#fff"
          strokeWidth="2.5"
          strokeLinecap="round"
        />
      )}
      {variant === 2 && <path d="M13 30l11-16 11 16zM19 30v4h10v-4" fill="none" stroke="#fff" strokeWidth="2.5" strokeLinejoin="round" />}
    </svg>
  )
}

/** The video is a third-party page: nothing is requested until the customer asks for it. */
function PresentationVideo() {
  const [playing, setPlaying] = useState(false)
  return (
    <VideoBox aria-labelledby="video-title">
      <h2 id="video-title">Découvrez votre espace client en vidéo</h2>
      {playing ? (
        <iframe
          src={`${SELECTION_VIDEO_URL}&autoplay=1`}
          title="Vidéo de présentation de l’espace client"
          allow="autoplay; fullscreen; picture-in-picture"
          loading="lazy"
          referrerPolicy="strict-origin-when-cross-origin"
        />
      ) : (
        <button type="button" className="poster" onClick={() => setPlaying(true)}>
          <Icon name="play" size={28} /> Lire la vidéo (hébergée par Vimeo)
        </button>
      )}
    </VideoBox>
  )
}

export function OrderSelection({ startup }: { startup: StartupRef }) {
  const orders = useSelector(startup, (s) => (s.context as StartupContext).orders)
  const canCancel = useSelector(startup, (s) => s.context.hasChoice)
  const heading = useRef<HTMLHeadingElement>(null)

  // The screen replaces the shell, and with it the control that opened it: the focus comes here, not on <body>. So does
  // a sign-in that led here (useFocusOnArrival: the shell, shown next, is no arrival then, the picker takes the focus).
  useEffect(() => {
    if (focusLost()) heading.current?.focus()
  }, [])
  useFocusOnArrival(heading)
  // An order chosen that still misses documents leads to /missing-document, outside this layout: its title takes the focus.
  useArrivalAfter(startup, (next) => next.matches('missingDocuments'))

  useEffect(() => {
    if (!canCancel) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && startup.send({ type: 'selection.cancel' })
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [canCancel, startup])

  return (
    <Screen>
      <h1 ref={heading} tabIndex={-1}>
        Sélectionnez la domiciliation
      </h1>
      <List>
        {orders.map((order, index) => (
          <li key={order.id}>
            <Choice type="button" onClick={() => startup.send({ type: 'order.choose', orderId: order.id })}>
              <OrderLogo index={index} />
              <Lines>
                <Label>Société</Label>
                <Company>{order.raisonSociale}</Company>
                <Label>
                  Créée le <time dateTime={order.orderDate}>{formatDate(order.orderDate)}</time>
                </Label>
              </Lines>
            </Choice>
          </li>
        ))}
        <li>
          <Choice type="button" onClick={() => startup.send({ type: 'order.choose', orderId: null })}>
            <OrderLogo index={orders.length} />
            <Lines>
              <Company>Tous</Company>
              <Label>Voir toutes mes domiciliations ensemble</Label>
            </Lines>
          </Choice>
        </li>
      </List>
      {canCancel && (
        <CancelRow>
          <Button type="button" $variant="secondary" onClick={() => startup.send({ type: 'selection.cancel' })}>
            Annuler
          </Button>
        </CancelRow>
      )}
      <PresentationVideo />
    </Screen>
  )
}
