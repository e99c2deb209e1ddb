// notifications: "E-mails de notification" on /informations-personnelles: for each order
// the user reaches, "Un e-mail par événement", "Un résumé quotidien" or "Aucun e-mail" (his own choice).
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import type { EmailPreference } from '../../../../server/contract/notifications.ts'
import type { Order } from '../../../../server/contract/session.ts'
import type { StartupContext } from '../../../machines/session/startup.machine.ts'
import { useFlows, useStartup } from '../../app-context.tsx'
import { Alert, ErrorState, Spinner } from '../../components/ui.tsx'
import { Section } from '../people/Section.tsx'

export const emailChoices: [EmailPreference, string][] = [
  ['each', 'Un e-mail par événement'],
  ['digest', 'Un résumé quotidien'],
  ['none', 'Aucun e-mail'],
]

const Choices = styled('fieldset')`
  border: 0;
  margin: 0 0 0.75rem;
  padding: 0;
  legend { font-weight: 600; padding: 0; margin-bottom: 0.25rem; overflow-wrap: anywhere; }
  label { display: flex; align-items: center; gap: 0.5rem; min-height: 44px; }
  input { width: 1.25rem; height: 1.25rem; }
  &[aria-disabled='true'] label { opacity: 0.6; cursor: not-allowed; }
`

function OrderChoice({ order }: { order: Order }) {
  const flows = useFlows('notifications')
  const actor = useActorRef(flows.notificationPreferences, { input: { orderId: order.id } })
  const email = useSelector(actor, (s) => s.context.email)
  const error = useSelector(actor, (s) => s.context.error)
  const message = useSelector(actor, (s) => s.context.message)
  const loading = useSelector(actor, (s) => s.matches('loading'))
  const failed = useSelector(actor, (s) => s.matches('failed'))
  const saving = useSelector(actor, (s) => s.matches('saving'))
  const name = `notification-email-${order.id}`
  if (loading) return <Spinner size={24} label={`Chargement : ${order.raisonSociale}…`} />
  if (failed)
    return <ErrorState message={`${order.raisonSociale} : ${error ?? ''}`} onRetry={() => actor.send({ type: 'preference.retry' })} />
  // While a choice is saved the others are unavailable but stay focusable (a disabled fieldset would drop the focus
  // of the choice just made to <body> in Chrome); a change meanwhile is ignored, and the radios show the saved one.
  return (
    <Choices aria-disabled={saving || undefined} aria-busy={saving}>
      <legend>{order.raisonSociale}</legend>
      {emailChoices.map(([value, label]) => (
        <label key={value}>
          <input
            type="radio"
            name={name}
            value={value}
            checked={email === value}
            aria-disabled={saving || undefined}
            onChange={() => {
              if (!saving) actor.send({ type: 'preference.choose', email: value })
            }}
          />
          {label}
        </label>
      ))}
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
      {message && <p role="status">{message}</p>}
    </Choices>
  )
}

export function NotificationPreferencesSection() {
  const startup = useStartup()!
  const orders = useSelector(startup, (s) => (s.context as StartupContext).orders)
  return (
    <Section id="notification-emails-title" title="E-mails de notification">
      <p>Pour chaque domiciliation, choisissez comment être prévenu d’un nouveau courrier, d’un colis ou d’une facture.</p>
      {orders.map((order) => (
        <OrderChoice key={order.id} order={order} />
      ))}
    </Section>
  )
}
