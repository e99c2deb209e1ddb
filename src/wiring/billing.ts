// The billing area's flows (the unpaid-invoice banner for now) with their real effects.
import { fromPromise } from 'xstate'
import { unpaidInvoicesMachine } from '../machines/unpaidInvoices.machine.ts'
import type { WiringDeps } from './deps.ts'

export function createBillingFlows({ api, notify }: WiringDeps) {
  return {
    unpaidInvoices: unpaidInvoicesMachine.provide({
      actors: {
        fetchStatus: fromPromise(({ signal }) => api.getUnpaidStatus({ signal })),
        pay: fromPromise(({ input, signal }) => api.payUnpaidInvoice(input.orderId === null ? {} : { orderId: input.orderId }, { signal })),
      },
      actions: { notify: (_, notice) => notify(notice) },
    }),
  }
}
