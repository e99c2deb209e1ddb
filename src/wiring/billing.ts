// The billing area's flows with their real effects: subscription options, termination, the card form, the invoice
// book, the forwarding address, the certificate and contract downloads, and the public certificate check; what they
// change is told to the portal. The dashboard's unpaid-invoice banner is the first screen's (first-screen.ts).
import { fromPromise } from 'xstate'
import { CARD_NOT_REPLACED, CARD_REPLACED, cardReplacementMachine } from '../machines/billing/cardReplacement.machine.ts'
import { certificateVerificationMachine } from '../machines/billing/certificateVerification.machine.ts'
import { documentDownloadMachine, type DocumentRequest, type DownloadedDocument } from '../machines/billing/documentDownload.machine.ts'
import { ADDRESS_NOT_SAVED, ADDRESS_SAVED, forwardingAddressMachine } from '../machines/billing/forwardingAddress.machine.ts'
import { invoiceBookMachine } from '../machines/billing/invoiceBook.machine.ts'
import { OPTION_NOT_ADDED, optionAdded, subscriptionOptionMachine } from '../machines/billing/subscriptionOption.machine.ts'
import { TERMINATION_NOT_SENT, TERMINATION_SENT, terminationMachine } from '../machines/billing/termination.machine.ts'
import { PAYMENT_FAILED } from '../machines/billing/unpaidInvoices.machine.ts'
import type { Api } from './api.ts'
import type { WiringDeps } from './deps.ts'
import { later } from './later.ts'
import { outlive, success } from './outlive.ts'
import { saveFile } from './save-file.ts'

async function fetchDocument(api: Api, request: DocumentRequest, signal: AbortSignal): Promise<DownloadedDocument> {
  if (request.kind === 'invoice')
    return { blob: await api.getInvoiceFile(request.id, { signal }), fileName: `facture-${request.number}.pdf`, certificate: null }
  if (request.kind === 'creditNote')
    return { blob: await api.getCreditNoteFile(request.id, { signal }), fileName: `avoir-${request.number}.pdf`, certificate: null }
  if (request.kind === 'contract') {
    return {
      blob: await api.getContractFile(request.contractId, { signal }),
      fileName: `contrat-domiciliation-${request.contractId}.pdf`,
      certificate: null,
    }
  }
  if (request.kind === 'kbis')
    return { blob: await api.getKbisFile(request.contractId, { signal }), fileName: `kbis-${request.contractId}.pdf`, certificate: null }
  const certificate = await api.issueCertificate(request.orderId, { signal })
  const blob = await api.getCertificateFile(certificate.code, { signal })
  return { blob, fileName: `attestation-domiciliation-${certificate.code}.pdf`, certificate }
}

export const TEST_PROVIDER_ABSENT =
  'Ce formulaire n’est disponible qu’avec le fournisseur de paiement de test : avec le fournisseur réel, la carte se saisit dans son formulaire sécurisé.'

const newestFirst = (years: number[]) => [...new Set(years)].sort((a, b) => b - a)

