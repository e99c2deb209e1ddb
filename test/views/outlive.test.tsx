// The writes that outlive their page (src/wiring/outlive.ts): each effect as the areas' wiring provides it, run alone
// and stopped as its page's actor stops it (its signal aborted). Left before the answer, the call goes on (it is not
// given the signal), and its outcome is told to the same person only: the page's own toast, and the portal told what
// the page would have told it. With the page still there, the wiring tells nothing (the machine does, as before).
import '../util/dom.ts'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { type AnyActorLogic, createActor } from 'xstate'
import type { PaymentMethod, Subscription } from '../../server/contract/billing.ts'
import type { Folder, MailDocument } from '../../server/contract/mail.ts'
import type { Mandataire, Share } from '../../server/contract/people.ts'
import { CARD_NOT_REPLACED, CARD_REPLACED } from '../../src/machines/billing/cardReplacement.machine.ts'
import { SHARE_NOT_REMOVED, SHARE_REMOVED } from '../../src/machines/people/collaborators.machine.ts'
import { OTHERS_NOT_SIGNED_OUT } from '../../src/machines/people/devices.machine.ts'
import { FOLDER_DELETED, FOLDER_NOT_DELETED, FOLDER_NOT_RENAMED, FOLDER_RENAMED } from '../../src/machines/mail/folderEditor.machine.ts'
import { FORMALITY_NOT_ORDERED, FORMALITY_ORDERED } from '../../src/machines/company/formalityOrder.machine.ts'
import { ADDRESS_SAVED } from '../../src/machines/billing/forwardingAddress.machine.ts'
import { MOVE_OUT_FAILED, MOVED_OUT, SEND_FAILED } from '../../src/machines/mail/mailbox.machine.ts'
import { PASSKEY_NOT_REMOVED, PASSKEY_NOT_RENAMED, PASSKEY_REMOVED, PASSKEY_RENAMED } from '../../src/machines/people/passkeys.machine.ts'
import { REFERRAL_NOT_SENT } from '../../src/machines/people/referral.machine.ts'
import { REPRESENTATIVE_NOT_REMOVED, REPRESENTATIVE_REMOVED } from '../../src/machines/people/representatives.machine.ts'
import { OPTION_NOT_ADDED, optionAdded } from '../../src/machines/billing/subscriptionOption.machine.ts'
import { TERMINATION_NOT_SENT, TERMINATION_SENT } from '../../src/machines/billing/termination.machine.ts'
import { REQUEST_CANCELLED, REQUEST_NOT_CANCELLED } from '../../src/machines/mail/courierRequestCancel.machine.ts'
import { INVITATIONS_NOT_SENT } from '../../src/machines/people/collaborators.machine.ts'
import { FOLDER_CREATED, FOLDER_NOT_CREATED } from '../../src/machines/mail/folderEditor.machine.ts'
import { MOVE_FAILED, MOVED_TO_FOLDER } from '../../src/machines/mail/mailbox.machine.ts'
import { REPRESENTATIVE_ADDED, REPRESENTATIVE_NOT_ADDED } from '../../src/machines/people/representatives.machine.ts'
import type { Notice } from '../../src/machines/shared.ts'
import type { StartupEvent } from '../../src/machines/session/startup.machine.ts'
import { PAYMENT_FAILED } from '../../src/machines/billing/unpaidInvoices.machine.ts'
import type { Api } from '../../src/wiring/api.ts'
import { createBillingFlows } from '../../src/wiring/billing.ts'
import { createCompanyFlows } from '../../src/wiring/company.ts'
import { createFirstScreenFlows } from '../../src/wiring/first-screen.ts'
import { built } from '../../src/wiring/later.ts'
import { createMailFlows } from '../../src/wiring/mail.ts'
import { createPeopleFlows } from '../../src/wiring/people.ts'
import { removeStoredSession, writeStoredUser } from '../../src/wiring/storage.ts'
import * as F from '../util/fixtures.ts'

const REASON = 'Le service est momentanément indisponible.'
const folder: Folder = { id: 901, name: 'Impôts', domiciliationOrderId: 2, documentCount: 0 }
const moved: MailDocument = { ...F.letter(21), folderId: 3 }
const representative: Mandataire = {
  id: 7,
  firstname: 'Léa',
  lastname: 'Martin',
  email: 'lea@example.com',
  phone: '+33612345678',
  createdAt: '2026-11-27T10:00:00.000Z',
}
const invited: Share[] = [
  {
    id: 9,
    email: 'comptable@cabinet.fr',
    firstname: null,
    lastname: null,
    status: 'invitée',
    createdAt: '2026-11-22T10:00:00.000Z',
    acceptedAt: null,
    invitationSentAt: '2026-11-22T10:00:00.000Z',
    invitationExpiresAt: '2026-11-29T10:00:00.000Z',
  },
]

