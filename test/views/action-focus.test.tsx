import '../util/dom.ts'
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { CreditNote, Invoice } from '../../server/contract/billing.ts'
import * as F from '../util/fixtures.ts'
import { setViewport } from '../util/dom.ts'
import { renderApp, type Scenario } from '../util/services.tsx'

// happy-dom keeps the focus on a control that gets disabled (a request under way), or whose fieldset does; Chrome drops
// it to <body>. Chrome's behaviour, for these tests (as in payment-focus.test.tsx):
const setAttribute = Element.prototype.setAttribute
Element.prototype.setAttribute = function (this: Element, name: string, value: string) {
  const focused = document.activeElement
  if (name === 'disabled' && focused && (this === focused || (this.tagName === 'FIELDSET' && this.contains(focused))))
    (focused as HTMLElement).blur()
  setAttribute.call(this, name, value)
}
// …nor can a control of a disabled fieldset take it back (happy-dom lets it: React gives the focus back after a render).
const focus = HTMLElement.prototype.focus
HTMLElement.prototype.focus = function (this: HTMLElement, options?: FocusOptions) {
  if (this.matches('input, button, select, textarea') && this.closest('fieldset[disabled]')) return
  focus.call(this, options)
}

/** A file handed to the browser (an <a download> clicked) is not followed: happy-dom would leave the window on the blob: link. */
const clickLink = HTMLAnchorElement.prototype.click
HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
  if (!this.download) clickLink.call(this)
}

const open = (path: string, scenario: Scenario & { defaultOrder?: number | 'all' } = {}) =>
  renderApp(path, { signedIn: true, defaultOrder: 2, ...scenario })

/** The focus is on `element` (compared by identity: uvu's diff of two DOM nodes says nothing). */
function assertFocusOn(element: Element, what: string) {
  const focused = document.activeElement
  assert.ok(
    focused === element,
    `the focus should be on ${what}, it is on ${focused === document.body ? '<body>' : `${focused?.tagName} « ${focused?.textContent?.slice(0, 60)} »`}`,
  )
}

/** Focused then pressed, as a keyboard user would. */
function press(button: HTMLElement) {
  button.focus()
  fireEvent.click(button)
}

const ActionFocus = suite('an action that replaces its own control: the focus goes to what replaces it, not to <body>')
ActionFocus.before.each(() => setViewport(1280))
ActionFocus.after.each(() => cleanup())

