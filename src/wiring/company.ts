// The company area's flows (bank partners, the accountant offer, the legal formalities) with their
// real effects: the calls, the toasts, the order's flags in the portal, the way to /formalites.
import { fromPromise } from 'xstate'
import { FORMALITIES_PATH, formalityOrderMachine } from '../machines/formalityOrder.machine.ts'
import { legalSubmissionListMachine } from '../machines/legalSubmissionList.machine.ts'
import { type Partner, partnerInterestMachine } from '../machines/partnerInterest.machine.ts'
import type { OrderChanges } from '../machines/startup.machine.ts'
import type { WiringDeps } from './deps.ts'
import { later } from './later.ts'

const flagOf: Record<Partner, keyof OrderChanges> = { qonto: 'qonto', shine: 'shine', 'expert-comptable': 'wantComptable' }

export function createCompanyFlows({ api, notify, navigate, toPortal }: WiringDeps) {
  return {
    partnerInterest: later(() => partnerInterestMachine.provide({
      actors: {
        sendInterest: fromPromise(({ input: { orderId, partner }, signal }) =>
          partner === 'qonto' ? api.setQonto(orderId, { qonto: true }, { signal })
            : partner === 'shine' ? api.setShine(orderId, { shine: true }, { signal })
              : api.wantComptable(orderId, { signal })),
      },
      actions: {
        notify: (_, notice) => notify(notice),
        interestSaved: (_, { orderId, partner }) => toPortal({ type: 'order.changed', orderId, changes: { [flagOf[partner]]: true } }),
      },
    })),
    formalityOrder: later(() => formalityOrderMachine.provide({
      actors: {
        // Each check swallows its own failure (spec §8) and answers undefined: the machine then waits for a retry.
        checkOrder: fromPromise(async ({ input: { orderId }, signal }) => {
          const [completeKbis, waitingContract, attenteCourrierOrFinalise] = await Promise.all([
            api.isCompleteKbis(orderId, { signal }), api.isWaitingContract(orderId, { signal }), api.isAttenteCourrierOrFinalise(orderId, { signal }),
          ])
          return { completeKbis, waitingContract, attenteCourrierOrFinalise }
        }),
        createSubmission: fromPromise(({ input: { orderId, kind, comment }, signal }) =>
          api.createLegalSubmission({ orderId, kind, ...(comment ? { comment } : {}) }, { signal })),
      },
      actions: {
        notify: (_, notice) => notify(notice),
        ordered: () => navigate(FORMALITIES_PATH),
      },
    })),
    legalSubmissionList: later(() => legalSubmissionListMachine.provide({
      actors: {
        loadSubmissions: fromPromise(({ input: { orderId }, signal }) => api.getLegalSubmissions(orderId === null ? {} : { orderId }, { signal })),
      },
    })),
    /** A meeting-room booking's invoice, as a PDF. */
    invoiceFile: (invoiceId: number) => api.getInvoiceFile(invoiceId),
  }
}
