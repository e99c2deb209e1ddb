// The problem modal (spec §2): 'Signaler un problème', 'Votre message', 'Envoyer'.
import { useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { problemReportMachine } from '../../../machines/notifications/problemReport.machine.ts'
import { Modal } from '../../components/Modal.tsx'
import { Button, Field } from '../../components/ui.tsx'

export function ProblemModal({
  actor,
  orderId,
  company,
  fallbackFocus,
}: {
  actor: ActorRefFrom<typeof problemReportMachine>
  orderId: number | null
  company: string | null
  /** Where the focus goes on close when its opener cannot take it (on a phone, in the drawer closed and inert). */
  fallbackFocus: () => HTMLElement | null
}) {
  const message = useSelector(actor, (s) => s.context.message)
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))

  function submit(event: FormEvent) {
    event.preventDefault()
    actor.send({ type: 'problem.submit', orderId })
  }

  return (
    <Modal
      title="Signaler un problème"
      onClose={() => actor.send({ type: 'problem.close' })}
      locked={busy}
      fallbackFocus={fallbackFocus}
      footer={
        <Button type="submit" form="problem-form" disabled={busy}>
          {busy ? 'Envoi…' : 'Envoyer'}
        </Button>
      }
    >
      <form id="problem-form" onSubmit={submit} noValidate>
        <p>
          {company
            ? `Votre message concerne ${company}.`
            : 'Choisissez d’abord la domiciliation concernée dans le sélecteur « Domiciliation ».'}
        </p>
        <Field id="problem-message" label="Votre message" error={error}>
          <textarea
            id="problem-message"
            rows={6}
            maxLength={5000}
            value={message}
            data-autofocus
            aria-invalid={!!error}
            onChange={(e) => actor.send({ type: 'problem.change', message: e.target.value })}
          />
        </Field>
      </form>
    </Modal>
  )
}
