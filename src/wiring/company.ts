// The company area's flows (the identity documents of /missing-document, bank partners, the accountant offer,
// the legal formalities) with their real effects: the calls, the toasts, the order's flags in the portal,
// the way to /formalites.
import { fromPromise } from 'xstate'
import {
  FORMALITIES_PATH,
  FORMALITY_NOT_ORDERED,
  FORMALITY_ORDERED,
  formalityOrderMachine,
} from '../machines/company/formalityOrder.machine.ts'
import { identityUploadMachine } from '../machines/company/identityUpload.machine.ts'
import { uploadedDocumentsMachine } from '../machines/company/uploadedDocuments.machine.ts'
import { legalSubmissionListMachine } from '../machines/company/legalSubmissionList.machine.ts'
import { INTEREST_NOT_SENT, interestSent, type Partner, partnerInterestMachine } from '../machines/company/partnerInterest.machine.ts'
import { codeOf } from '../machines/shared.ts'
import type { OrderChanges } from '../machines/session/startup.machine.ts'
import type { WiringDeps } from './deps.ts'
import { later } from './later.ts'
import { outlive, success } from './outlive.ts'

const flagOf: Record<Partner, keyof OrderChanges> = { qonto: 'qonto', shine: 'shine', 'expert-comptable': 'wantComptable' }

export function createCompanyFlows({ api, notify, navigate, toPortal }: WiringDeps) {
  return {
    identityUpload: later(() =>
      identityUploadMachine.provide({
        // Not outlive.ts: the documents go one after the other, and the next ones need the page to be sent.
        actors: {
          uploadOne: fromPromise(async ({ input, signal }) => {
            const form = new FormData()
            form.set('orderId', String(input.orderId))
            form.set(input.documentType, input.file as unknown as Blob, input.file.name)
            try {
              return await api.uploadIdentity(form, { signal })
            } catch (error) {
              // Complete already (an earlier answer lost on the way, another tab): not a failure. The date the file
              // was completed is the order's, as the server has it.
              if (codeOf(error) !== 'DOCUMENTS_COMPLETE') throw error
              const order = (await api.getMyOrders({ signal })).find((o) => o.id === input.orderId)
              if (!order?.missingDocumentsValidatedAt) throw error
              return { uploaded: [], complete: true, missingDocumentsValidatedAt: order.missingDocumentsValidatedAt }
            }
          }),
        },
        actions: {
          notify: (_, notice) => notify(notice),
          completed: (_, { reply, orderId }) =>
            toPortal({ type: 'documents.completed', orderId, missingDocumentsValidatedAt: reply.missingDocumentsValidatedAt }),
        },
      }),
    ),
    uploadedDocuments: later(() =>
      uploadedDocumentsMachine.provide({
        actors: { load: fromPromise(({ input, signal }) => api.getUploadedDocuments(input.orderId, { signal })) },
      }),
    ),
    partnerInterest: later(() =>
      partnerInterestMachine.provide({
        actors: {
          // Goes on when the page is left before the answer, and is told then (outlive.ts), the order's flag set in the portal.
          sendInterest: fromPromise(({ input: { orderId, partner }, signal }) =>
            outlive<unknown>(
              partner === 'qonto'
                ? api.setQonto(orderId, { qonto: true })
                : partner === 'shine'
                  ? api.setShine(orderId, { shine: true })
                  : api.wantComptable(orderId),
              signal,
              {
                notify,
                done: () => success(interestSent(partner)),
                failed: INTEREST_NOT_SENT,
                after: () => toPortal({ type: 'order.changed', orderId, changes: { [flagOf[partner]]: true } }),
              },
            ),
          ),
        },
        actions: {
          notify: (_, notice) => notify(notice),
          interestSaved: (_, { orderId, partner }) => toPortal({ type: 'order.changed', orderId, changes: { [flagOf[partner]]: true } }),
        },
      }),
    ),
    formalityOrder: later(() =>
      formalityOrderMachine.provide({
        actors: {
          // Each check swallows its own failure (spec §8) and answers undefined: the machine then waits for a retry.
          checkOrder: fromPromise(async ({ input: { orderId }, signal }) => {
            const [completeKbis, waitingContract, attenteCourrierOrFinalise] = await Promise.all([
              api.isCompleteKbis(orderId, { signal }),
              api.isWaitingContract(orderId, { signal }),
              api.isAttenteCourrierOrFinalise(orderId, { signal }),
            ])
            return { completeKbis, waitingContract, attenteCourrierOrFinalise }
          }),
          // Likewise; once the page is gone the customer is told, not taken to /formalites.
          createSubmission: fromPromise(({ input: { orderId, kind, comment }, signal }) =>
            outlive(api.createLegalSubmission({ orderId, kind, ...(comment ? { comment } : {}) }), signal, {
              notify,
              done: () => success(FORMALITY_ORDERED),
              failed: FORMALITY_NOT_ORDERED,
            }),
          ),
        },
        actions: {
          notify: (_, notice) => notify(notice),
          ordered: () => navigate(FORMALITIES_PATH),
        },
      }),
    ),
    legalSubmissionList: later(() =>
      legalSubmissionListMachine.provide({
        actors: {
          loadSubmissions: fromPromise(({ input: { orderId }, signal }) =>
            api.getLegalSubmissions(orderId === null ? {} : { orderId }, { signal }),
          ),
        },
      }),
    ),
    /** A meeting-room booking's invoice, as a PDF. */
    invoiceFile: (invoiceId: number) => api.getInvoiceFile(invoiceId),
  }
}
