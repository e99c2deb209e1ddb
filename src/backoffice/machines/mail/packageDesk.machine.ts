// Colis: the packages waiting to be collected, per order (the order waiting longest first), and an arrival registered
// (order, carrier, sender, an optional photo checked here for its kind and size): once registered, the list is read
// again; a refusal leaves the form as filled. A package's handover is its own flow (handover).
import { assign, fromPromise, raise, setup } from 'xstate'
import type { MailRoomPackage, WaitingPackages } from '../../../../server/contract/mail-backoffice.ts'
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from '../../../../server/contract/rules/uploads.ts'
import { isBlank } from '../../../../server/contract/rules/text.ts'
import { messageOf, type Notice } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

export interface ArrivalValues {
  orderId: number | null
  carrier: string
  sender: string
  photo: { name: string; size: number; type: string; file: Blob } | null
}
export type ArrivalProblems = Partial<Record<'orderId' | 'carrier' | 'sender' | 'photo', string>>

export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'application/pdf']
export const ARRIVAL_MESSAGES = {
  orderId: 'Choisissez la domiciliation du colis.',
  carrier: 'Indiquez le transporteur.',
  sender: 'Indiquez l’expéditeur.',
  photo: 'La photo doit être une image JPEG ou PNG, ou un PDF.',
} as const

export function arrivalProblems(values: ArrivalValues): ArrivalProblems {
  const problems: ArrivalProblems = {}
  if (!values.orderId) problems.orderId = ARRIVAL_MESSAGES.orderId
  if (isBlank(values.carrier)) problems.carrier = ARRIVAL_MESSAGES.carrier
  if (isBlank(values.sender)) problems.sender = ARRIVAL_MESSAGES.sender
  if (values.photo && !PHOTO_TYPES.includes(values.photo.type)) problems.photo = ARRIVAL_MESSAGES.photo
  else if (values.photo && values.photo.size > MAX_UPLOAD_BYTES) problems.photo = FILE_TOO_LARGE
  return problems
}

export const registered = (parcel: MailRoomPackage) =>
  `Colis de ${parcel.sender} enregistré pour ${parcel.raisonSociale} : le client est prévenu.`

export type PackageDeskEvent =
  | { type: 'list.reload' }
  | { type: 'list.retry' }
  | { type: 'arrival.send'; values: ArrivalValues }
  | { type: 'package.handedOver'; id: number }

export const packageDeskMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        waiting: WaitingPackages | null
        error: string | null
        arrival: ArrivalValues | null
        problems: ArrivalProblems
        arrivalError: string | null
        /** Bumped at each arrival registered: the form starts again empty. */
        registeredCount: number
      },
      events: {} as PackageDeskEvent,
    },
    actors: {
      load: fromPromise<WaitingPackages, void>(async () => {
        throw new Error('packageDesk: load is not provided')
      }),
      register: fromPromise<MailRoomPackage, ArrivalValues>(async () => {
        throw new Error('packageDesk: register is not provided')
      }),
    },
    actions: { notify: (_, _params: Notice) => {} },
    guards: {
      complete: ({ event }) =>
        Object.keys(arrivalProblems((event as Extract<PackageDeskEvent, { type: 'arrival.send' }>).values)).length === 0,
    },
  }).createMachine({
    id: 'packageDesk',
    type: 'parallel',
    context: { waiting: null, error: null, arrival: null, problems: {}, arrivalError: null, registeredCount: 0 },
    states: {
      list: {
        initial: 'loading',
        on: {
          // The package is no longer waiting: gone from its order's list (and the order, when it was its last one).
          'package.handedOver': {
            actions: assign({
              waiting: ({ context, event }) =>
                context.waiting
                  ?.map((o) => ({ ...o, packages: o.packages.filter((p) => p.id !== event.id) }))
                  .filter((o) => o.packages.length > 0) ?? null,
            }),
          },
        },
        states: {
          loading: {
            tags: ['loading'],
            entry: assign({ error: null }),
            invoke: {
              id: 'load',
              src: 'load',
              onDone: { target: 'shown', actions: assign({ waiting: ({ event }) => event.output }) },
              onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
            },
          },
          failed: { on: { 'list.retry': { target: 'loading' }, 'list.reload': { target: 'loading' } } },
          shown: { on: { 'list.reload': { target: 'loading' } } },
        },
      },
      arrival: {
        initial: 'editing',
        states: {
          editing: {
            on: {
              'arrival.send': [
                {
                  guard: 'complete',
                  target: 'sending',
                  actions: assign({ arrival: ({ event }) => event.values, problems: {}, arrivalError: null }),
                },
                {
                  actions: assign({
                    arrival: ({ event }) => event.values,
                    problems: ({ event }) => arrivalProblems(event.values),
                    arrivalError: null,
                  }),
                },
              ],
            },
          },
          sending: {
            tags: ['registering'],
            invoke: {
              id: 'register',
              src: 'register',
              input: ({ context }) => context.arrival!,
              onDone: {
                target: 'editing',
                actions: [
                  assign({ arrival: null, registeredCount: ({ context }) => context.registeredCount + 1 }),
                  { type: 'notify', params: ({ event }) => ({ kind: 'success' as const, message: registered(event.output) }) },
                  raise({ type: 'list.reload' }),
                ],
              },
              onError: { target: 'editing', actions: assign({ arrivalError: ({ event }) => messageOf(event.error) }) },
            },
          },
        },
      },
    },
  }),
)