interface Case {
  /** The effect: its area's flows, the flow and its actor's name, and that actor's input. */
  area: 'firstScreen' | 'mail' | 'billing' | 'people' | 'company'
  flow: string
  actor: string
  input: unknown
  /** The API call it makes, and its answer. */
  call: keyof Api
  reply: unknown
  /** What the page would have shown and told the portal; the failure's toast. */
  done: Notice | null
  portal: StartupEvent[]
  failed: Notice | null
  portalOnFailure?: StartupEvent[]
  /** A call the spec says swallows its errors (§8) does not fail: it tells the customer the server's reason in a toast
   *  (src/api/client.ts `swallow`, played here) and answers this. */
  swallowedReply?: unknown
}

const folderRenamed: Folder = { ...folder, name: 'Impôts 2026' }
const movedOut: MailDocument = { ...F.letter(21), folderId: null }
const subscription: Subscription = {
  id: 'sub_1',
  object: 'subscription',
  status: 'active',
  current_period_end: 1_798_761_600,
  cancel_at_period_end: false,
  items: { object: 'list', data: [] },
}
const card: PaymentMethod = { id: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 }
const savedContract = { ...F.contracts[0]!, codePostaleExpedition: '75019' }
const address = {
  adressePostaleExpedition: '3 rue Riquet',
  adresseComplementPostaleExpedition: null,
  codePostaleExpedition: '75019',
  villePostaleExpedition: 'Paris',
  paysPostaleExpedition: 'France',
}

