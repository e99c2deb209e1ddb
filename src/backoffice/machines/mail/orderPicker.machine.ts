// The orders an operator picks from (a scan's, a package's): the first ones by name, then those matching what is typed
// (company, owner, SIREN, order number), asked a moment after the typing stops; the newest answer only.
import { assign, fromPromise, setup } from 'xstate'
import type { MailRoomOrder } from '../../../../server/contract/mail-backoffice.ts'
import { messageOf } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

export const TYPING_PAUSE_MS = 250

export type OrderPickerEvent = { type: 'picker.search'; query: string } | { type: 'picker.retry' }

export const orderPickerMachine = deferred(() =>
  setup({
    types: {
      context: {} as { query: string; orders: MailRoomOrder[]; error: string | null },
      events: {} as OrderPickerEvent,
    },
    actors: {
      search: fromPromise<MailRoomOrder[], { query: string }>(async () => {
        throw new Error('orderPicker: search is not provided')
      }),
    },
    delays: { pause: TYPING_PAUSE_MS },
  }).createMachine({
    id: 'orderPicker',
    context: { query: '', orders: [], error: null },
    initial: 'loading',
    on: {
      'picker.search': {
        target: '.typing',
        reenter: true,
        actions: assign({ query: ({ event }) => event.query.replace(/\s+/g, ' ').trim(), error: null }),
      },
    },
    states: {
      typing: { after: { pause: { target: 'loading' } } },
      loading: {
        tags: ['loading'],
        entry: assign({ error: null }),
        invoke: {
          id: 'search',
          src: 'search',
          input: ({ context }) => ({ query: context.query }),
          onDone: { target: 'shown', actions: assign({ orders: ({ event }) => event.output }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: { on: { 'picker.retry': { target: 'loading' } } },
      shown: {},
    },
  }),
)