ActionFocus('"Résilier", the request sent: the focus is on "Résiliation demandée pour le …"', async () => {
  await open('/gestion-de-mon-entreprise')
  const termination = within(await screen.findByRole('region', { name: 'Résilier ma domiciliation' }))
  press(await termination.findByRole('button', { name: 'Résilier la domiciliation de Boulangerie des Lilas SAS' }))
  const dialog = await screen.findByRole('dialog')
  fireEvent.change(within(dialog).getByLabelText('Motif'), { target: { value: 'Transfert du siège social' } })
  fireEvent.change(within(dialog).getByLabelText('Date de résiliation souhaitée'), { target: { value: '2027-07-01' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Envoyer la demande' }))
  const notice = await termination.findByText('Résiliation demandée pour le 1er juillet 2027.')
  await waitFor(() => assertFocusOn(notice, 'the notice'))
})

/** On /souscription/mes-abonnements, a termination asked and refused with `refusal`: its dialog, once "Envoyer la demande" is pressed. */
async function refusedTermination(refusal: { status: number; message: string }) {
  await open('/souscription/mes-abonnements', { billing: { terminationRefused: refusal } })
  press(await screen.findByRole('button', { name: /Résilier la domiciliation/ }))
  const dialog = await screen.findByRole('dialog')
  fireEvent.change(within(dialog).getByLabelText('Motif'), { target: { value: 'Tarifs trop élevés' } })
  press(within(dialog).getByRole('button', { name: 'Envoyer la demande' }))
  return dialog
}

ActionFocus('"Résilier" refused by a 409: the focus stays where the request is read, then on its notice', async () => {
  await refusedTermination({ status: 409, message: 'Une demande de résiliation est déjà enregistrée pour cette domiciliation.' })
  const notice = await screen.findByText('Résiliation demandée pour le 31 août 2027.')
  await waitFor(() => assertFocusOn(notice, 'the notice'))
})

ActionFocus(
  'a dialog whose button is disabled while its call runs, then refused: the focus stays in the dialog, never on <body>',
  async () => {
    const dialog = await refusedTermination({ status: 503, message: 'Le service est momentanément indisponible.' })
    await within(dialog).findByText('Le service est momentanément indisponible.')
    await waitFor(() => assert.ok(dialog.contains(document.activeElement), `the focus is on ${document.activeElement?.tagName}`))
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    await waitFor(() => assert.is(screen.queryByRole('dialog'), null, 'Escape still reaches the dialog'))
  },
)

ActionFocus('"Je veux être contacté par un expert-comptable": the focus goes to "Demande envoyée"', async () => {
  await open('/gestion-de-mon-entreprise')
  const accountant = within(await screen.findByRole('region', { name: 'Un expert-comptable pour votre société' }))
  press(accountant.getByRole('button', { name: 'Je veux être contacté par un expert-comptable' }))
  const badge = await accountant.findByText('Demande envoyée')
  await waitFor(() => assertFocusOn(badge, '"Demande envoyée"'))
})

ActionFocus('"Ça m’intéresse" refused: the focus goes back to the button', async () => {
  await open('/suivi-comptable/tresorerie', { company: { fails: ['shine'] } })
  const shine = within(await screen.findByRole('region', { name: 'Shine' }))
  press(shine.getByRole('button', { name: "Ça m'intéresse : Shine" }))
  await shine.findByText(/momentanément indisponible/)
  await waitFor(() => assertFocusOn(shine.getByRole('button', { name: "Ça m'intéresse : Shine" }), 'the button'))
})

ActionFocus(
  'the forwarding address saved, or the form cancelled: the focus goes to "Modifier l’adresse"; refused, back to "Enregistrer l’adresse"',
  async () => {
    await open('/souscription/attestation-contrats')
    press(await screen.findByRole('button', { name: /Indiquer une adresse de réexpédition/ }))
    // The form comes with the next render: on a loaded machine, not at once.
    press(await screen.findByRole('button', { name: 'Annuler' }))
    await waitFor(() =>
      assertFocusOn(screen.getByRole('button', { name: /Indiquer une adresse de réexpédition/ }), '"Indiquer une adresse"'),
    )
    press(screen.getByRole('button', { name: /Indiquer une adresse de réexpédition/ }))
    fireEvent.change(await screen.findByLabelText('Numéro et rue'), { target: { value: '3 place du Marché' } })
    fireEvent.change(screen.getByLabelText('Code postal'), { target: { value: '69002' } })
    fireEvent.change(screen.getByLabelText('Ville'), { target: { value: 'Lyon' } })
    press(screen.getByRole('button', { name: 'Enregistrer l’adresse' }))
    await screen.findByText('69002 Lyon')
    await waitFor(() =>
      assertFocusOn(
        screen.getByRole('button', { name: 'Modifier l’adresse de réexpédition de Boulangerie des Lilas SAS' }),
        '"Modifier l’adresse"',
      ),
    )
    cleanup()
    await open('/souscription/attestation-contrats', { billing: { addressFails: true } })
    press(await screen.findByRole('button', { name: /Indiquer une adresse de réexpédition/ }))
    fireEvent.change(await screen.findByLabelText('Numéro et rue'), { target: { value: '3 place du Marché' } })
    fireEvent.change(screen.getByLabelText('Code postal'), { target: { value: '69002' } })
    fireEvent.change(screen.getByLabelText('Ville'), { target: { value: 'Lyon' } })
    press(screen.getByRole('button', { name: 'Enregistrer l’adresse' }))
    await screen.findByText(/n’a pas été enregistrée/)
    await waitFor(() => assertFocusOn(screen.getByRole('button', { name: 'Enregistrer l’adresse' }), '"Enregistrer l’adresse"'))
  },
)

ActionFocus('the Kbis sent: the banner is gone, the focus goes to the page’s content', async () => {
  await open('/tableau-de-bord', { defaultOrder: F.atelier.id })
  await screen.findByText('Bonjour Camille')
  press(within(screen.getByRole('region', { name: 'Justificatif d’immatriculation' })).getByRole('button', { name: 'Je dépose mon Kbis' }))
  const dialog = await screen.findByRole('dialog', { name: 'Déposer mon justificatif' })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Oui' }))
  const input = document.querySelector<HTMLInputElement>('input[type="file"][accept=".pdf"]')!
  fireEvent.change(input, { target: { files: [new File(['%PDF-1.7\n'], 'kbis.pdf', { type: 'application/pdf' })] } })
  await waitFor(() => assert.is(screen.queryByRole('region', { name: 'Justificatif d’immatriculation' }), null), { timeout: 5000 })
  await waitFor(() => assertFocusOn(screen.getByRole('main'), 'the page’s content (<main>)'))
})

ActionFocus('"Choisir" a company on a page about one: the focus goes to the page’s content', async () => {
  await open('/gestion-de-mon-entreprise', { defaultOrder: 'all' })
  press(within(await screen.findByRole('list', { name: 'Sociétés' })).getByRole('button', { name: 'Choisir Boulangerie des Lilas SAS' }))
  await screen.findByRole('region', { name: 'Boulangerie des Lilas SAS' })
  assertFocusOn(screen.getByRole('main'), 'the page’s content (<main>)')
})

ActionFocus('the accounting export sent: the focus is on its result; "Nouvel envoi", on the address', async () => {
  await open('/mes-courriers/export-comptable', {
    dextEmail: 'factures@dext.example.com',
    data: { documents: [F.letter(21, { sender: 'URSSAF Île-de-France' })] },
  })
  fireEvent.click(await screen.findByRole('checkbox', { name: /URSSAF Île-de-France/ }))
  press(await screen.findByRole('button', { name: 'Envoyer 1 pièce à ma comptabilité' }))
  const result = (await screen.findByText('1 pièce envoyée à factures@dext.example.com.')).closest('[role="status"]')!
  await waitFor(() => assertFocusOn(result, 'the result'))
  press(screen.getByRole('button', { name: 'Nouvel envoi' }))
  const email = await screen.findByLabelText('Adresse de votre boîte comptable (Dext)')
  await waitFor(() => assertFocusOn(email, 'the address'))
})

ActionFocus('a folder deleted: its "Supprimer" is gone, the focus goes to the page’s heading', async () => {
  await open('/mes-courriers/mes-dossiers', { data: { folders: [{ id: 7, name: 'Banque', domiciliationOrderId: 2, documentCount: 1 }] } })
  press(await screen.findByRole('button', { name: 'Supprimer le dossier Banque' }))
  const dialog = await screen.findByRole('dialog')
  press(within(dialog).getByRole('button', { name: 'Supprimer le dossier' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
  await waitFor(() => assertFocusOn(screen.getByRole('heading', { name: 'Mes dossiers', level: 2 }), 'the heading "Mes dossiers"'))
})

ActionFocus('a forwarding request cancelled: its "Annuler" is gone, the focus goes to the page’s heading', async () => {
  await open('/mes-courriers/reexpeditions', {
    data: {
      courierRequests: [
        {
          id: 5,
          orderId: 2,
          raisonSociale: 'Boulangerie des Lilas SAS',
          createdAt: '2024-03-05T14:00:00.000Z',
          kind: 'réexpédition',
          status: 'en attente',
          letterCount: 4,
          outcome: null,
        },
      ],
    },
  })
  press(within(await screen.findByRole('list', { name: 'Demandes' })).getByRole('button', { name: /Annuler la demande/ }))
  const dialog = await screen.findByRole('dialog', { name: 'Annuler cette demande ?' })
  press(within(dialog).getByRole('button', { name: 'Annuler la demande' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
  await waitFor(() =>
    assertFocusOn(screen.getByRole('heading', { name: 'Mes réexpéditions', level: 2 }), 'the heading "Mes réexpéditions"'),
  )
})

ActionFocus('a formality ordered: on /formalites, the focus goes to the page’s heading, not to <body>', async () => {
  const app = await open('/formalites-juridique')
  press(await screen.findByRole('button', { name: 'Commander : Transfert de siège social' }))
  const dialog = await screen.findByRole('dialog', { name: 'Commander : Transfert de siège social' })
  press(within(dialog).getByRole('button', { name: 'Confirmer la commande' }))
  await waitFor(() => assert.is(app.currentPath(), '/formalites'))
  const heading = await screen.findByRole('heading', { name: 'Mes formalités', level: 2 })
  await waitFor(() => assertFocusOn(heading, 'the heading "Mes formalités"'))
})

ActionFocus('/formalites opened from the menu or an address: the focus stays where it was', async () => {
  await open('/formalites')
  await screen.findByRole('heading', { name: 'Mes formalités', level: 2 })
  assert.is(document.activeElement, document.body)
})

ActionFocus.run()

/** A call the test holds until it says so (`release`), and its promise for the scenario's `held`. */
function holdCall() {
  let release!: () => void
  const promise = new Promise<void>((resolve) => (release = resolve))
  return { promise, release }
}

/** Unavailable, whichever way: said so (aria-disabled), or disabled (itself or by its fieldset). */
const unavailable = (control: HTMLElement) =>
  control.getAttribute('aria-disabled') === 'true' || (control as HTMLButtonElement).disabled || !!control.closest('fieldset[disabled]')

/**
 * `control` pressed (focused, then clicked) while `call` is held: it keeps the focus and says it is unavailable; pressed
 * again, and its form submitted again (as Enter in one of its fields does), nothing more is sent. Then the call is
 * released and `settled` awaited (what the screen shows once it answered), and `sent()` counts a single call.
 */
async function pressWhileHeld(
  control: HTMLElement,
  call: ReturnType<typeof holdCall>,
  sent: () => number,
  settled: () => Promise<unknown>,
) {
  press(control)
  await waitFor(() => assert.ok(unavailable(control), 'unavailable while its call runs'))
  assertFocusOn(control, 'the pressed control, while its call runs')
  assert.is(control.getAttribute('aria-disabled'), 'true', 'said unavailable (aria-disabled) while its call runs')
  press(control)
  const form = (control as HTMLButtonElement).form ?? control.closest('form')
  if (form) fireEvent.submit(form)
  assertFocusOn(control, 'the pressed control, pressed again')
  call.release()
  await settled()
  assert.is(sent(), 1, 'one call, however many presses')
}

const BusyFocus = suite('a button outside a dialog, pressed: the focus stays on it while its call runs, and after, never on <body>')
BusyFocus.before.each(() => setViewport(1280))
BusyFocus.after.each(() => cleanup())

for (const outcome of ['sent', 'refused'] as const) {
  BusyFocus(
    `"Envoyer la recommandation", ${outcome}: on the button while sending and after; a press meanwhile sends nothing more`,
    async () => {
      const call = holdCall()
      const app = await open('/mes-collaborateurs', {
        held: { sendInvite: call.promise },
        people: { fails: outcome === 'refused' ? ['referral'] : [] },
      })
      const region = within(await screen.findByRole('region', { name: 'Recommander Domicilium' }))
      fireEvent.change(region.getByLabelText('Son adresse e-mail'), { target: { value: 'ami@example.com' } })
      const button = region.getByRole('button', { name: 'Envoyer la recommandation' })
      press(button)
      await region.findByText('Envoi…')
      assertFocusOn(button, 'the button, while sending')
      assert.is(button.getAttribute('aria-disabled'), 'true', 'said unavailable meanwhile')
      press(button)
      call.release()
      await waitFor(() => assert.is(button.textContent, 'Envoyer la recommandation'))
      assertFocusOn(button, `the button, ${outcome}`)
      assert.is(button.getAttribute('aria-disabled'), null)
      assert.is(app.calls.people.filter(([name]) => name === 'sendInvite').length, 1)
    },
  )
}

BusyFocus('"Ça m’intéresse : Qonto" while its call runs: on the button; refused, still there', async () => {
  const call = holdCall()
  const app = await open('/suivi-comptable/tresorerie', { held: { setQonto: call.promise }, company: { fails: ['qonto'] } })
  const qonto = within(await screen.findByRole('region', { name: 'Qonto' }))
  const button = qonto.getByRole('button', { name: "Ça m'intéresse : Qonto" })
  press(button)
  await qonto.findByText('Envoi…')
  assertFocusOn(button, 'the button, while sending')
  press(button)
  call.release()
  await qonto.findByText(/momentanément indisponible/)
  assertFocusOn(button, 'the button, refused')
  assert.is(app.calls.interests.length, 1)
})

BusyFocus('"Je veux être contacté par un expert-comptable" while its call runs: on the button', async () => {
  const call = holdCall()
  await open('/gestion-de-mon-entreprise', { held: { wantComptable: call.promise } })
  const accountant = within(await screen.findByRole('region', { name: 'Un expert-comptable pour votre société' }))
  const button = accountant.getByRole('button', { name: 'Je veux être contacté par un expert-comptable' })
  press(button)
  await accountant.findByText('Envoi…')
  assertFocusOn(button, 'the button, while sending')
  call.release()
  const badge = await accountant.findByText('Demande envoyée')
  await waitFor(() => assertFocusOn(badge, '"Demande envoyée"'))
})

BusyFocus('"Enregistrer l’adresse" while saving: on the button; refused, still there', async () => {
  const call = holdCall()
  await open('/souscription/attestation-contrats', { held: { updateContractAddress: call.promise }, billing: { addressFails: true } })
  press(await screen.findByRole('button', { name: /Indiquer une adresse de réexpédition/ }))
  fireEvent.change(await screen.findByLabelText('Numéro et rue'), { target: { value: '3 place du Marché' } })
  fireEvent.change(screen.getByLabelText('Code postal'), { target: { value: '69002' } })
  fireEvent.change(screen.getByLabelText('Ville'), { target: { value: 'Lyon' } })
  const button = screen.getByRole('button', { name: 'Enregistrer l’adresse' })
  press(button)
  await screen.findByText('Enregistrement…')
  assertFocusOn(button, 'the button, while saving')
  call.release()
  await screen.findByText(/n’a pas été enregistrée/)
  assertFocusOn(button, 'the button, refused')
})

BusyFocus("the dashboard's 'Régler' while paying: on the button; a press or a submit meanwhile pays nothing more", async () => {
  const call = holdCall()
  const app = await open('/tableau-de-bord', {
    unpaid: { hasUnpaid: true, count: 1, amountInclTaxCents: 3480 },
    held: { payUnpaidInvoice: call.promise },
  })
  const banner = await screen.findByRole('region', { name: 'Factures impayées' })
  await pressWhileHeld(
    within(banner).getByRole('button', { name: 'Régler' }),
    call,
    () => app.calls.payments.length,
    () => waitFor(() => assert.is(screen.queryByRole('region', { name: 'Factures impayées' }), null)),
  )
  // Paid, the banner is gone with its button.
  await waitFor(() => assertFocusOn(screen.getByRole('main'), 'the page’s content (<main>)'))
})

BusyFocus(
  '/informations-personnelles "Enregistrer l’adresse" (the e-mail) while saving: on the button; a press or Enter meanwhile sends nothing more',
  async () => {
    const call = holdCall()
    const app = await open('/informations-personnelles', { held: { updateEmail: call.promise } })
    fireEvent.click(await screen.findByRole('button', { name: 'Modifier mon e-mail' }))
    fireEvent.change(await screen.findByLabelText('Nouvelle adresse e-mail'), { target: { value: 'camille.martin@example.com' } })
    await pressWhileHeld(
      screen.getByRole('button', { name: 'Enregistrer l’adresse' }),
      call,
      () => app.calls.people.filter(([name]) => name === 'updateEmail').length,
      () => waitFor(() => assert.match(screen.getByRole('region', { name: 'Adresse e-mail' }).textContent!, 'camille.martin@example.com')),
    )
  },
)

BusyFocus('"Modifier mon mot de passe" while saving: on the button; a press or Enter meanwhile sends nothing more', async () => {
  const call = holdCall()
  const app = await open('/informations-personnelles', { held: { updatePassword: call.promise } })
  const form = await screen.findByRole('form', { name: 'Modifier mon mot de passe' })
  fireEvent.change(within(form).getByLabelText('Mot de passe actuel'), { target: { value: 'Demo1234!' } })
  fireEvent.change(within(form).getByLabelText('Nouveau mot de passe'), { target: { value: 'une phrase de passe' } })
  fireEvent.change(within(form).getByLabelText('Confirmez le mot de passe'), { target: { value: 'une phrase de passe' } })
  const button = within(form).getByRole('button', { name: 'Modifier mon mot de passe' })
  await pressWhileHeld(
    button,
    call,
    () => app.calls.people.filter(([name]) => name === 'updatePassword').length,
    () => waitFor(() => assert.is((within(form).getByLabelText('Nouveau mot de passe') as HTMLInputElement).value, '')),
  )
  assertFocusOn(button, 'the button, the password changed')
})

BusyFocus('"Ajouter une clé d’accès" while the device is asked: on the button; a press meanwhile asks nothing more', async () => {
  const call = holdCall()
  const cancelled = Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' })
  ;(window as { PublicKeyCredential?: unknown }).PublicKeyCredential = function PublicKeyCredential() {}
  Object.defineProperty(navigator, 'credentials', {
    configurable: true,
    value: {
      create: async () => {
        throw cancelled
      },
      get: async () => {
        throw cancelled
      },
    },
  })
  try {
    const app = await open('/informations-personnelles', { held: { getPasskeyRegistrationOptions: call.promise } })
    const button = await screen.findByRole('button', { name: 'Ajouter une clé d’accès' })
    await pressWhileHeld(
      button,
      call,
      () => app.calls.people.filter(([name]) => name === 'getPasskeyRegistrationOptions').length,
      () => screen.findByText('L’ajout de la clé d’accès a été annulé.'),
    )
    assertFocusOn(button, 'the button, the ceremony cancelled')
  } finally {
    delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential
  }
})

BusyFocus('"Déconnecter les autres appareils" while signing them out: on the button; a press meanwhile sends nothing more', async () => {
  const call = holdCall()
  const app = await open('/informations-personnelles', {
    held: { signOutOtherSessions: call.promise },
    people: {
      sessions: [
        { id: 1, device: 'Chrome sur Linux', createdAt: '2026-11-20T10:00:00.000Z', lastUsedAt: '2026-11-22T10:00:00.000Z', current: true },
        { id: 2, device: 'Safari sur iOS', createdAt: '2026-11-02T10:00:00.000Z', lastUsedAt: '2026-11-21T10:00:00.000Z', current: false },
      ],
    },
  })
  await pressWhileHeld(
    await screen.findByRole('button', { name: 'Déconnecter les autres appareils' }),
    call,
    () => app.calls.people.filter(([name]) => name === 'signOutOtherSessions').length,
    () => screen.findByText('Aucun autre appareil n’est connecté.'),
  )
  // Its button gone with the other devices: the line that says so.
  await waitFor(() => assertFocusOn(screen.getByText('Aucun autre appareil n’est connecté.'), '"Aucun autre appareil n’est connecté."'))
})

BusyFocus(
  '/informations-personnelles: the e-mail form saved, or cancelled, is gone with its buttons: the focus goes to "Modifier mon e-mail"',
  async () => {
    await open('/informations-personnelles')
    press(await screen.findByRole('button', { name: 'Modifier mon e-mail' }))
    press(await screen.findByRole('button', { name: 'Annuler' }))
    await waitFor(() => assertFocusOn(screen.getByRole('button', { name: 'Modifier mon e-mail' }), '"Modifier mon e-mail", cancelled'))
    press(screen.getByRole('button', { name: 'Modifier mon e-mail' }))
    fireEvent.change(await screen.findByLabelText('Nouvelle adresse e-mail'), { target: { value: 'camille.martin@example.com' } })
    press(screen.getByRole('button', { name: 'Enregistrer l’adresse' }))
    await waitFor(() => assertFocusOn(screen.getByRole('button', { name: 'Modifier mon e-mail' }), '"Modifier mon e-mail", saved'))
  },
)

BusyFocus('/informations-personnelles opened: the focus stays where it was (the e-mail and devices sections take nothing)', async () => {
  await open('/informations-personnelles', {
    people: {
      sessions: [
        { id: 1, device: 'Chrome sur Linux', createdAt: '2026-11-20T10:00:00.000Z', lastUsedAt: '2026-11-22T10:00:00.000Z', current: true },
      ],
    },
  })
  await screen.findByText('Aucun autre appareil n’est connecté.')
  await screen.findByRole('button', { name: 'Modifier mon e-mail' })
  assert.is(document.activeElement, document.body)
})

BusyFocus('"E-mails de notification": the choice made keeps the focus while it is saved; another one meanwhile is not sent', async () => {
  const call = holdCall()
  const app = await open('/informations-personnelles', { held: { updateNotificationPreferences: call.promise } })
  const group = await within(await screen.findByRole('region', { name: 'E-mails de notification' })).findByRole('group', {
    name: 'Boulangerie des Lilas SAS',
  })
  const radio = (name: string) => within(group).getByRole('radio', { name }) as HTMLInputElement
  const digest = radio('Un résumé quotidien')
  press(digest)
  await waitFor(() => assert.ok(unavailable(digest), 'unavailable while it is saved'))
  assertFocusOn(digest, '"Un résumé quotidien", while it is saved')
  assert.is(digest.getAttribute('aria-disabled'), 'true')
  assert.is(radio('Aucun e-mail').getAttribute('aria-disabled'), 'true')
  fireEvent.click(radio('Aucun e-mail'))
  assert.ok(digest.checked && !radio('Aucun e-mail').checked, 'the choice being saved still shows')
  call.release()
  await within(group).findByText('Votre choix est enregistré.')
  assert.equal(
    app.calls.notifications.filter(([name]) => name === 'updateNotificationPreferences'),
    [['updateNotificationPreferences', 2, 'digest']],
  )
  assert.ok(digest.checked)
  assert.is(digest.getAttribute('aria-disabled'), null)
})

const YEAR = new Date().getFullYear()
const invoice40: Invoice = {
  id: 40,
  domId: 2,
  raisonSociale: 'Boulangerie des Lilas SAS',
  number: `FA-${YEAR}-40`,
  date: `${YEAR}-03-01T10:00:00.000Z`,
  amountExclTaxCents: 29000,
  amountInclTaxCents: 34800,
  paid: true,
}
const creditNote9: CreditNote = {
  id: 9,
  domId: 2,
  raisonSociale: 'Boulangerie des Lilas SAS',
  number: `AV-${YEAR}-9`,
  date: `${YEAR}-03-06T10:00:00.000Z`,
  amountExclTaxCents: 1000,
  amountInclTaxCents: 1200,
  invoiceId: 40,
}

for (const [name, call, recorded] of [
  [`PDF de la facture FA-${YEAR}-40`, 'getInvoiceFile', 'invoice 40'],
  [`PDF de l’avoir AV-${YEAR}-9`, 'getCreditNoteFile', 'creditNote 9'],
] as const) {
  BusyFocus(`/factures "${name}" while it downloads: on the button; a press meanwhile fetches nothing more`, async () => {
    const held = holdCall()
    const app = await open('/factures', {
      data: { invoices: [invoice40] },
      billing: { years: [YEAR], creditNotes: [creditNote9] },
      held: { [call]: held.promise },
    })
    const button = await screen.findByRole('button', { name })
    await pressWhileHeld(
      button,
      held,
      () => app.calls.billing.downloads.filter((d) => d === recorded).length,
      () => waitFor(() => assert.is(button.getAttribute('aria-disabled'), null)),
    )
    assertFocusOn(button, 'the button, the file saved')
  })
}

const withKbis = F.contracts.map((c) => (c.id === F.boulangerie.contractId ? { ...c, kbis: `/api-protected/contracts/${c.id}/kbis` } : c))
for (const [name, call, recorded] of [
  ['Télécharger mon attestation de domiciliation', 'issueCertificate', 'certificate 2'],
  ['Télécharger mon contrat', 'getContractFile', `contract ${F.boulangerie.contractId}`],
  ['Télécharger mon Kbis', 'getKbisFile', `kbis ${F.boulangerie.contractId}`],
] as const) {
  BusyFocus(`Attestation et contrats "${name}" while it is prepared: on the button; a press meanwhile fetches nothing more`, async () => {
    const held = holdCall()
    const app = await open('/souscription/attestation-contrats', { billing: { contracts: withKbis }, held: { [call]: held.promise } })
    const button = await screen.findByRole('button', { name })
    await pressWhileHeld(
      button,
      held,
      () => app.calls.billing.downloads.filter((d) => d === recorded).length,
      () => waitFor(() => assert.is(button.getAttribute('aria-disabled'), null)),
    )
    assertFocusOn(button, 'the button, the file saved')
  })
}

BusyFocus('/mes-reunions "Télécharger la facture" while it downloads: on the button; a press meanwhile fetches nothing more', async () => {
  const held = holdCall()
  const app = await open('/mes-reunions', {
    held: { getInvoiceFile: held.promise },
    data: {
      calendarInvoices: [
        {
          id: 1,
          domId: 2,
          raisonSociale: 'Boulangerie des Lilas SAS',
          date: '2026-01-10T10:00:00.000Z',
          room: 'Salle Opéra',
          hours: 2,
          amountInclTaxCents: 7200,
          paid: true,
          invoiceId: 901,
          invoiceNumber: 'FA-2026-823R01',
        },
      ],
    },
  })
  const button = await screen.findByRole('button', { name: 'Télécharger la facture FA-2026-823R01' })
  await pressWhileHeld(
    button,
    held,
    () => app.calls.billing.downloads.length,
    () => waitFor(() => assert.is(button.getAttribute('aria-disabled'), null)),
  )
  assertFocusOn(button, 'the button, the file saved')
})

/** The accounting export with two letters, the first picked, its call held. */
async function heldExport() {
  const held = holdCall()
  const app = await open('/mes-courriers/export-comptable', {
    dextEmail: 'factures@dext.example.com',
    held: { sendDextInvoices: held.promise },
    data: {
      documents: [F.letter(21, { sender: 'URSSAF Île-de-France' }), F.letter(22, { sender: 'Impots.gouv' })],
    },
  })
  fireEvent.click(await screen.findByRole('checkbox', { name: /URSSAF Île-de-France/ }))
  return { app, held, result: () => screen.findByText('1 pièce envoyée à factures@dext.example.com.') }
}

BusyFocus(
  'the accounting export, "Envoyer 1 pièce à ma comptabilité" while sending: on the button; a press or Enter meanwhile sends nothing more',
  async () => {
    const { app, held, result } = await heldExport()
    await pressWhileHeld(
      screen.getByRole('button', { name: 'Envoyer 1 pièce à ma comptabilité' }),
      held,
      () => app.calls.dextSends.length,
      result,
    )
  },
)

for (const control of ['address', 'checkbox'] as const) {
  BusyFocus(
    `the accounting export sent by Enter in its ${control}: the focus stays there while sending, what was typed and picked kept`,
    async () => {
      const { app, held, result } = await heldExport()
      const email = screen.getByLabelText('Adresse de votre boîte comptable (Dext)') as HTMLInputElement
      const focused = control === 'address' ? email : screen.getByRole('checkbox', { name: /URSSAF Île-de-France/ })
      focused.focus()
      fireEvent.submit(focused.closest('form')!)
      await screen.findByText('Envoi…')
      assertFocusOn(focused, `the ${control}, while sending`)
      assert.ok(email.readOnly, 'the address cannot be changed meanwhile')
      assert.is(email.value, 'factures@dext.example.com')
      const other = screen.getByRole('checkbox', { name: /Impots.gouv/ }) as HTMLInputElement
      assert.is(other.getAttribute('aria-disabled'), 'true')
      fireEvent.click(other)
      assert.not.ok(other.checked, 'nothing picked meanwhile')
      fireEvent.submit(focused.closest('form')!)
      held.release()
      await result()
      assert.equal(app.calls.dextSends, [{ email: 'factures@dext.example.com', invoiceIds: [], documentIds: [21] }])
    },
  )
}

BusyFocus.run()

const BusyForms = suite(
  'the sign-in, password and invitation pages: their button keeps the focus while its call runs; a press or Enter meanwhile sends nothing more',
)
BusyForms.before.each(() => setViewport(360, 740))
BusyForms.after.each(() => {
  cleanup()
  delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential
})

const change = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } })

BusyForms('/login "Se connecter"', async () => {
  const held = holdCall()
  const app = await renderApp('/login', { held: { login: held.promise } })
  change('Adresse e-mail', 'demo@example.com')
  change('Mot de passe', 'Demo1234!')
  await pressWhileHeld(
    await screen.findByRole('button', { name: 'Se connecter' }),
    held,
    () => app.calls.logins.length,
    () => waitFor(() => assert.is(app.currentPath(), '/tableau-de-bord')),
  )
})

BusyForms('/login "Se connecter avec une clé d’accès"', async () => {
  const held = holdCall()
  const cancelled = Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' })
  ;(window as { PublicKeyCredential?: unknown }).PublicKeyCredential = function PublicKeyCredential() {}
  Object.defineProperty(navigator, 'credentials', {
    configurable: true,
    value: {
      create: async () => {
        throw cancelled
      },
      get: async () => {
        throw cancelled
      },
    },
  })
  const app = await renderApp('/login', { held: { getPasskeyLoginOptions: held.promise } })
  const button = await screen.findByRole('button', { name: 'Se connecter avec une clé d’accès' })
  await pressWhileHeld(
    button,
    held,
    () => app.calls.people.filter(([name]) => name === 'getPasskeyLoginOptions').length,
    () => screen.findByText(/La connexion avec une clé d’accès a été annulée/),
  )
  assertFocusOn(button, 'the button, the ceremony cancelled')
})

BusyForms('/reset-password "Recevoir le lien"', async () => {
  const held = holdCall()
  const app = await renderApp('/reset-password', { held: { requestPasswordReset: held.promise } })
  fireEvent.change(await screen.findByLabelText('Adresse e-mail'), { target: { value: 'demo@example.com' } })
  await pressWhileHeld(
    screen.getByRole('button', { name: 'Recevoir le lien' }),
    held,
    () => app.calls.resetRequests.length,
    () => screen.findByText(/Si un compte existe pour cette adresse/),
  )
  // The answer replaced the form and its button.
  await waitFor(() => assertFocusOn(screen.getByText(/Si un compte existe pour cette adresse/), 'the answer'))
})

BusyForms('/set-password "Enregistrer le mot de passe"', async () => {
  const held = holdCall()
  const app = await renderApp('/set-password/jeton-42', { held: { resetPassword: held.promise } })
  fireEvent.change(await screen.findByLabelText('Nouveau mot de passe'), { target: { value: 'Un jardin sous la pluie' } })
  change('Confirmez le mot de passe', 'Un jardin sous la pluie')
  await pressWhileHeld(
    screen.getByRole('button', { name: 'Enregistrer le mot de passe' }),
    held,
    () => app.calls.passwordResets.length,
    () => waitFor(() => assert.is(app.currentPath(), '/login')),
  )
})

BusyForms('/missing-document "Envoyer mes documents"', async () => {
  const held = holdCall()
  const app = await renderApp('/missing-document', {
    signedIn: true,
    orders: [F.conseil],
    defaultOrder: F.conseil.id,
    held: { uploadIdentity: held.promise },
  })
  fireEvent.change(await screen.findByLabelText("Pièce d'identité du gérant"), {
    target: { files: [new File(['%PDF-1.7'], 'cni.pdf', { type: 'application/pdf' })] },
  })
  await pressWhileHeld(
    screen.getByRole('button', { name: 'Envoyer mes documents' }),
    held,
    () => app.calls.identityUploads.length,
    () => waitFor(() => assert.is(app.currentPath(), '/tableau-de-bord')),
  )
})

const forNina = { email: 'nina@example.com', raisonSociale: 'Boulangerie des Lilas SAS', invitedBy: 'Camille Martin', hasAccount: false }
const invitationCalls = (app: Awaited<ReturnType<typeof renderApp>>, call: string) => () =>
  app.calls.people.filter(([name]) => name === call).length

BusyForms('/invitation "Accepter l’invitation" (signed in as the person invited)', async () => {
  const held = holdCall()
  const app = await renderApp('/invitation/jeton-11', {
    signedIn: true,
    defaultOrder: 2,
    people: { invitation: { ...forNina, email: 'demo@example.com', hasAccount: true } },
    held: { acceptInvitation: held.promise },
  })
  await pressWhileHeld(
    await screen.findByRole('button', { name: 'Accepter l’invitation' }),
    held,
    invitationCalls(app, 'acceptInvitation'),
    () => waitFor(() => assert.is(app.currentPath(), '/tableau-de-bord')),
  )
})

BusyForms('/invitation "Me connecter et accepter"', async () => {
  const held = holdCall()
  const app = await renderApp('/invitation/jeton-8', {
    people: { invitation: { ...forNina, email: 'demo@example.com', hasAccount: true } },
    held: { acceptInvitation: held.promise },
  })
  fireEvent.change(await screen.findByLabelText('Mot de passe'), { target: { value: 'Demo1234!' } })
  await pressWhileHeld(
    screen.getByRole('button', { name: 'Me connecter et accepter' }),
    held,
    invitationCalls(app, 'acceptInvitation'),
    () => waitFor(() => assert.is(app.currentPath(), '/tableau-de-bord')),
  )
  assert.is(app.calls.logins.length, 1)
})

BusyForms('/invitation "Créer mon accès et accepter"', async () => {
  const held = holdCall()
  const app = await renderApp('/invitation/jeton-7', { people: { invitation: forNina }, held: { createInvitationAccount: held.promise } })
  fireEvent.change(await screen.findByLabelText('Prénom'), { target: { value: 'Nina' } })
  change('Nom', 'Roussel')
  change('Mot de passe', 'une phrase de passe')
  change('Confirmez le mot de passe', 'une phrase de passe')
  await pressWhileHeld(
    screen.getByRole('button', { name: 'Créer mon accès et accepter' }),
    held,
    invitationCalls(app, 'createInvitationAccount'),
    () => waitFor(() => assert.is(app.currentPath(), '/tableau-de-bord')),
  )
})

BusyForms.run()

const Arrival = suite(
  'an action that leads to another page (a sign-in, a new password, documents sent): the focus lands on its title, not on <body>',
)
Arrival.before.each(() => setViewport(1280))
Arrival.after.each(() => cleanup())

const title = (name: string) => screen.findByRole('heading', { level: 1, name })

/** /login's form, filled and sent from the keyboard. */
async function signIn() {
  fireEvent.change(await screen.findByLabelText('Adresse e-mail'), { target: { value: 'demo@example.com' } })
  fireEvent.change(screen.getByLabelText('Mot de passe'), { target: { value: 'Demo1234!' } })
  press(screen.getByRole('button', { name: 'Se connecter' }))
}

Arrival('signed in: the dashboard’s title', async () => {
  await renderApp('/login', { orders: [F.boulangerie] })
  await signIn()
  const heading = await title('Tableau de bord')
  await waitFor(() => assertFocusOn(heading, 'the dashboard’s title'))
})

Arrival('signed in again after an expiry: the title of the page left', async () => {
  const scenario: Scenario & { signedIn: boolean; defaultOrder: number } = {
    signedIn: true,
    defaultOrder: F.boulangerie.id,
    expireNext: [],
  }
  const app = await renderApp('/factures', scenario)
  await title('Mes factures')
  // The session expires during work: the next call answers 401.
  scenario.expireNext!.push('documents')
  fireEvent.change(screen.getByLabelText('Domiciliation'), { target: { value: 'all' } })
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  await signIn()
  const heading = await title('Mes factures')
  await waitFor(() => assertFocusOn(heading, 'the title of the page left'))
})

Arrival('signed in with several orders: the order choice’s title; an order chosen, the picker that shows it (as before)', async () => {
  await renderApp('/login')
  await signIn()
  const heading = await screen.findByRole('heading', { name: 'Sélectionnez la domiciliation' })
  await waitFor(() => assertFocusOn(heading, 'the order choice’s title'))
  press(screen.getByRole('button', { name: /Boulangerie des Lilas SAS/ }))
  await screen.findByText('Bonjour Camille')
  await waitFor(() => assertFocusOn(screen.getByLabelText('Domiciliation'), 'the picker'))
})

Arrival('signed in, the only order missing documents: the title of /missing-document', async () => {
  const app = await renderApp('/login', { orders: [F.conseil] })
  await signIn()
  await waitFor(() => assert.is(app.currentPath(), '/missing-document'))
  const heading = await title('Documents manquants')
  await waitFor(() => assertFocusOn(heading, 'the title of /missing-document'))
})

Arrival('an order chosen that misses documents: the title of /missing-document', async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true })
  press(await screen.findByRole('button', { name: /Conseil Horizon EURL/ }))
  await waitFor(() => assert.is(app.currentPath(), '/missing-document'))
  const heading = await title('Documents manquants')
  await waitFor(() => assertFocusOn(heading, 'the title of /missing-document'))
})

Arrival('the documents sent: the dashboard’s title', async () => {
  const app = await renderApp('/missing-document', { signedIn: true, orders: [F.conseil], defaultOrder: F.conseil.id })
  fireEvent.change(await screen.findByLabelText("Pièce d'identité du gérant"), {
    target: { files: [new File(['%PDF-1.7'], 'cni.pdf', { type: 'application/pdf' })] },
  })
  press(screen.getByRole('button', { name: 'Envoyer mes documents' }))
  await waitFor(() => assert.is(app.currentPath(), '/tableau-de-bord'))
  const heading = await title('Tableau de bord')
  await waitFor(() => assertFocusOn(heading, 'the dashboard’s title'))
})

Arrival('a new password saved: the title of /login', async () => {
  const app = await renderApp('/set-password/jeton-42')
  fireEvent.change(await screen.findByLabelText('Nouveau mot de passe'), { target: { value: 'Un jardin sous la pluie' } })
  fireEvent.change(screen.getByLabelText('Confirmez le mot de passe'), { target: { value: 'Un jardin sous la pluie' } })
  press(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }))
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  const heading = await title('Connexion à votre espace client')
  await waitFor(() => assertFocusOn(heading, 'the title of /login'))
})

Arrival('an invitation accepted: the title of the dashboard it leads to', async () => {
  const app = await renderApp('/invitation/jeton-7', { people: { invitation: forNina } })
  fireEvent.change(await screen.findByLabelText('Prénom'), { target: { value: 'Nina' } })
  change('Nom', 'Roussel')
  change('Mot de passe', 'une phrase de passe')
  change('Confirmez le mot de passe', 'une phrase de passe')
  press(screen.getByRole('button', { name: 'Créer mon accès et accepter' }))
  await waitFor(() => assert.is(app.currentPath(), '/tableau-de-bord'))
  const heading = await title('Tableau de bord')
  await waitFor(() => assertFocusOn(heading, 'the dashboard’s title'))
})

Arrival('a page opened by an address or from the menu: the focus stays where it is', async () => {
  await open('/tableau-de-bord')
  await screen.findByText('Bonjour Camille')
  assertFocusOn(document.body, '<body>, as the browser leaves it on a page load')
  const entry = within(screen.getByRole('complementary', { name: 'Menu principal' })).getByRole('link', { name: 'Mes factures' })
  press(entry)
  await title('Mes factures')
  assertFocusOn(entry, 'the menu entry')
  cleanup()
  await renderApp('/login')
  await title('Connexion à votre espace client')
  assertFocusOn(document.body, '<body>')
})

Arrival.run()
