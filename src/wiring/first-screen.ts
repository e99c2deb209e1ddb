// The flows the dashboard's first screen starts, with their real effects: the layout's (the Kbis banner, the problem
// report) and the dashboard page's (the unpaid-invoice banner, the next deadlines found in the letters). Their own
// chunk, apart from their areas' other flows: a stored user's first screen waits for these alone (src/views/signedIn.ts),
// the areas' other flows come once it has painted.
import { fromPromise } from 'xstate'
import { kbisUploadMachine } from '../machines/company/kbisUpload.machine.ts'
import { letterDeadlinesMachine } from '../machines/mail/letterDeadlines.machine.ts'
import { problemReportMachine } from '../machines/notifications/problemReport.machine.ts'
import { PAYMENT_FAILED, unpaidInvoicesMachine } from '../machines/billing/unpaidInvoices.machine.ts'
import type { FirstScreenApi } from './api.ts'
import type { WiringDeps } from './deps.ts'
import { later } from './later.ts'
import { outlive, success } from './outlive.ts'

/** A chosen file as a data URL (the Kbis is sent that way, spec §3). Read with `Blob.arrayBuffer()`, not a
 *  FileReader: one promise, no events (happy-dom's FileReader, on two nested timers, stalled under load in tests). */
export async function readAsDataUrl(file: Blob): Promise<string> {
  let bytes: Uint8Array
  try {
    bytes = new Uint8Array(await file.arrayBuffer())
  } catch {
    throw new Error('Le fichier n’a pas pu être lu. Choisissez-le à nouveau.')
  }
  // btoa takes a binary string; built in slices, as a spread of 10 MB of arguments would overflow the stack.
  let binary = ''
  for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000))
  return `data:${file.type || 'application/octet-stream'};base64,${btoa(binary)}`
}

export function createFirstScreenFlows({ api, notify, toPortal }: WiringDeps<FirstScreenApi>) {
  return {
    kbisUpload: later(() =>
      kbisUploadMachine.provide({
        // Not outlive.ts: the banner lives in the layout, not in a page, so moving between pages does not stop its upload.
        actors: {
          uploadKbis: fromPromise(async ({ input, signal }) =>
            api.uploadKbis(input.contractId, await readAsDataUrl(input.file as unknown as Blob), { signal }),
          ),
        },
        actions: {
          notify: (_, notice) => notify(notice),
          kbisFiled: (_, filed) => toPortal({ type: 'order.kbisFiled', ...filed }),
        },
      }),
    ),
    problemReport: later(() =>
      problemReportMachine.provide({
        actors: { sendProblem: fromPromise(({ input, signal }) => api.sendProblem(input.orderId, { message: input.message }, { signal })) },
        actions: { notify: (_, notice) => notify(notice) },
      }),
    ),
    // The write goes on when the dashboard is left before the answer (its signal is not passed: outlive.ts). A payment
    // is sent once and only told: never retried nor sent again.
    unpaidInvoices: later(() =>
      unpaidInvoicesMachine.provide({
        actors: {
          fetchStatus: fromPromise(({ signal }) => api.getUnpaidStatus({ signal })),
          pay: fromPromise(({ input, signal }) =>
            outlive(api.payUnpaidInvoice(input), signal, {
              notify,
              done: (reply) => success(reply.message),
              failed: PAYMENT_FAILED,
              after: () => toPortal({ type: 'invoices.paidOwned' }),
            }),
          ),
        },
        actions: { notify: (_, notice) => notify(notice), paid: () => toPortal({ type: 'invoices.paidOwned' }) },
      }),
    ),
    letterDeadlines: later(() =>
      letterDeadlinesMachine.provide({
        actors: {
          loadDeadlines: fromPromise(
            async ({ input: { orderId }, signal }) =>
              (await api.getLetterDeadlines(orderId === null ? {} : { orderId }, { signal })).deadlines,
          ),
        },
      }),
    ),
  }
}
