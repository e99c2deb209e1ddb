// "Remplacer ma carte" (/moyen-de-paiement), with the local test provider's own card form: the number (Luhn), the expiry
// (MM/AA, not past) and the CVC are checked here; the card goes to the provider (`createPaymentMethod`, never to our API),
// whose pm_… id is then attached: PUT …/{id}/payment-method {pm} for an order, PUT credit-card-web {pm} for 'Tous'.
// A refusal (a declined card, an unknown test number) keeps what was typed and says why; a success forgets the number.
// With the real provider (STRIPE_SECRET_KEY) the server answers the opening with a SetupIntent instead: Stripe.js is
// loaded then, draws its own card field (the number never passes through our code), confirms the SetupIntent and
// hands back the pm_… id, attached the same way. Which mode applies is the server's answer to `prepareCard`.
import { assign, fromPromise, setup } from 'xstate'
import type { PaymentMethod } from '../../../server/contract/billing.ts'
import { luhnValid } from '../../../server/contract/rules/company.ts'
import type { TestCardBody } from '../../../server/contract/test-provider.ts'
import { messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const CARD_NUMBER_INVALID = 'Le numéro de carte est incomplet ou erroné : vérifiez-le.'
export const CARD_EXPIRY_INVALID = 'Indiquez la date d’expiration au format MM/AA.'
export const CARD_EXPIRED = 'Cette carte a expiré : indiquez une carte en cours de validité.'
export const CARD_CVC_INVALID =
  'Le cryptogramme est le nombre de 3 chiffres au dos de la carte (4 chiffres sur le devant pour American Express).'
export const CARD_REPLACED = 'Votre nouvelle carte est enregistrée.'
/** Told once the page was left while the card was being saved (the page itself says why in its form). */
export const CARD_NOT_REPLACED = 'Votre nouvelle carte n’a pas été enregistrée.'
export const HOSTED_CARD_UNAVAILABLE = 'Le formulaire de carte sécurisé n’a pas pu être chargé. Vérifiez votre connexion puis réessayez.'

/** Stripe.js's card field, once loaded: drawn into an element of the dialog, then asked to confirm the SetupIntent. */
export interface HostedCard {
  mount(element: HTMLElement): void
  /** The SetupIntent confirmed with the card typed in the field: its payment method's pm_… id; a refusal throws its message. */
  confirm(clientSecret: string): Promise<string>
  destroy(): void
}
export type CardSetup = { mode: 'test' } | { mode: 'hosted'; clientSecret: string; publishableKey: string }

export interface CardDraft {
  number: string
  /** MM/AA */
  expiry: string
  cvc: string
}
export type CardField = keyof CardDraft

export interface CardReplacementContext {
  /** The order whose subscription the card pays for; null ('Tous'): the default card. */
  orderId: number | null
  /** The current month, to refuse an expired card. */
  today: { year: number; month: number }
  draft: CardDraft
  fieldErrors: Partial<Record<CardField, string>>
  error: string | null
  /** The provider's id of the card, once it made one. */
  pm: string | null
  /** The real provider's SetupIntent, and its card field once Stripe.js is loaded. */
  setup: { clientSecret: string; publishableKey: string } | null
  hosted: HostedCard | null
}

export type CardReplacementEvent =
  | { type: 'card.open' }
  | { type: 'card.change'; draft: Partial<CardDraft> }
  | { type: 'card.submit' }
  | { type: 'card.cancel' }
  | { type: 'card.retry' }

const digits = (value: string) => value.replace(/[\s-]/g, '')

/** The Luhn checksum every card number satisfies. */
export function passesLuhn(number: string): boolean {
  const value = digits(number)
  return /^\d{12,19}$/.test(value) && luhnValid(value)
}

const isAmex = (number: string) => /^3[47]/.test(digits(number))

function expiryOf(expiry: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(expiry)
  if (!match) return null
  const month = Number(match[1])
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2])
  return month >= 1 && month <= 12 ? { month, year } : null
}

