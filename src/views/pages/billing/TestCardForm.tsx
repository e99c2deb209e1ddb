// The local test payment provider's own card form: number (Luhn), expiry (MM/AA), CVC. The card goes to the provider
// (never to our API); only its pm_… id comes back to be attached. With the real provider (STRIPE_SECRET_KEY) its hosted
// card element takes this place (see README: not built here).
import { useActorRef, useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import type { CardDraft, cardReplacementMachine } from '../../../machines/cardReplacement.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { Modal } from '../../components/Modal.tsx'
import { Alert, Button, TextField } from '../../components/ui.tsx'

type CardRef = ActorRefFrom<typeof cardReplacementMachine>

export function TestCardForm({ orderId, hasCard }: { orderId: number | null; hasCard: boolean }) {
  const flows = useFlows()
  const now = new Date()
  const actor = useActorRef(flows.cardReplacement, { input: { orderId, today: { year: now.getFullYear(), month: now.getMonth() + 1 } } })
  const open = useSelector(actor, (s) => s.hasTag('form'))
  return (
    <>
      <Button type="button" onClick={() => actor.send({ type: 'card.open' })}>{hasCard ? 'Remplacer ma carte' : 'Enregistrer une carte'}</Button>
      {open && <CardDialog actor={actor} />}
    </>
  )
}

const fields: [keyof CardDraft, string, string, string][] = [
  ['number', 'Numéro de carte', 'cc-number', '4242 4242 4242 4242'],
  ['expiry', 'Date d’expiration (MM/AA)', 'cc-exp', 'MM/AA'],
  ['cvc', 'Cryptogramme (CVC)', 'cc-csc', '123'],
]

function CardDialog({ actor }: { actor: CardRef }) {
  const draft = useSelector(actor, (s) => s.context.draft)
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors)
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const cancel = () => actor.send({ type: 'card.cancel' })
  return (
    <Modal title="Nouvelle carte" onClose={cancel} locked={busy}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={cancel} disabled={busy}>Annuler</Button>
          <Button type="submit" form="card-form" disabled={busy}>{busy ? 'Enregistrement…' : 'Enregistrer la carte'}</Button>
        </>
      }>
      <form id="card-form" noValidate aria-busy={busy} onSubmit={(e) => { e.preventDefault(); actor.send({ type: 'card.submit' }) }}>
        <p>Formulaire de carte du fournisseur de paiement de test : seules ses cartes de test sont acceptées, par exemple 4242 4242 4242 4242 ou 5555 5555 5555 4444.</p>
        {error && <Alert $kind="error" role="alert">{error}</Alert>}
        {fields.map(([field, label, autoComplete, placeholder], index) => (
          <TextField key={field} id={`card-${field}`} label={label} value={draft[field]} error={fieldErrors[field]} autoComplete={autoComplete}
            inputMode="numeric" placeholder={placeholder} autoFocus={index === 0} maxLength={field === 'number' ? 23 : field === 'expiry' ? 7 : 4}
            onChange={(value) => actor.send({ type: 'card.change', draft: { [field]: value } })} />
        ))}
      </form>
    </Modal>
  )
}
