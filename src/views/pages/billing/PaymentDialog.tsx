// "Payer": the amount (the order's unpaid invoices of every year, counted first) and the card, then the payment; without a
// card, the way to /moyen-de-paiement; a declined card says why and nothing changes.
import { useSelector } from '@xstate/react'
import { useEffect, useRef } from 'react'
import { Link } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import type { invoiceBookMachine } from '../../../machines/invoiceBook.machine.ts'
import { Modal } from '../../components/Modal.tsx'
import { Alert, Button, formatEuros } from '../../components/ui.tsx'

export function PaymentDialog({ actor }: { actor: ActorRefFrom<typeof invoiceBookMachine> }) {
  const payment = useSelector(actor, (s) => s.context.payment)
  const noCard = useSelector(actor, (s) => s.matches('noCard'))
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const counting = useSelector(actor, (s) => s.matches('countingUnpaid'))
  const countFailed = useSelector(actor, (s) => s.matches('countFailed'))
  const error = useSelector(actor, (s) => s.context.error)
  const cancel = () => actor.send({ type: 'payment.cancel' })
  // The dialog opens on "Annuler" while the amount is counted (nothing to confirm yet); once it is known, or could not
  // be, the focus moves on to "Confirmer le paiement" or "Réessayer", if it is still on "Annuler" (or was lost with "Réessayer").
  const cancelRef = useRef<HTMLButtonElement>(null)
  const primaryRef = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (!counting && (document.activeElement === cancelRef.current || document.activeElement === document.body)) primaryRef.current?.focus()
  }, [counting, countFailed])
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
          <Button type="button" $variant="secondary" onClick={cancel} disabled={busy} ref={cancelRef} data-autofocus={counting || undefined}>Annuler</Button>
          {countFailed
            ? <Button type="button" onClick={() => actor.send({ type: 'payment.retry' })} ref={primaryRef}>Réessayer</Button>
            : (
              <Button type="button" onClick={() => actor.send({ type: 'payment.confirm' })} disabled={busy || counting} ref={primaryRef} data-autofocus={!counting || undefined}>
                {counting ? 'Calcul du montant…' : busy ? 'Paiement…' : 'Confirmer le paiement'}
              </Button>
            )}
        </>
      }>
      {counting || countFailed
        ? <p aria-live="polite">{counting ? `Calcul du montant des factures impayées de ${payment.raisonSociale}…` : `Le montant à régler pour ${payment.raisonSociale} n’a pas pu être calculé.`}</p>
        : (
          <p>
            Les factures impayées de {payment.raisonSociale} seront réglées avec la carte enregistrée pour cette domiciliation :
            {' '}{payment.count > 1 ? `${payment.count} factures` : 'une facture'}{yearsOf(payment.years)}, <strong>{formatEuros(payment.amountInclTaxCents)} TTC</strong>.
          </p>
        )}
      {error && <Alert $kind="error" role="alert">{error}</Alert>}
    </Modal>
  )
}

/** The years of the invoices paid: " de 2026", " (2026 et 2025)" (the year shown is not the only one paid). */
function yearsOf(years: number[]): string {
  if (years.length === 1) return ` de ${years[0]}`
  return ` (${years.slice(0, -1).join(', ')} et ${years.at(-1)})`
}