/** What is wrong with a card as typed, field by field (empty when it can be sent). */
export function cardProblems(draft: CardDraft, today: { year: number; month: number }): Partial<Record<CardField, string>> {
  const problems: Partial<Record<CardField, string>> = {}
  if (!passesLuhn(draft.number)) problems.number = CARD_NUMBER_INVALID
  const expiry = expiryOf(draft.expiry)
  if (!expiry) problems.expiry = CARD_EXPIRY_INVALID
  else if (expiry.year < today.year || (expiry.year === today.year && expiry.month < today.month)) problems.expiry = CARD_EXPIRED
  if (!(isAmex(draft.number) ? /^\d{4}$/ : /^\d{3}$/).test(draft.cvc.trim())) problems.cvc = CARD_CVC_INVALID
  return problems
}

const toCard = (draft: CardDraft): TestCardBody => {
  const { month, year } = expiryOf(draft.expiry)!
  return { number: digits(draft.number), expMonth: month, expYear: year, cvc: draft.cvc.trim() }
}

const emptyDraft: CardDraft = { number: '', expiry: '', cvc: '' }

export const cardReplacementMachine = deferred(() =>
  setup({
    types: {
      context: {} as CardReplacementContext,
      input: {} as { orderId: number | null; today: { year: number; month: number } },
      events: {} as CardReplacementEvent,
    },
    actors: {
      /** POST card-setup-intents {orderId}: the real provider's SetupIntent, or `{ mode: 'test' }` (the server's `{provider: 'test'}`). */
      prepareCard: fromPromise<CardSetup, { orderId: number | null }>(async () => {
        throw new Error('cardReplacement: prepareCard is not provided')
      }),
      /** Stripe.js, loaded on demand, and its card field. */
      loadHostedCard: fromPromise<HostedCard, { publishableKey: string }>(async () => {
        throw new Error('cardReplacement: loadHostedCard is not provided')
      }),
      confirmHostedCard: fromPromise<string, { hosted: HostedCard; clientSecret: string }>(({ input }) =>
        input.hosted.confirm(input.clientSecret),
      ),
      /** The provider's card form endpoint: the card becomes a pm_… id. */
      createPaymentMethod: fromPromise<PaymentMethod, TestCardBody>(async () => {
        throw new Error('cardReplacement: createPaymentMethod is not provided')
      }),
      /** PUT …/{orderId}/payment-method {pm}, or PUT credit-card-web {pm} without an order. */
      attachPaymentMethod: fromPromise<PaymentMethod, { orderId: number | null; pm: string }>(async () => {
        throw new Error('cardReplacement: attachPaymentMethod is not provided')
      }),
    },
    actions: {
      cardChanged: (_, _params: { card: PaymentMethod }) => {},
      notify: (_, _params: Notice) => {},
    },
    guards: {
      testMode: (_, params: { setup: CardSetup }) => params.setup.mode === 'test',
      hostedMode: ({ context }) => context.setup !== null,
      draftInvalid: ({ context }) => Object.keys(cardProblems(context.draft, context.today)).length > 0,
    },
  }).createMachine({
    id: 'cardReplacement',
    context: ({ input }) => ({
      orderId: input.orderId,
      today: input.today,
      draft: emptyDraft,
      fieldErrors: {},
      error: null,
      pm: null,
      setup: null,
      hosted: null,
    }),
    initial: 'closed',
    states: {
      closed: {
        on: {
          'card.open': {
            target: 'preparing',
            actions: assign({ draft: emptyDraft, fieldErrors: {}, error: null, pm: null, setup: null, hosted: null }),
          },
        },
      },
      preparing: {
        tags: ['form', 'busy', 'preparing'],
        on: { 'card.cancel': 'closed' },
        invoke: {
          id: 'prepareCard',
          src: 'prepareCard',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: [
            { guard: { type: 'testMode', params: ({ event }) => ({ setup: event.output }) }, target: 'editing' },
            {
              target: 'hosted',
              actions: assign({
                setup: ({ event }) =>
                  event.output.mode === 'hosted'
                    ? { clientSecret: event.output.clientSecret, publishableKey: event.output.publishableKey }
                    : null,
              }),
            },
          ],
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      /** The SetupIntent or Stripe.js could not be had: said in French, with 'Réessayer'. */
      failed: {
        tags: ['form'],
        on: {
          'card.retry': { target: 'preparing', actions: assign({ error: null, setup: null, hosted: null, pm: null }) },
          'card.cancel': { target: 'closed', actions: assign({ error: null, setup: null, hosted: null, pm: null }) },
        },
      },
      hosted: {
        tags: ['form', 'hosted'],
        initial: 'loading',
        on: { 'card.cancel': { target: '#cardReplacement.closed', actions: assign({ error: null, setup: null, hosted: null }) } },
        states: {
          loading: {
            tags: ['busy', 'preparing'],
            invoke: {
              id: 'loadHostedCard',
              src: 'loadHostedCard',
              input: ({ context }) => ({ publishableKey: context.setup!.publishableKey }),
              onDone: { target: 'ready', actions: assign({ hosted: ({ event }) => event.output }) },
              onError: { target: '#cardReplacement.failed', actions: assign({ error: HOSTED_CARD_UNAVAILABLE }) },
            },
          },
          ready: {
            on: { 'card.submit': { target: 'confirming', actions: assign({ error: null }) } },
          },
          confirming: {
            tags: ['busy'],
            // Stripe is asked; leaving now would lose its answer.
            on: { 'card.cancel': {} },
            invoke: {
              id: 'confirmHostedCard',
              src: 'confirmHostedCard',
              input: ({ context }) => ({ hosted: context.hosted!, clientSecret: context.setup!.clientSecret }),
              onDone: { target: '#cardReplacement.attaching', actions: assign({ pm: ({ event }) => event.output }) },
              onError: { target: 'ready', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
            },
          },
        },
      },
      editing: {
        tags: ['form'],
        on: {
          'card.change': {
            actions: assign({
              draft: ({ context, event }) => ({ ...context.draft, ...event.draft }),
              fieldErrors: ({ context, event }) =>
                Object.fromEntries(Object.entries(context.fieldErrors).filter(([field]) => !(field in event.draft))),
            }),
          },
          'card.submit': [
            {
              guard: 'draftInvalid',
              actions: assign({ fieldErrors: ({ context }) => cardProblems(context.draft, context.today), error: null }),
            },
            { target: 'creating', actions: assign({ fieldErrors: {}, error: null }) },
          ],
          // The number typed is forgotten with the form.
          'card.cancel': { target: 'closed', actions: assign({ draft: emptyDraft, fieldErrors: {}, error: null }) },
        },
      },
      creating: {
        tags: ['form', 'busy'],
        invoke: {
          id: 'createPaymentMethod',
          src: 'createPaymentMethod',
          input: ({ context }) => toCard(context.draft),
          onDone: { target: 'attaching', actions: assign({ pm: ({ event }) => event.output.id }) },
          onError: { target: 'editing', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      attaching: {
        tags: ['form', 'busy'],
        invoke: {
          id: 'attachPaymentMethod',
          src: 'attachPaymentMethod',
          input: ({ context }) => ({ orderId: context.orderId, pm: context.pm! }),
          onDone: {
            target: 'closed',
            actions: [
              { type: 'cardChanged', params: ({ event }) => ({ card: event.output }) },
              { type: 'notify', params: { kind: 'success', message: CARD_REPLACED } },
              assign({ draft: emptyDraft, pm: null, setup: null, hosted: null }),
            ],
          },
          onError: [
            // The SetupIntent is spent: a new one is asked for with 'Réessayer'.
            { guard: 'hostedMode', target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
            { target: 'editing', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          ],
        },
      },
    },
  }),
)