const cases: Record<string, Case> = {
  'a folder created': {
    area: 'mail',
    flow: 'folderEditor',
    actor: 'saveFolder',
    input: { orderId: 2, name: 'Impôts' },
    call: 'createFolder',
    reply: folder,
    done: { kind: 'success', message: FOLDER_CREATED },
    portal: [{ type: 'folder.saved', folder }],
    failed: { kind: 'error', message: `${FOLDER_NOT_CREATED} ${REASON}` },
  },
  'a forwarding request cancelled': {
    area: 'mail',
    flow: 'courierRequestCancel',
    actor: 'removeRequest',
    input: { orderId: 2, id: 5 },
    call: 'removeCourierRequest',
    reply: { message: 'ok' },
    done: { kind: 'success', message: REQUEST_CANCELLED },
    portal: [{ type: 'courierRequest.removed', id: 5 }],
    failed: { kind: 'error', message: `${REQUEST_NOT_CANCELLED} ${REASON}` },
  },
  'a letter moved to a folder': {
    area: 'mail',
    flow: 'mailbox',
    actor: 'updateDocument',
    input: { documentId: 21, folderId: 3 },
    call: 'updateDocument',
    reply: moved,
    done: { kind: 'success', message: MOVED_TO_FOLDER },
    portal: [{ type: 'document.changed', document: moved }],
    failed: { kind: 'error', message: `${MOVE_FAILED} ${REASON}` },
  },
  // Opening a letter is no action the customer waits on: no toast, the list only kept true (read, or unread again).
  'a letter’s read mark': {
    area: 'mail',
    flow: 'mailbox',
    actor: 'updateDocument',
    input: { documentId: 21, readFlag: true },
    call: 'updateDocument',
    reply: { ...F.letter(21), read: true },
    done: null,
    portal: [{ type: 'document.read', documentId: 21, read: true }],
    failed: null,
    portalOnFailure: [{ type: 'document.read', documentId: 21, read: false }],
  },
  'an invoice paid (« Payer »)': {
    area: 'billing',
    flow: 'invoiceBook',
    actor: 'pay',
    input: { orderId: 2, expectedAmountInclTaxCents: 3480 },
    call: 'payUnpaidInvoice',
    reply: { paidCount: 1, message: '1 facture réglée.' },
    done: { kind: 'success', message: '1 facture réglée.' },
    portal: [{ type: 'invoices.paid', orderId: 2 }],
    failed: { kind: 'error', message: `${PAYMENT_FAILED} ${REASON}` },
  },
  'the unpaid invoices paid (« Régler »)': {
    area: 'firstScreen',
    flow: 'unpaidInvoices',
    actor: 'pay',
    input: { expectedAmountInclTaxCents: 3480 },
    call: 'payUnpaidInvoice',
    reply: { paidCount: 2, message: '2 factures réglées.' },
    done: { kind: 'success', message: '2 factures réglées.' },
    portal: [{ type: 'invoices.paidOwned' }],
    failed: { kind: 'error', message: `${PAYMENT_FAILED} ${REASON}` },
  },
  'an invitation sent': {
    area: 'people',
    flow: 'collaborators',
    actor: 'invite',
    input: { orderId: 2, emails: ['comptable@cabinet.fr'], dropped: 1 },
    call: 'inviteCollaborators',
    reply: invited,
    done: { kind: 'success', message: 'Invitation envoyée. Une adresse déjà présente a été ignorée.' },
    portal: [],
    failed: { kind: 'error', message: `${INVITATIONS_NOT_SENT} ${REASON}` },
  },
  'a representative added': {
    area: 'people',
    flow: 'representatives',
    actor: 'addRepresentative',
    input: { orderId: 2, representative: { firstname: 'Léa', lastname: 'Martin', email: 'lea@example.com', phone: '+33612345678' } },
    call: 'addMandataire',
    reply: representative,
    done: { kind: 'success', message: REPRESENTATIVE_ADDED },
    portal: [],
    failed: { kind: 'error', message: `${REPRESENTATIVE_NOT_ADDED} ${REASON}` },
  },
  'a folder renamed': {
    area: 'mail',
    flow: 'folderEditor',
    actor: 'saveFolder',
    input: { folderId: 901, name: 'Impôts 2026' },
    call: 'updateFolder',
    reply: folderRenamed,
    done: { kind: 'success', message: FOLDER_RENAMED },
    portal: [{ type: 'folder.saved', folder: folderRenamed }],
    failed: { kind: 'error', message: `${FOLDER_NOT_RENAMED} ${REASON}` },
  },
  'a folder deleted': {
    area: 'mail',
    flow: 'folderEditor',
    actor: 'deleteFolder',
    input: { folderId: 901 },
    call: 'deleteFolder',
    reply: { message: 'ok' },
    done: { kind: 'success', message: FOLDER_DELETED },
    portal: [{ type: 'folder.removed', folderId: 901 }],
    failed: { kind: 'error', message: `${FOLDER_NOT_DELETED} ${REASON}` },
  },
  'a letter taken out of its folder': {
    area: 'mail',
    flow: 'mailbox',
    actor: 'updateDocument',
    input: { documentId: 21, folderId: null },
    call: 'updateDocument',
    reply: movedOut,
    done: { kind: 'success', message: MOVED_OUT },
    portal: [{ type: 'document.changed', document: movedOut }],
    failed: { kind: 'error', message: `${MOVE_OUT_FAILED} ${REASON}` },
  },
  'letters sent by e-mail': {
    area: 'mail',
    flow: 'mailbox',
    actor: 'sendDocuments',
    input: { email: 'comptable@cabinet.fr', documentIds: [21] },
    call: 'sendDocuments',
    reply: { message: '1 courrier envoyé.' },
    done: { kind: 'success', message: '1 courrier envoyé.' },
    portal: [],
    failed: { kind: 'error', message: `${SEND_FAILED} ${REASON}` },
  },
  'an option confirmed': {
    area: 'billing',
    flow: 'subscriptionOption',
    actor: 'confirmOption',
    input: { contractId: 4, planId: 'plan_scan', orderId: 2, nickname: 'Scan illimité' },
    call: 'addOptionSubscription',
    reply: subscription,
    done: { kind: 'success', message: optionAdded({ nickname: 'Scan illimité' }) },
    portal: [{ type: 'subscription.changed', orderId: 2, subscription }],
    failed: { kind: 'error', message: `${OPTION_NOT_ADDED} ${REASON}` },
  },
  'a termination asked for': {
    area: 'billing',
    flow: 'termination',
    actor: 'sendRequest',
    input: { orderId: 2, reason: 'Déménagement' },
    call: 'createTerminationRequest',
    reply: { id: 3 },
    done: { kind: 'success', message: TERMINATION_SENT },
    portal: [],
    failed: { kind: 'error', message: `${TERMINATION_NOT_SENT} ${REASON}` },
  },
  'a card attached to an order': {
    area: 'billing',
    flow: 'cardReplacement',
    actor: 'attachPaymentMethod',
    input: { orderId: 2, pm: 'pm_1' },
    call: 'updatePaymentMethod',
    reply: card,
    done: { kind: 'success', message: CARD_REPLACED },
    portal: [{ type: 'card.changed', card }],
    failed: { kind: 'error', message: `${CARD_NOT_REPLACED} ${REASON}` },
  },
  'a card attached to the account': {
    area: 'billing',
    flow: 'cardReplacement',
    actor: 'attachPaymentMethod',
    input: { orderId: null, pm: 'pm_1' },
    call: 'updateCreditCardWeb',
    reply: card,
    done: { kind: 'success', message: CARD_REPLACED },
    portal: [{ type: 'card.changed', card }],
    failed: { kind: 'error', message: `${CARD_NOT_REPLACED} ${REASON}` },
  },
  // PUT contracts/{id} swallows its errors (spec §8): the call tells the customer the server's reason in its own toast,
  // and the page left adds none (before, a second toast said the same failure again).
  'a forwarding address saved': {
    area: 'billing',
    flow: 'forwardingAddress',
    actor: 'saveAddress',
    input: { contractId: savedContract.id, address },
    call: 'updateContractAddress',
    reply: savedContract,
    done: { kind: 'success', message: ADDRESS_SAVED },
    portal: [{ type: 'contract.changed', contract: savedContract }],
    failed: { kind: 'error', message: REASON },
    swallowedReply: null,
  },
  'a formality ordered': {
    area: 'company',
    flow: 'formalityOrder',
    actor: 'createSubmission',
    input: { orderId: 2, kind: 'transfert-siege', comment: '' },
    call: 'createLegalSubmission',
    reply: { id: 5 },
    done: { kind: 'success', message: FORMALITY_ORDERED },
    portal: [],
    failed: { kind: 'error', message: `${FORMALITY_NOT_ORDERED} ${REASON}` },
  },
  'a passkey renamed': {
    area: 'people',
    flow: 'passkeys',
    actor: 'renamePasskey',
    input: { id: 4, name: 'Téléphone' },
    call: 'renamePasskey',
    reply: { id: 4, name: 'Téléphone' },
    done: { kind: 'success', message: PASSKEY_RENAMED },
    portal: [],
    failed: { kind: 'error', message: `${PASSKEY_NOT_RENAMED} ${REASON}` },
  },
  'a passkey removed': {
    area: 'people',
    flow: 'passkeys',
    actor: 'deletePasskey',
    input: { id: 4 },
    call: 'deletePasskey',
    reply: { message: 'ok' },
    done: { kind: 'success', message: PASSKEY_REMOVED },
    portal: [],
    failed: { kind: 'error', message: `${PASSKEY_NOT_REMOVED} ${REASON}` },
  },
  'the other devices signed out': {
    area: 'people',
    flow: 'devices',
    actor: 'signOutOthers',
    input: undefined,
    call: 'signOutOtherSessions',
    reply: { message: '2 appareils déconnectés.' },
    done: { kind: 'success', message: '2 appareils déconnectés.' },
    portal: [],
    failed: { kind: 'error', message: `${OTHERS_NOT_SIGNED_OUT} ${REASON}` },
  },
  'a collaborator’s access removed': {
    area: 'people',
    flow: 'collaborators',
    actor: 'removeShare',
    input: { orderId: 2, shareId: 9 },
    call: 'deleteShare',
    reply: { message: 'ok' },
    done: { kind: 'success', message: SHARE_REMOVED },
    portal: [],
    failed: { kind: 'error', message: `${SHARE_NOT_REMOVED} ${REASON}` },
  },
  'a referral sent': {
    area: 'people',
    flow: 'referral',
    actor: 'sendReferral',
    input: { email: 'ami@example.com' },
    call: 'sendInvite',
    reply: { message: 'Invitation envoyée à ami@example.com.' },
    done: { kind: 'success', message: 'Invitation envoyée à ami@example.com.' },
    portal: [],
    failed: { kind: 'error', message: `${REFERRAL_NOT_SENT} ${REASON}` },
  },
  'a representative removed': {
    area: 'people',
    flow: 'representatives',
    actor: 'removeRepresentative',
    input: { orderId: 2, id: 7 },
    call: 'deleteMandataire',
    reply: { message: 'ok' },
    done: { kind: 'success', message: REPRESENTATIVE_REMOVED },
    portal: [],
    failed: { kind: 'error', message: `${REPRESENTATIVE_NOT_REMOVED} ${REASON}` },
  },
}