export function createBillingFlows({ api, notify, toPortal, loadHostedCard }: WiringDeps) {
  // The writes go on when their page is left before the answer (their signal is not passed), and are told then
  // (outlive.ts). A payment is sent once and only told: never retried nor sent again.
  return {
    subscriptionOption: later(() =>
      subscriptionOptionMachine.provide({
        actors: {
          loadOptions: fromPromise(({ input, signal }) => api.getSubscriptionOptions(input.orderId, { signal })),
          requestOption: fromPromise(({ input, signal }) =>
            api.addOption(
              input.orderId,
              { option: input.option, key: api.subscriptionKey(input.orderId, input.subscriptionId) },
              { signal },
            ),
          ),
          // The option asked for (requestOption) is confirmed: that last call goes on; the request before it stops with the page.
          confirmOption: fromPromise(({ input: { contractId, planId, orderId, nickname }, signal }) =>
            outlive(api.addOptionSubscription({ contractId, planId }), signal, {
              notify,
              done: () => success(optionAdded({ nickname })),
              failed: OPTION_NOT_ADDED,
              after: (subscription) => toPortal({ type: 'subscription.changed', orderId, subscription }),
            }),
          ),
        },
        actions: {
          notify: (_, notice) => notify(notice),
          subscriptionChanged: (_, { orderId, subscription }) => toPortal({ type: 'subscription.changed', orderId, subscription }),
        },
      }),
    ),
    termination: later(() =>
      terminationMachine.provide({
        actors: {
          loadStatus: fromPromise(({ input, signal }) => api.getTerminationStatus(input.orderId, { signal })),
          sendRequest: fromPromise(({ input, signal }) =>
            outlive(api.createTerminationRequest(input), signal, {
              notify,
              done: () => success(TERMINATION_SENT),
              failed: TERMINATION_NOT_SENT,
            }),
          ),
        },
        actions: { notify: (_, notice) => notify(notice) },
      }),
    ),
    cardReplacement: later(() =>
      cardReplacementMachine.provide({
        actors: {
          prepareCard: fromPromise(async ({ input, signal }) => {
            const setup = await api.createCardSetup(input.orderId === null ? {} : { orderId: input.orderId }, { signal })
            // The local test provider: its own card form takes the card.
            if (setup.provider === 'test') return { mode: 'test' as const }
            return { mode: 'hosted' as const, clientSecret: setup.clientSecret, publishableKey: setup.publishableKey }
          }),
          loadHostedCard: fromPromise(async ({ input }) =>
            (loadHostedCard ?? (await import('./stripe-card.ts')).loadHostedCard)(input.publishableKey),
          ),
          createPaymentMethod: fromPromise(async ({ input, signal }) => {
            try {
              return await api.createTestPaymentMethod(input, { signal })
            } catch (error) {
              // No test provider: the real one (STRIPE_SECRET_KEY) takes cards in its own hosted element only.
              if ((error as { status?: number }).status === 404) throw new Error(TEST_PROVIDER_ABSENT)
              throw error
            }
          }),
          // The card's earlier steps (the setup, the card form, Stripe's confirmation) need the page and stop with it; once
          // the card is confirmed, attaching it is one call that goes on.
          attachPaymentMethod: fromPromise(({ input, signal }) =>
            outlive(
              input.orderId === null ? api.updateCreditCardWeb({ pm: input.pm }) : api.updatePaymentMethod(input.orderId, { pm: input.pm }),
              signal,
              {
                notify,
                done: () => success(CARD_REPLACED),
                failed: CARD_NOT_REPLACED,
                after: (card) => toPortal({ type: 'card.changed', card }),
              },
            ),
          ),
        },
        actions: {
          notify: (_, notice) => notify(notice),
          cardChanged: (_, { card }) => toPortal({ type: 'card.changed', card }),
        },
      }),
    ),
    invoiceBook: later(() =>
      invoiceBookMachine.provide({
        actors: {
          loadYears: fromPromise(async ({ signal }) =>
            newestFirst((await Promise.all([api.getInvoiceYears({ signal }), api.getShareInvoiceYears({ signal })])).flat()),
          ),
          // Spec §4: the user's own invoices plus the shared ones, filtered by the selected order.
          loadYear: fromPromise(async ({ input: { year, orderId }, signal }) => {
            const [own, shared, ownNotes, sharedNotes] = await Promise.all([
              api.getInvoices({ year }, { signal }),
              api.getShareInvoices({ year }, { signal }),
              api.getCreditNotesByYear({ year }, { signal }),
              api.getShareCreditNotesByYear({ year }, { signal }),
            ])
            const ofOrder = <T extends { domId: number }>(items: T[]) => items.filter((i) => orderId === null || i.domId === orderId)
            const newest = <T extends { date: string }>(items: T[]) => items.sort((a, b) => b.date.localeCompare(a.date))
            return { invoices: newest(ofOrder([...own, ...shared])), creditNotes: newest(ofOrder([...ownNotes, ...sharedNotes])) }
          }),
          // Every year: pay-unpaid-invoice settles all the order's unpaid invoices, not only the year shown.
          loadUnpaid: fromPromise(({ signal }) => api.getInvoices({}, { signal })),
          pay: fromPromise(({ input, signal }) =>
            outlive(api.payUnpaidInvoice(input), signal, {
              notify,
              done: (reply) => success(reply.message),
              failed: PAYMENT_FAILED,
              after: () => toPortal({ type: 'invoices.paid', orderId: input.orderId }),
            }),
          ),
        },
        actions: {
          notify: (_, notice) => notify(notice),
          invoicesPaid: (_, { orderId }) => toPortal({ type: 'invoices.paid', orderId }),
        },
      }),
    ),
    forwardingAddress: later(() =>
      forwardingAddressMachine.provide({
        actors: {
          saveAddress: fromPromise(({ input, signal }) => {
            // Contract calls swallow their errors (spec §8): null is a failure, which the call told the customer in its own
            // toast (the server's reason); so the page left adds none, or the failure would be told twice.
            const saving = api
              .updateContractAddress(input.contractId, input.address)
              .then((contract) => contract ?? Promise.reject(new Error(ADDRESS_NOT_SAVED)))
            return outlive(saving, signal, {
              notify,
              done: () => success(ADDRESS_SAVED),
              failed: null,
              after: (contract) => toPortal({ type: 'contract.changed', contract }),
            })
          }),
        },
        actions: {
          notify: (_, notice) => notify(notice),
          contractChanged: (_, { contract }) => toPortal({ type: 'contract.changed', contract }),
        },
      }),
    ),
    documentDownload: later(() =>
      documentDownloadMachine.provide({
        actors: { fetchDocument: fromPromise(({ input, signal }) => fetchDocument(api, input, signal)) },
        actions: { saveFile: (_, { blob, fileName }) => saveFile(blob, fileName) },
      }),
    ),
    certificateVerification: later(() =>
      certificateVerificationMachine.provide({
        actors: { verify: fromPromise(({ input, signal }) => api.getCertificateVerification(input.code, { signal })) },
      }),
    ),
  }
}
