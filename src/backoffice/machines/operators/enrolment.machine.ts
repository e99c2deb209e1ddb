// An enrolment link (/operateur/inscription/:token): the page reads what the link is for (the operator's address and
// name, the TOTP secret and its otpauth:// URI), then sends the password chosen and a first code of the app, which
// proves the app was set up. A link invalid, used or expired says so for good; a wrong code or a refused password keep
// what was typed and say why; the service down leaves it all to try again.
import { assign, fromPromise, setup } from 'xstate'
import type { Static } from 'typebox'
import type { OperatorEnrolment } from '../../../../server/contract/operators.ts'
import { isServiceFailure, messageOf, statusOf } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

export type Enrolment = Static<typeof OperatorEnrolment>

export type EnrolmentEvent = { type: 'enrolment.submit'; password: string; code: string } | { type: 'enrolment.retry' }

export const enrolmentMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        token: string
        enrolment: Enrolment | null
        error: string | null
        /** The server's words once enrolled (« Votre compte opérateur est prêt… »). */
        done: string | null
      },
      input: {} as { token: string },
      events: {} as EnrolmentEvent,
    },
    actors: {
      load: fromPromise<Enrolment, { token: string }>(async () => {
        throw new Error('enrolment: load is not provided')
      }),
      enrol: fromPromise<{ message: string }, { token: string; password: string; code: string }>(async () => {
        throw new Error('enrolment: enrol is not provided')
      }),
    },
    guards: {
      isServiceFailure: (_, params: { error: unknown }) => isServiceFailure(params.error),
      /** The link no longer opens anything (404): invalid, used, expired. */
      isLinkRefused: (_, params: { error: unknown }) => statusOf(params.error) === 404,
    },
  }).createMachine({
    id: 'enrolment',
    context: ({ input }) => ({ token: input.token, enrolment: null, error: null, done: null }),
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: 'load',
          src: 'load',
          input: ({ context }) => ({ token: context.token }),
          onDone: { target: 'ready', actions: assign({ enrolment: ({ event }) => event.output, error: null }) },
          onError: [
            {
              guard: { type: 'isServiceFailure', params: ({ event }) => ({ error: event.error }) },
              target: 'failed',
              actions: assign({ error: ({ event }) => messageOf(event.error) }),
            },
            { target: 'refused', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          ],
        },
      },
      failed: {
        on: { 'enrolment.retry': { target: 'loading', actions: assign({ error: null }) } },
      },
      refused: { type: 'final' },
      ready: {
        on: { 'enrolment.submit': { target: 'submitting', actions: assign({ error: null }) } },
      },
      submitting: {
        tags: ['busy'],
        invoke: {
          id: 'enrol',
          src: 'enrol',
          input: ({ context, event }) => {
            const { password, code } = event as Extract<EnrolmentEvent, { type: 'enrolment.submit' }>
            return { token: context.token, password, code }
          },
          onDone: { target: 'enrolled', actions: assign({ done: ({ event }) => event.output.message }) },
          onError: [
            {
              guard: { type: 'isLinkRefused', params: ({ event }) => ({ error: event.error }) },
              target: 'refused',
              actions: assign({ error: ({ event }) => messageOf(event.error), enrolment: null }),
            },
            { target: 'ready', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          ],
        },
      },
      enrolled: { type: 'final' },
    },
  }),
)