/** The case's effect on a fake API whose one call is held until the test answers it; what the wiring says is recorded. */
function start(c: Case) {
  let answer!: { resolve: (value: unknown) => void; reject: (error: unknown) => void }
  const calls: unknown[][] = []
  const api = new Proxy(
    {},
    {
      get:
        (_, name) =>
        (...args: unknown[]) => {
          if (name !== c.call) return Promise.reject(new Error(`not answered here: ${String(name)}`))
          calls.push(args)
          // Like ofetch: a call given a signal is aborted with it.
          const signal = args.map((a) => (a as { signal?: AbortSignal } | undefined)?.signal).find(Boolean)
          return new Promise((resolve, reject) => {
            answer = { resolve, reject }
            signal?.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError')))
          })
        },
    },
  ) as Api
  const notices: Notice[] = []
  /** The toast a swallowing call showed (the client's, not the wiring's). */
  const swallowed: Notice[] = []
  const portal: StartupEvent[] = []
  const deps = {
    api,
    notify: (n: Notice) => void notices.push(n),
    navigate: () => {},
    toPortal: (e: StartupEvent) => void portal.push(e),
    toSession: () => {},
  }
  const flows = {
    firstScreen: createFirstScreenFlows,
    mail: createMailFlows,
    billing: createBillingFlows,
    people: createPeopleFlows,
    company: createCompanyFlows,
  }[c.area](deps)
  const machine = (built(flows) as Record<string, { implementations: { actors: Record<string, AnyActorLogic> } }>)[c.flow]!
  const effect = createActor(machine.implementations.actors[c.actor]!, { input: c.input })
  const ended = new Promise<'done' | 'error'>((resolve) =>
    effect.subscribe({ complete: () => resolve('done'), error: () => resolve('error') }),
  )
  effect.start()
  return {
    calls,
    notices,
    swallowed,
    portal,
    ended,
    /** The page goes: its actor stops the effect. */
    leave: () => effect.stop(),
    succeed: () => answer.resolve(c.reply),
    fail: () => {
      if (!('swallowedReply' in c)) return answer.reject(new Error(REASON))
      swallowed.push({ kind: 'error', message: REASON })
      answer.resolve(c.swallowedReply)
    },
  }
}

