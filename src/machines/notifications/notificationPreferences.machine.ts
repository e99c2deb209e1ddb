// notifications: one order's e-mail choice on /informations-personnelles ("Un e-mail par
// événement", "Un résumé quotidien", "Aucun e-mail"): read, then each choice saved; a failed save puts
// the previous choice back and says so.
import { assign, fromPromise, setup } from 'xstate'
import type { EmailPreference } from '../../../server/contract/notifications.ts'
import { messageOf } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const PREFERENCE_LOAD_FAILED = 'Votre choix d’e-mails n’a pas pu être lu.'
export const PREFERENCE_SAVE_FAILED = 'Votre choix n’a pas été enregistré. Réessayez.'
export const PREFERENCE_SAVED = 'Votre choix est enregistré.'

export const notificationPreferencesMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        orderId: number
        email: EmailPreference | null
        saved: EmailPreference | null
        error: string | null
        message: string | null
      },
      input: {} as { orderId: number },
      events: {} as { type: 'preference.choose'; email: EmailPreference } | { type: 'preference.retry' },
    },
    actors: {
      loadPreference: fromPromise<{ email: EmailPreference }, { orderId: number }>(async () => {
        throw new Error('notificationPreferences: loadPreference is not provided')
      }),
      savePreference: fromPromise<{ email: EmailPreference }, { orderId: number; email: EmailPreference }>(async () => {
        throw new Error('notificationPreferences: savePreference is not provided')
      }),
    },
  }).createMachine({
    id: 'notificationPreferences',
    context: ({ input }) => ({ orderId: input.orderId, email: null, saved: null, error: null, message: null }),
    initial: 'loading',
    states: {
      loading: {
        invoke: {
          id: 'loadPreference',
          src: 'loadPreference',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: {
            target: 'ready',
            actions: assign({ email: ({ event }) => event.output.email, saved: ({ event }) => event.output.email }),
          },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error, PREFERENCE_LOAD_FAILED) }) },
        },
      },
      failed: {
        on: { 'preference.retry': { target: 'loading', actions: assign({ error: null }) } },
      },
      ready: {
        on: {
          'preference.choose': {
            guard: ({ context, event }) => event.email !== context.saved,
            target: 'saving',
            actions: assign({ email: ({ event }) => event.email, error: null, message: null }),
          },
        },
      },
      saving: {
        invoke: {
          id: 'savePreference',
          src: 'savePreference',
          input: ({ context }) => ({ orderId: context.orderId, email: context.email! }),
          onDone: {
            target: 'ready',
            actions: assign({
              saved: ({ event }) => event.output.email,
              email: ({ event }) => event.output.email,
              message: PREFERENCE_SAVED,
            }),
          },
          onError: {
            target: 'ready',
            actions: assign({
              email: ({ context }) => context.saved,
              error: ({ event }) => messageOf(event.error, PREFERENCE_SAVE_FAILED),
            }),
          },
        },
      },
    },
  }),
)
