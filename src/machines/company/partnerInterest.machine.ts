// "Ça m'intéresse" on a partner's offer: the banks of Trésorerie (Qonto: :set-qonto, Shine:
// :set-shine) and the accountant of Gestion de mon entreprise (want-comptable). The request is the
// owner's: a collaborator of a shared order reads where it stands and sends nothing. Once the server
// has it, "Demande envoyée" for good: the order is updated in the portal, and the server sends the
// flag back with the orders after a reload.
import { assign, fromPromise, setup } from 'xstate'
import { messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'

export type Partner = 'qonto' | 'shine' | 'expert-comptable'

export const partnerNames: Record<Partner, string> = {
  qonto: 'Qonto',
  shine: 'Shine',
  'expert-comptable': 'un expert-comptable partenaire',
}

export const OWNER_ONLY = 'Seul le titulaire de la domiciliation peut faire cette demande.'
/** Told once the page was left (the page itself says why where the customer acted). */
export const INTEREST_NOT_SENT = 'Votre demande n’a pas été envoyée.'
export const interestSent = (partner: Partner) =>
  partner === 'expert-comptable'
    ? 'Votre demande est enregistrée : un expert-comptable partenaire vous contactera sous 48 heures ouvrées.'
    : `Votre intérêt pour ${partnerNames[partner]} est transmis : ${partnerNames[partner]} vous contactera.`

export interface PartnerInterestInput {
  orderId: number
  partner: Partner
  /** The order's flag as the server last said (qonto, shine or wantComptable). */
  sent: boolean
  /** A collaborator of a shared order: read only. */
  isShareOrder: boolean
}

export const partnerInterestMachine = deferred(() =>
  setup({
    types: {
      context: {} as PartnerInterestInput & { error: string | null },
      input: {} as PartnerInterestInput,
      events: {} as { type: 'interest.send' },
    },
    actors: {
      sendInterest: fromPromise<unknown, { orderId: number; partner: Partner }>(async () => {
        throw new Error('partnerInterest: sendInterest is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
      /** The order in the portal now carries the flag (provided by the wiring). */
      interestSaved: (_, _params: { orderId: number; partner: Partner }) => {},
    },
    guards: {
      alreadySent: ({ context }) => context.sent,
      isOwner: ({ context }) => !context.isShareOrder,
    },
  }).createMachine({
    id: 'partnerInterest',
    context: ({ input }) => ({ ...input, error: null }),
    initial: 'deciding',
    states: {
      deciding: {
        always: [{ guard: 'alreadySent', target: 'sent' }, { target: 'idle' }],
      },
      idle: {
        on: {
          'interest.send': [
            { guard: 'isOwner', target: 'sending', actions: assign({ error: null }) },
            { actions: assign({ error: OWNER_ONLY }) },
          ],
        },
      },
      sending: {
        tags: ['busy'],
        invoke: {
          id: 'sendInterest',
          src: 'sendInterest',
          input: ({ context }) => ({ orderId: context.orderId, partner: context.partner }),
          onDone: {
            target: 'sent',
            actions: [
              assign({ sent: true }),
              { type: 'interestSaved', params: ({ context }) => ({ orderId: context.orderId, partner: context.partner }) },
              { type: 'notify', params: ({ context }) => ({ kind: 'success' as const, message: interestSent(context.partner) }) },
            ],
          },
          onError: { target: 'idle', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      sent: { tags: ['sent'] },
    },
  }),
)
