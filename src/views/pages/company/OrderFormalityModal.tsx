// The confirmation of an order: the formality, what it needs, its price and time, and a comment for
// the jurists; a refusal keeps the comment and says why.
import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import type { formalityOrderMachine } from '../../../machines/company/formalityOrder.machine.ts'
import { Modal } from '../../components/Modal.tsx'
import { Alert, Button, Field, formatEuros } from '../../components/ui.tsx'
import { PAGE_CONTENT_ID } from '../../components/useFocusWhenShown.ts'
import { catalogue } from './catalogue.ts'

export function OrderFormalityModal({ actor, company }: { actor: ActorRefFrom<typeof formalityOrderMachine>; company: string }) {
  const kind = useSelector(actor, (s) => s.context.kind)
  const comment = useSelector(actor, (s) => s.context.comment)
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const formality = catalogue.find((f) => f.kind === kind)
  if (!formality) return null
  const cancel = () => actor.send({ type: 'formality.cancel' })
  return (
    // Recorded, the app goes to /formalites: the catalogue and its "Commander" are gone, the focus waits on the page's
    // content until /formalites gives it to its heading (useFocusOnArrival).
    <Modal
      title={`Commander : ${formality.label}`}
      onClose={cancel}
      locked={busy}
      fallbackFocus={() => document.getElementById(PAGE_CONTENT_ID)}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={cancel} disabled={busy}>
            Annuler
          </Button>
          <Button type="submit" form="formality-form" disabled={busy}>
            {busy ? 'Envoi…' : 'Confirmer la commande'}
          </Button>
        </>
      }
    >
      <form
        id="formality-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          actor.send({ type: 'formality.confirm' })
        }}
      >
        <p>
          Pour <strong>{company}</strong> : {formatEuros(formality.priceExclTaxCents)} HT (hors frais de greffe et d’annonce légale),{' '}
          {formality.delay}. Nos juristes vous contactent pour réunir les pièces :
        </p>
        <ul>
          {formality.needs.map((need) => (
            <li key={need}>{need}</li>
          ))}
        </ul>
        {error && (
          <Alert $kind="error" role="alert">
            {error}
          </Alert>
        )}
        <Field id="formality-comment" label="Précisions pour nos juristes (facultatif)" hint="2 000 caractères au plus">
          <textarea
            id="formality-comment"
            rows={4}
            maxLength={2000}
            value={comment}
            data-autofocus
            aria-describedby="formality-comment-hint"
            onChange={(e) => actor.send({ type: 'formality.comment', comment: e.target.value })}
          />
        </Field>
      </form>
    </Modal>
  )
}
