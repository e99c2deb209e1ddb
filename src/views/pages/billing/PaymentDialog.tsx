// "Payer": the amount and the card, then the payment; without a card, the way to /moyen-de-paiement; a declined card
// says why and nothing changes.
import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import type { invoiceBookMachine } from '../../../machines/invoiceBook.machine.ts'
import { Modal } from '../../components/Modal.tsx'
import { Alert, Button, formatEuros } from '../../components/ui.tsx'

export function PaymentDialog({ actor }: { actor: ActorRefFrom<typeof invoiceBookMachine> }) {
  const payment = useSelector(actor, (s) => s.context.payment)
  const noCard = useSelector(actor, (s) => s.matches('noCard'))
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const error = useSelector(actor, (s) => s.context.error)
  const cancel = () => actor.send({ type: 'payment.cancel' })
  if (!payment) return null
  if (noCard) {
    return (
      <Modal title="Aucune carte enregistrée" onClose={cancel} footer={<Button type="button" $variant="secondary" onClick={cancel}>Fermer</Button>}>
        <p>{error}</p>
        <p><Link href="/moyen-de-paiement">Enregistrer une carte</Link>, puis revenez régler la facture.</p>
      </Modal>
    )
  }
  return (
    <Modal title="Régler la facture" onClose={cancel} locked={busy}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={cancel} disabled={busy}>Annuler</Button>
          <Button type="button" onClick={() => actor.send({ type: 'payment.confirm' })} disabled={busy} data-autofocus>
            {busy ? 'Paiement…' : 'Confirmer le paiement'}
          </Button>
        </>
      }>
      <p>
        Les factures impayées de {payment.raisonSociale} seront réglées avec la carte enregistrée pour cette domiciliation :
        {' '}{payment.count > 1 ? `${payment.count} factures` : 'une facture'} sur cette année, <strong>{formatEuros(payment.amountInclTaxCents)} TTC</strong>.
      </p>
      {error && <Alert $kind="error" role="alert">{error}</Alert>}
    </Modal>
  )
}
