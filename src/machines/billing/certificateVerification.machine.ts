// The public page /verification/{code}: the server's answer for a certificate code, and nothing more.
import { assign, fromPromise, setup } from 'xstate'
import type { CertificateVerification } from '../../../server/contract/billing.ts'
import { messageOf, statusOf } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const CERTIFICATE_VALID = 'Attestation valide'
export const CERTIFICATE_REVOKED = 'Cette attestation n’est plus valide'
export const CERTIFICATE_UNKNOWN = 'Aucune attestation ne correspond à ce code.'

export const certificateVerificationMachine = deferred(() =>
  setup({
    types: {
      context: {} as { code: string; valid: { raisonSociale: string; issuedAt: string } | null; error: string | null },
      input: {} as { code: string },
      events: {} as { type: 'verification.retry' },
    },
    actors: {
      verify: fromPromise<CertificateVerification, { code: string }>(async () => {
        throw new Error('certificateVerification: verify is not provided')
      }),
    },
    guards: {
      isValid: (_, params: { answer: CertificateVerification }) => params.answer.status === 'valid',
      // A malformed code (400) is unknown too: the page says the same of both.
      isUnknown: (_, params: { error: unknown }) => statusOf(params.error) === 404 || statusOf(params.error) === 400,
    },
  }).createMachine({
    id: 'certificateVerification',
    context: ({ input }) => ({ code: input.code, valid: null, error: null }),
    initial: 'checking',
    states: {
      checking: {
        tags: ['loading'],
        invoke: {
          id: 'verify',
          src: 'verify',
          input: ({ context }) => ({ code: context.code }),
          onDone: [
            {
              guard: { type: 'isValid', params: ({ event }) => ({ answer: event.output }) },
              target: 'valid',
              actions: assign({
                valid: ({ event }) =>
                  event.output.status === 'valid' ? { raisonSociale: event.output.raisonSociale, issuedAt: event.output.issuedAt } : null,
              }),
            },
            { target: 'revoked' },
          ],
          onError: [
            { guard: { type: 'isUnknown', params: ({ event }) => ({ error: event.error }) }, target: 'unknown' },
            { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          ],
        },
      },
      valid: { type: 'final' },
      revoked: { type: 'final' },
      unknown: { type: 'final' },
      failed: {
        on: { 'verification.retry': { target: 'checking', actions: assign({ error: null }) } },
      },
    },
  }),
)