/** The lazy telling module loaded (as the effect asked), and the answer told. */
const settle = async () => {
  await import('../../src/wiring/left-behind.ts')
  await new Promise((resolve) => setTimeout(resolve, 10))
}

const Outlive = suite('writes that outlive their page')
Outlive.before.each(() => writeStoredUser(F.authUser))
/** A sign-out (of whoever is signed in). */
const signOut = () => [F.authUser, F.associateAuth].forEach((u) => removeStoredSession(u.apiToken))
Outlive.after.each(signOut)

for (const [name, c] of Object.entries(cases)) {
  Outlive(`${name}, the page left: the call goes on, and its success is told`, async () => {
    const run = start(c)
    run.leave()
    run.succeed()
    await settle()
    assert.is(run.calls.length, 1, 'called once')
    assert.not.ok(
      run.calls[0]!.some((a) => (a as { signal?: unknown } | undefined)?.signal),
      'not given the page’s signal',
    )
    assert.equal(run.notices, c.done ? [c.done] : [])
    assert.equal(run.portal, c.portal)
  })

  Outlive(`${name}, the page left: its failure is told, in the page’s words and the server’s reason`, async () => {
    const run = start(c)
    run.leave()
    run.fail()
    await settle()
    // One toast in all: the wiring's, or the swallowing call's.
    assert.equal([...run.swallowed, ...run.notices], c.failed ? [c.failed] : [])
    assert.equal(run.portal, c.portalOnFailure ?? [])
  })

  Outlive(`${name}, the page still there: the machine has the answer, the wiring says nothing`, async () => {
    const run = start(c)
    run.succeed()
    assert.is(await run.ended, 'done')
    await settle()
    assert.equal(run.notices, [])
    assert.equal(run.portal, [])
  })

  Outlive(`${name}, another person signed in meanwhile, or a sign-out: nothing told, their portal untouched`, async () => {
    const other = start(c)
    other.leave()
    writeStoredUser(F.associateAuth)
    other.succeed()
    const gone = start(c)
    gone.leave()
    signOut()
    gone.fail()
    await settle()
    assert.equal([...other.notices, ...gone.notices], [])
    assert.equal([...other.portal, ...gone.portal], [])
  })
}

Outlive('a payment that outlives its page is told once, never sent again', async () => {
  const run = start(cases['an invoice paid (« Payer »)']!)
  run.leave()
  run.fail()
  await settle()
  assert.is(run.calls.length, 1)
  assert.is(run.notices.length, 1)
})

Outlive.run()
