import '../../util/dom.ts'
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Invoice, PaymentMethod } from '../../../server/contract/billing.ts'
import * as F from '../../util/fixtures.ts'
import { renderApp, type BillingScenario } from '../../util/services.tsx'

const YEAR = new Date().getFullYear()
const invoices: Invoice[] = [
  {
    id: 41,
    domId: 2,
    raisonSociale: 'Boulangerie des Lilas SAS',
    number: `FA-${YEAR}-41`,
    date: `${YEAR}-10-01T10:00:00.000Z`,
    amountExclTaxCents: 29000,
    amountInclTaxCents: 34800,
    paid: false,
  },
  {
    id: 40,
    domId: 2,
    raisonSociale: 'Boulangerie des Lilas SAS',
    number: `FA-${YEAR}-40`,
    date: `${YEAR}-03-01T10:00:00.000Z`,
    amountExclTaxCents: 29000,
    amountInclTaxCents: 34800,
    paid: true,
  },
]
// happy-dom keeps the focus on a button that gets disabled ("Confirmer le paiement" while paying); Chrome drops it to
// <body> (the focus fixup rule), Firefox leaves it where no key reaches. Chrome's behaviour, for these tests:
const setAttribute = Element.prototype.setAttribute
Element.prototype.setAttribute = function (this: Element, name: string, value: string) {
  // Blurred first: happy-dom does not blur a disabled element.
  if (name === 'disabled' && this === document.activeElement) (this as HTMLElement).blur()
  setAttribute.call(this, name, value)
}
const visa: PaymentMethod = { id: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: YEAR + 2 }

/** /factures, "Payer" focused then pressed as a keyboard user would, up to "Confirmer le paiement" focused. */
async function payWith(payOutcome: NonNullable<BillingScenario['payOutcome']>) {
  const app = await renderApp('/factures', {
    signedIn: true,
    defaultOrder: 2,
    orders: [F.boulangerie],
    data: { invoices, card: visa },
    billing: { years: [YEAR], payOutcome },
  })
  const pay = await screen.findByRole('button', { name: `Payer la facture FA-${YEAR}-41` })
  pay.focus()
  fireEvent.click(pay)
  const dialog = await screen.findByRole('dialog', { name: 'Régler la facture' })
  const confirm = await within(dialog).findByRole('button', { name: 'Confirmer le paiement' })
  await waitFor(() => assertFocusOn(confirm, '"Confirmer le paiement"'))
  return { app, pay, dialog, confirm }
}

/** The focus is on `element` (elements compared by identity: uvu's diff of two DOM nodes says nothing). */
function assertFocusOn(element: Element, what: string) {
  const focused = document.activeElement
  assert.ok(
    focused === element,
    `the focus should be on ${what}, it is on ${focused === document.body ? '<body>' : `${focused?.tagName} « ${focused?.textContent?.slice(0, 60)} »`}`,
  )
}

const PaymentFocus = suite('/factures "Payer": the focus stays in the dialog, and lands somewhere that exists once it closes')
PaymentFocus.after.each(() => cleanup())

PaymentFocus('no card: the focus is on "Enregistrer une carte" inside the dialog, and Escape (pressed there) closes it', async () => {
  const { pay, confirm } = await payWith('noCard')
  fireEvent.click(confirm)
  const dialog = await screen.findByRole('dialog', { name: 'Aucune carte enregistrée' })
  const link = within(dialog).getByRole('link', { name: 'Enregistrer une carte' })
  await waitFor(() => assertFocusOn(link, '"Enregistrer une carte", in the dialog'))
  fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
  await waitFor(() => assert.ok(screen.queryByRole('dialog') === null, 'Escape closed the dialog'))
  assertFocusOn(pay, 'the "Payer" that opened the dialog (the invoice is still to pay)')
})

PaymentFocus(
  'declined: while paying the focus is on the dialog (every button disabled), then back on "Confirmer le paiement"',
  async () => {
    const { dialog, confirm } = await payWith('declined')
    fireEvent.click(confirm)
    // Still paying: the answer comes with the next await.
    assert.ok(confirm.hasAttribute('disabled'), 'paying')
    assertFocusOn(dialog, 'the dialog')
    await within(dialog).findByText('Votre carte a été refusée par votre banque : aucun montant n’a été prélevé. Essayez une autre carte.')
    const retry = within(dialog).getByRole('button', { name: 'Confirmer le paiement' })
    assert.not.ok(retry.hasAttribute('disabled'))
    await waitFor(() => assertFocusOn(retry, '"Confirmer le paiement", in the dialog'))
  },
)

PaymentFocus('paid: the "Payer" that opened the dialog is gone; the focus goes to the heading of the list, not to <body>', async () => {
  const { pay, confirm } = await payWith('paid')
  fireEvent.click(confirm)
  await waitFor(() => assert.ok(screen.queryByRole('dialog') === null, 'the dialog closed'))
  assert.not.ok(document.contains(pay), 'the opener is gone')
  const heading = screen.getByRole('heading', { name: `Factures ${YEAR}` })
  assertFocusOn(heading, `the heading "Factures ${YEAR}"`)
  assert.is(heading.tabIndex, -1, 'focusable by the script, not by Tab')
})

PaymentFocus.after(() => {
  Element.prototype.setAttribute = setAttribute
})
PaymentFocus.run()
