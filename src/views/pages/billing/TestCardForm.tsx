// "Remplacer ma carte": the dialog asks the server which provider takes the card. The local test provider: its own
// card form (number with Luhn, expiry MM/AA, CVC), the card going to the provider, never to our API. The real provider
// (STRIPE_SECRET_KEY): Stripe.js's card field, in Stripe's own frame (HostedCardField). Either way only the pm_… id
// comes back, attached by PUT …/payment-method.
import { useActorRef, useSelector } from '@xstate/react'
import { useEffect, useRef } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { CardDraft, cardReplacementMachine, HostedCard } from '../../../machines/billing/cardReplacement.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { Modal } from '../../components/Modal.tsx'
import { Alert, Button, ErrorState, Spinner, TextField } from '../../components/ui.tsx'

type CardRef = ActorRefFrom<typeof cardReplacementMachine>

export function TestCardForm({ orderId, hasCard }: { orderId: number | null; hasCard: boolean }) {
  const flows = useFlows('billing')
  const now = new Date()
  const actor = useActorRef(flows.cardReplacement, { input: { orderId, today: { year: now.getFullYear(), month: now.getMonth() + 1 } } })
  const open = useSelector(actor, (s) => s.hasTag('form'))
  return (
    <>
      <Button type="button" onClick={() => actor.send({ type: 'card.open' })}>
        {hasCard ? 'Remplacer ma carte' : 'Enregistrer une carte'}
      </Button>
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
  const preparing = useSelector(actor, (s) => s.hasTag('preparing'))
  const failed = useSelector(actor, (s) => s.matches('failed'))
  const hosted = useSelector(actor, (s) => s.context.hosted)
  const cancel = () => actor.send({ type: 'card.cancel' })
  return (
    <Modal
      title="Nouvelle carte"
      onClose={cancel}
      locked={busy && !preparing}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={cancel} disabled={busy && !preparing}>
            Annuler
          </Button>
          {!failed && !preparing && (
            <Button type="submit" form="card-form" disabled={busy}>
              {busy ? 'Enregistrement…' : 'Enregistrer la carte'}
            </Button>
          )}
        </>
      }
    >
      {failed && <ErrorState message={error ?? ''} onRetry={() => actor.send({ type: 'card.retry' })} />}
      {preparing && <Spinner label="Chargement du formulaire de carte…" />}
      {!failed && !preparing && (
        <form
          id="card-form"
          noValidate
          aria-busy={busy}
          onSubmit={(e) => {
            e.preventDefault()
            actor.send({ type: 'card.submit' })
          }}
        >
          {error && (
            <Alert $kind="error" role="alert">
              {error}
            </Alert>
          )}
          {hosted ? (
            <HostedCardField hosted={hosted} />
          ) : (
            <p>
              Formulaire de carte du fournisseur de paiement de test : seules ses cartes de test sont acceptées, par exemple 4242 4242 4242
              4242 ou 5555 5555 5555 4444.
            </p>
          )}
          {!hosted &&
            fields.map(([field, label, autoComplete, placeholder], index) => (
              <TextField
                key={field}
                id={`card-${field}`}
                label={label}
                value={draft[field]}
                error={fieldErrors[field]}
                autoComplete={autoComplete}
                inputMode="numeric"
                placeholder={placeholder}
                autoFocus={index === 0}
                maxLength={field === 'number' ? 23 : field === 'expiry' ? 7 : 4}
                onChange={(value) => actor.send({ type: 'card.change', draft: { [field]: value } })}
              />
            ))}
        </form>
      )}
    </Modal>
  )
}

/** Stripe's card field, drawn in its own frame inside this element; let go when the dialog closes. */
function HostedCardField({ hosted }: { hosted: HostedCard }) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!ref.current) return
    hosted.mount(ref.current)
    return () => hosted.destroy()
  }, [hosted])
  return (
    <div>
      <p id="hosted-card-label">Carte bancaire (saisie sécurisée par Stripe : le numéro ne passe pas par nos serveurs)</p>
      {/* biome-ignore lint/a11y/useSemanticElements: the box Stripe.js fills with its own fields, named by the line above */}
      <div
        ref={ref}
        data-testid="hosted-card"
        role="group"
        aria-labelledby="hosted-card-label"
        style={{ padding: '0.75rem', border: '1px solid #cbd5e1', borderRadius: 6, minHeight: 44 }}
      />
    </div>
  )
}
