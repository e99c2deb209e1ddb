// Colis › « Remis »: who may collect the package is read first (the order's owner, then its representatives): the
// collector is one of that list only; the identity document checked (a required tick); the date and time (now unless
// changed, neither in the future nor before the arrival). Sent once; a refusal keeps the choice and says why.
import { assign, fromPromise, setup } from 'xstate'
import type { HandOverBody, MailRoomPackage, PackageCollector } from '../../../../server/contract/mail-backoffice.ts'
import { messageOf, type Notice } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

export interface HandoverValues {
  /** The index of the collector in the list read, or null. */
  collector: number | null
  identityChecked: boolean
  /** ISO instant. */
  collectedAt: string
}
export type HandoverProblems = Partial<Record<keyof HandoverValues, string>>

export const HANDOVER_MESSAGES = {
  collector: 'Choisissez qui retire le colis : le titulaire ou l’un des représentants.',
  identityChecked: 'Vérifiez la pièce d’identité de la personne et cochez la case : c’est obligatoire.',
  collectedAtFuture: 'La date de retrait ne peut pas être dans le futur.',
  collectedAtEarly: 'La date de retrait ne peut pas précéder l’arrivée du colis.',
  collectedAtInvalid: 'Indiquez la date et l’heure du retrait.',
} as const

export function handoverProblems(values: HandoverValues, collectors: readonly PackageCollector[], receivedAt: string, now: Date) {
  const problems: HandoverProblems = {}
  if (values.collector === null || !collectors[values.collector]) problems.collector = HANDOVER_MESSAGES.collector
  if (!values.identityChecked) problems.identityChecked = HANDOVER_MESSAGES.identityChecked
  const at = Date.parse(values.collectedAt)
  if (Number.isNaN(at)) problems.collectedAt = HANDOVER_MESSAGES.collectedAtInvalid
  // A minute's grace: the field shows minutes, and the clocks of the tablet and the server differ a little.
  else if (at > now.getTime() + 60_000) problems.collectedAt = HANDOVER_MESSAGES.collectedAtFuture
  else if (at < Date.parse(receivedAt) - 60_000) problems.collectedAt = HANDOVER_MESSAGES.collectedAtEarly
  return problems
}

/** The body of the handover from the form and the collectors read. */
export function handoverBody(values: HandoverValues, collectors: readonly PackageCollector[]): HandOverBody {
  const collector = collectors[values.collector!]!
  return {
    collector: collector.kind === 'titulaire' ? { kind: 'titulaire' } : { kind: 'mandataire', mandataireId: collector.mandataireId! },
    identityChecked: true,
    collectedAt: new Date(values.collectedAt).toISOString(),
  }
}

export const handedOver = (parcel: MailRoomPackage, name: string) => `Colis de ${parcel.sender} remis à ${name}.`

export type HandoverEvent = { type: 'handover.send'; values: HandoverValues; now: Date } | { type: 'collectors.retry' }

export const handoverMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        parcel: MailRoomPackage
        collectors: PackageCollector[]
        values: HandoverValues | null
        problems: HandoverProblems
        error: string | null
      },
      events: {} as HandoverEvent,
      input: {} as { parcel: MailRoomPackage },
    },
    actors: {
      loadCollectors: fromPromise<PackageCollector[], { id: number }>(async () => {
        throw new Error('handover: loadCollectors is not provided')
      }),
      handOver: fromPromise<MailRoomPackage, { id: number; body: HandOverBody }>(async () => {
        throw new Error('handover: handOver is not provided')
      }),
    },
    actions: {
      /** The package collected: gone from the waiting list (provided by the page). */
      done: (_, _params: { id: number }) => {},
      notify: (_, _params: Notice) => {},
    },
    guards: {
      complete: ({ context, event }) => {
        const { values, now } = event as Extract<HandoverEvent, { type: 'handover.send' }>
        return Object.keys(handoverProblems(values, context.collectors, context.parcel.receivedAt, now)).length === 0
      },
    },
  }).createMachine({
    id: 'handover',
    context: ({ input }) => ({ parcel: input.parcel, collectors: [], values: null, problems: {}, error: null }),
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        entry: assign({ error: null }),
        invoke: {
          id: 'loadCollectors',
          src: 'loadCollectors',
          input: ({ context }) => ({ id: context.parcel.id }),
          onDone: { target: 'choosing', actions: assign({ collectors: ({ event }) => event.output }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: { on: { 'collectors.retry': { target: 'loading' } } },
      choosing: {
        on: {
          'handover.send': [
            { guard: 'complete', target: 'sending', actions: assign({ values: ({ event }) => event.values, problems: {}, error: null }) },
            {
              actions: assign({
                values: ({ event }) => event.values,
                problems: ({ context, event }) => handoverProblems(event.values, context.collectors, context.parcel.receivedAt, event.now),
                error: null,
              }),
            },
          ],
        },
      },
      sending: {
        tags: ['busy'],
        invoke: {
          id: 'handOver',
          src: 'handOver',
          input: ({ context }) => ({ id: context.parcel.id, body: handoverBody(context.values!, context.collectors) }),
          onDone: {
            target: 'done',
            actions: [
              {
                type: 'notify',
                params: ({ context }) => ({
                  kind: 'success' as const,
                  message: handedOver(context.parcel, context.collectors[context.values!.collector!]!.name),
                }),
              },
              { type: 'done', params: ({ context }) => ({ id: context.parcel.id }) },
            ],
          },
          onError: { target: 'choosing', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      done: { type: 'final' },
    },
  }),
)
