// The termination of one order, mountable on any page of the portal (Mes abonnements; "Résilier ma domiciliation" on
// Gestion de mon entreprise): `<TerminationForm orderId={order.id} company={order.raisonSociale} />`, for an order the
// user owns. It shows "Résiliation demandée pour le {date}" once there is a request ("Domiciliation résiliée au {date}"
// once the provider accepted it for that end date), else "Résilier" and its form
// (flows.termination, src/machines/billing/termination.machine.ts).
import { useActorRef, useSelector } from '@xstate/react'
import { useEffect, useRef } from 'react'
import type { ActorRefFrom } from 'xstate'
import { frenchDay } from '../../../../server/contract/rules/french-date.ts'
import { OTHER_REASON, TERMINATION_REASONS, type terminationMachine } from '../../../machines/billing/termination.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { Modal } from '../../components/Modal.tsx'
import { Alert, Button, ErrorState, Field, Spinner } from '../../components/ui.tsx'

type TerminationRef = ActorRefFrom<typeof terminationMachine>

export function TerminationForm({ orderId, company }: { orderId: number; company: string }) {
  const flows = useFlows('billing')
  const actor = useActorRef(flows.termination, { input: { orderId } })
  const loading = useSelector(actor, (s) => s.hasTag('loading'))
  const failed = useSelector(actor, (s) => s.matches('failed'))
  const formOpen = useSelector(actor, (s) => s.hasTag('form'))
  const requestedDate = useSelector(actor, (s) => s.context.requestedDate)
  const endDate = useSelector(actor, (s) => s.context.endDate)
  const error = useSelector(actor, (s) => s.context.error)
  // The dialog closes on "Résilier" gone (a request sent, or one found after a 409): the focus goes to the notice, or
  // here while the request is read, then on to the notice (tabIndex -1: neither is reached by Tab).
  const here = useRef<HTMLDivElement>(null)
  const notice = useRef<HTMLDivElement>(null)
  const fallbackFocus = () => notice.current ?? here.current
  useEffect(() => {
    if (requestedDate && document.activeElement === here.current) notice.current?.focus()
  }, [requestedDate])
  return (
    <div ref={here} tabIndex={-1}>
      {loading ? (
        <Spinner size={20} label="Chargement de votre demande de résiliation…" />
      ) : failed ? (
        <ErrorState message={error ?? 'Le chargement a échoué.'} onRetry={() => actor.send({ type: 'termination.retry' })} />
      ) : requestedDate ? (
        <Alert $kind="info" role="status" ref={notice} tabIndex={-1}>
          {endDate ? `Domiciliation résiliée au ${frenchDay(endDate)}.` : `Résiliation demandée pour le ${frenchDay(requestedDate)}.`}
        </Alert>
      ) : (
        <>
          <Button
            type="button"
            $variant="ghost"
            onClick={() => actor.send({ type: 'termination.open' })}
            aria-label={`Résilier la domiciliation de ${company}`}
          >
            Résilier
          </Button>
          {formOpen && <TerminationDialog actor={actor} company={company} fallbackFocus={fallbackFocus} />}
        </>
      )}
    </div>
  )
}

function TerminationDialog({
  actor,
  company,
  fallbackFocus,
}: {
  actor: TerminationRef
  company: string
  fallbackFocus: () => HTMLElement | null
}) {
  const draft = useSelector(actor, (s) => s.context.draft)
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors)
  const earliestDate = useSelector(actor, (s) => s.context.earliestDate)
  const latestDate = useSelector(actor, (s) => s.context.latestDate)
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const change = (value: Partial<typeof draft>) => actor.send({ type: 'termination.change', draft: value })
  const described = (field: keyof typeof draft, hint = false) =>
    [fieldErrors[field] && `termination-${field}-error`, hint && `termination-${field}-hint`].filter(Boolean).join(' ') || undefined
  return (
    <Modal
      title={`Résilier la domiciliation de ${company}`}
      onClose={() => actor.send({ type: 'termination.cancel' })}
      locked={busy}
      fallbackFocus={fallbackFocus}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={() => actor.send({ type: 'termination.cancel' })} disabled={busy}>
            Annuler
          </Button>
          <Button type="submit" form="termination-form" $variant="danger" disabled={busy}>
            {busy ? 'Envoi…' : 'Envoyer la demande'}
          </Button>
        </>
      }
    >
      <form
        id="termination-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          actor.send({ type: 'termination.submit' })
        }}
      >
        {error && (
          <Alert $kind="error" role="alert">
            {error}
          </Alert>
        )}
        <Field id="termination-reason" label="Motif" error={fieldErrors.reason}>
          <select
            id="termination-reason"
            value={draft.reason}
            data-autofocus
            aria-invalid={!!fieldErrors.reason}
            aria-describedby={described('reason')}
            onChange={(e) => change({ reason: e.target.value })}
          >
            <option value="">Choisissez…</option>
            {TERMINATION_REASONS.map((reason) => (
              <option key={reason} value={reason}>
                {reason}
              </option>
            ))}
          </select>
        </Field>
        <Field
          id="termination-comment"
          label={draft.reason === OTHER_REASON ? 'Précisions' : 'Précisions (facultatif)'}
          error={fieldErrors.comment}
        >
          <textarea
            id="termination-comment"
            rows={3}
            maxLength={2000}
            value={draft.comment}
            aria-invalid={!!fieldErrors.comment}
            aria-describedby={described('comment')}
            onChange={(e) => change({ comment: e.target.value })}
          />
        </Field>
        <Field
          id="termination-date"
          label="Date de résiliation souhaitée"
          error={fieldErrors.date}
          hint={
            earliestDate
              ? `Au plus tôt le ${frenchDay(earliestDate)}, fin de la période en cours${latestDate ? `, au plus tard le ${frenchDay(latestDate)}` : ''}.`
              : undefined
          }
        >
          <input
            id="termination-date"
            type="date"
            value={draft.date}
            min={earliestDate ?? undefined}
            max={latestDate ?? undefined}
            aria-invalid={!!fieldErrors.date}
            aria-describedby={described('date', !!earliestDate)}
            onChange={(e) => change({ date: e.target.value })}
          />
        </Field>
      </form>
    </Modal>
  )
}
