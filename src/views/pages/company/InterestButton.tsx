// "Ça m'intéresse" on a partner's offer (a bank, the accountant), then "Demande envoyée" for good;
// a collaborator sees where it stands, and why the request is not theirs to make.
import { useActorRef, useSelector } from '@xstate/react'
import { useRef } from 'react'
import type { Order } from '../../../../server/contract/session.ts'
import type { Partner } from '../../../machines/company/partnerInterest.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { Badge, Muted } from '../../components/page.tsx'
import { Alert, BusyButton } from '../../components/ui.tsx'
import { useFocusWhenShown } from '../../components/useFocusWhenShown.ts'

const sentFlag = (order: Order, partner: Partner) =>
  partner === 'qonto' ? order.qonto : partner === 'shine' ? order.shine : order.wantComptable

export function InterestButton({
  order,
  partner,
  label,
  name,
}: {
  order: Order
  partner: Partner
  label: string /** The button's accessible name when several share a label (it contains the label). */
  name?: string
}) {
  const flows = useFlows('company')
  const interest = useActorRef(flows.partnerInterest, {
    input: { orderId: order.id, partner, sent: sentFlag(order, partner), isShareOrder: order.isShareOrder },
  })
  const sent = useSelector(interest, (s) => s.hasTag('sent'))
  const busy = useSelector(interest, (s) => s.hasTag('busy'))
  const error = useSelector(interest, (s) => s.context.error)
  // The badge replaces the button pressed: it takes the focus (never by Tab). While sending, and after a failure, the
  // focus stays on the button (BusyButton).
  const badge = useRef<HTMLSpanElement>(null)
  useFocusWhenShown(sent, badge)
  if (sent)
    return (
      <Badge $tone="success" ref={badge} tabIndex={-1}>
        Demande envoyée
      </Badge>
    )
  if (order.isShareOrder) return <Muted>Seul le titulaire de la domiciliation peut faire cette demande.</Muted>
  return (
    <div>
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
      <BusyButton type="button" onClick={() => interest.send({ type: 'interest.send' })} busy={busy} aria-label={busy ? undefined : name}>
        {busy ? 'Envoi…' : label}
      </BusyButton>
    </div>
  )
}
