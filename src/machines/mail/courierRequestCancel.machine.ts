// Cancelling a pending courier request (/mes-courriers/reexpeditions): it asks for confirmation,
// calls POST user-demandes-courrier/remove, and on success the request leaves the list (`removed`).
// Refused because the list shown is out of date (409: processed meanwhile; 404: gone), the dialog
// says why and the portal reads the list again (`listOutdated`).
import { assign, fromPromise, setup } from 'xstate'
import type { CourierRequest } from '../../../server/contract/mail.ts'
import { isOutdatedList, messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const REQUEST_CANCELLED = 'La demande a été annulée.'
/** Told once the page was left (the page itself shows the server's reason in its dialog). */
export const REQUEST_NOT_CANCELLED = 'La demande n’a pas été annulée.'
export const REQUEST_NOT_PENDING = 'Seule une demande en attente peut être annulée.'

export const courierRequestCancelMachine = deferred(() =>
  setup({
    types: {
      context: {} as { request: CourierRequest | null; error: string | null },
      events: {} as { type: 'request.cancel'; request: CourierRequest } | { type: 'request.confirm' } | { type: 'request.keep' },
    },
    actors: {
      removeRequest: fromPromise<unknown, { orderId: number; id: number }>(async () => {
        throw new Error('courierRequestCancel: removeRequest is not provided')
      }),
    },
    actions: {
      removed: (_, _params: { id: number }) => {},
      notify: (_, _params: Notice) => {},
      /** The requests as the server has them differ from those shown: the portal reads them again. */
      listOutdated: () => {},
    },
    guards: {
      isPending: (_, params: { request: CourierRequest }) => params.request.status === 'en attente',
      isOutdated: (_, params: { error: unknown }) => isOutdatedList(params.error),
    },
  }).createMachine({
    id: 'courierRequestCancel',
    context: { request: null, error: null },
    initial: 'idle',
    states: {
      idle: {
        on: {
          'request.cancel': [
            {
              guard: { type: 'isPending', params: ({ event }) => ({ request: event.request }) },
              target: 'confirming',
              actions: assign({ request: ({ event }) => event.request, error: null }),
            },
            { actions: { type: 'notify', params: { kind: 'error', message: REQUEST_NOT_PENDING } } },
          ],
        },
      },
      confirming: {
        tags: ['confirm'],
        on: {
          'request.confirm': { target: 'removing' },
          'request.keep': { target: 'idle', actions: assign({ request: null, error: null }) },
        },
      },
      removing: {
        tags: ['confirm', 'busy'],
        invoke: {
          id: 'removeRequest',
          src: 'removeRequest',
          input: ({ context }) => ({ orderId: context.request!.orderId, id: context.request!.id }),
          onDone: {
            target: 'idle',
            actions: [
              { type: 'removed', params: ({ context }) => ({ id: context.request!.id }) },
              { type: 'notify', params: { kind: 'success', message: REQUEST_CANCELLED } },
              assign({ request: null }),
            ],
          },
          onError: [
            {
              guard: { type: 'isOutdated', params: ({ event }) => ({ error: event.error }) },
              target: 'confirming',
              actions: [assign({ error: ({ event }) => messageOf(event.error) }), 'listOutdated'],
            },
            { target: 'confirming', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          ],
        },
      },
    },
  }),
)
