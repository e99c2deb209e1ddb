// "Payer": the amount (the order's unpaid invoices of every year, counted first) and the card, then the payment; without a
// card, the way to /moyen-de-paiement; a declined card says why and nothing changes.
import { useSelector } from '@xstate/react'
import { useEffect, useRef } from 'react'
import { Link } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import type { invoiceBookMachine } from '../../../machines/billing/invoiceBook.machine.ts'
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
  // The focus stays inside, on the control that fits what is shown: "Annuler" while the amount is counted (nothing to
  // confirm yet), then "Réessayer" or "Confirmer le paiement", the dialog itself while paying (every button disabled).
  // It moves only when lost (its control gone, disabled or outside) or still on "Annuler" from the count.
  const cancelRef = useRef<HTMLButtonElement>(null)
  const primaryRef = useRef<HTMLButtonElement>(null)
  const phase = counting ? 'counting' : countFailed ? 'countFailed' : busy ? 'paying' : 'confirming'
  useEffect(() => {
    const dialog = cancelRef.current?.closest<HTMLElement>('[role="dialog"]')
    if (!dialog) return
    const focused = document.activeElement as HTMLElement | null
    const lost = !focused || focused === dialog || !dialog.contains(focused) || (focused as HTMLButtonElement).disabled === true
    if (phase === 'counting') {
      if (lost) cancelRef.current!.focus()
    } else if (phase === 'paying') {
      if (lost) dialog.focus()
    } else if (lost || focused === cancelRef.current) primaryRef.current?.focus()
  }, [phase])
  if (!payment) return null
  if (noCard) {
    return (
      // Another dialog (its own key): the focus enters it afresh, on the way forward, and its title is announced.
      <Modal
        key="noCard"
        title="Aucune carte enregistrée"
        onClose={cancel}
        fallbackFocus={invoicesHeading}
        footer={
          <Button type="button" $variant="secondary" onClick={cancel}>
            Fermer
          </Button>
        }
      >
        <p>{error}</p>
        <p>
          <Link href="/moyen-de-paiement" data-autofocus>
            Enregistrer une carte
          </Link>
          , puis revenez régler la facture.
        </p>
      </Modal>
    )
  }
  return (
    <Modal
      key="payment"
      title="Régler la facture"
      onClose={cancel}
      locked={busy}
      fallbackFocus={invoicesHeading}
      footer={
        <>
          <Button
            type="button"
            $variant="secondary"
            onClick={cancel}
            disabled={busy}
            ref={cancelRef}
            data-autofocus={counting || undefined}
          >
            Annuler
          </Button>
          {countFailed ? (
            <Button type="button" onClick={() => actor.send({ type: 'payment.retry' })} ref={primaryRef}>
              Réessayer
            </Button>
          ) : (
            <Button
              type="button"
              onClick={() => actor.send({ type: 'payment.confirm' })}
              disabled={busy || counting}
              ref={primaryRef}
              data-autofocus={!counting || undefined}
            >
              {counting ? 'Calcul du montant…' : busy ? 'Paiement…' : 'Confirmer le paiement'}
            </Button>
          )}
        </>
      }
    >
      {counting || countFailed ? (
        <p aria-live="polite">
          {counting
            ? `Calcul du montant des factures impayées de ${payment.raisonSociale}…`
            : `Le montant à régler pour ${payment.raisonSociale} n’a pas pu être calculé.`}
        </p>
      ) : (
        <p>
          Les factures impayées de {payment.raisonSociale} seront réglées avec la carte enregistrée pour cette domiciliation :{' '}
          {payment.count > 1 ? `${payment.count} factures` : 'une facture'}
          {yearsOf(payment.years)}, <strong>{formatEuros(payment.amountInclTaxCents)} TTC</strong>.
        </p>
      )}
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
    </Modal>
  )
}

/**
 * Where the focus goes when the dialog closes on a paid invoice: its "Payer" is gone, the list's heading (InvoicesPage's ids, tabIndex -1)
 * is not.
 */
function invoicesHeading(): HTMLElement | null {
  return document.getElementById('year-invoices') ?? document.getElementById('invoices-title')
}

/** The years of the invoices paid: " de 2026", " (2026 et 2025)" (the year shown is not the only one paid). */
function yearsOf(years: number[]): string {
  if (years.length === 1) return ` de ${years[0]}`
  return ` (${years.slice(0, -1).join(', ')} et ${years.at(-1)})`
}
