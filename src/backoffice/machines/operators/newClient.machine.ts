// Clients › « Nouveau client » (administrators): the form checked here first (the same SIREN rule as the server's, its
// Luhn key included), then sent once; the server's refusal shown at its field (a SIREN already domiciled, a start date
// out of range, a field its validator names) or above the form, and nothing typed lost; created, the new order's page.
import { assign, fromPromise, setup } from 'xstate'
import type { NewClient, NewClientBody } from '../../../../server/contract/operators.ts'
import { isValidSiren, SIREN_INVALID } from '../../../../server/contract/rules/company.ts'
import { codeOf, isEmail, messageOf, statusOf } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

/** The form as typed: text fields as strings, the plan and options as chosen. */
export interface NewClientValues {
  raisonSociale: string
  siren: string
  legalForm: NewClientBody['legalForm'] | ''
  firstname: string
  lastname: string
  email: string
  plan: NewClientBody['plan']
  options: NonNullable<NewClientBody['options']>
  startDate: string
  /** Optional: else the address most orders have. */
  domiciliationAddress: string
}
export type NewClientField = Exclude<keyof NewClientValues, 'plan' | 'options'>
export type FieldErrors = Partial<Record<NewClientField, string>>

export const FIELD_MESSAGES = {
  raisonSociale: 'Saisissez la raison sociale de la société.',
  siren: SIREN_INVALID,
  legalForm: 'Choisissez la forme juridique.',
  firstname: 'Saisissez le prénom du titulaire.',
  lastname: 'Saisissez le nom du titulaire.',
  email: 'Saisissez une adresse e-mail valide.',
  startDate: 'Choisissez la date de début de la domiciliation.',
} as const

/** What the form lacks before it is sent (the server checks it all again). */
export function checkNewClient(values: NewClientValues): FieldErrors {
  const errors: FieldErrors = {}
  if (!values.raisonSociale.trim()) errors.raisonSociale = FIELD_MESSAGES.raisonSociale
  if (!isValidSiren(values.siren)) errors.siren = FIELD_MESSAGES.siren
  if (!values.legalForm) errors.legalForm = FIELD_MESSAGES.legalForm
  if (!values.firstname.trim()) errors.firstname = FIELD_MESSAGES.firstname
  if (!values.lastname.trim()) errors.lastname = FIELD_MESSAGES.lastname
  if (!isEmail(values.email.trim())) errors.email = FIELD_MESSAGES.email
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.startDate)) errors.startDate = FIELD_MESSAGES.startDate
  return errors
}

/** The body of POST /api/backoffice/clients from the form (an address left empty is left out). */
export function newClientBody(values: NewClientValues): NewClientBody {
  const address = values.domiciliationAddress.trim()
  return {
    raisonSociale: values.raisonSociale.trim(),
    siren: values.siren.trim(),
    legalForm: values.legalForm as NewClientBody['legalForm'],
    owner: { firstname: values.firstname.trim(), lastname: values.lastname.trim(), email: values.email.trim() },
    plan: values.plan,
    options: values.options,
    startDate: values.startDate,
    ...(address ? { domiciliationAddress: address } : {}),
  }
}

/** The server's names of the body's fields (its validator says « Le champ « owner.email » … »), as the form's. */
const BODY_FIELDS: Record<string, NewClientField> = {
  raisonSociale: 'raisonSociale',
  siren: 'siren',
  legalForm: 'legalForm',
  'owner.firstname': 'firstname',
  'owner.lastname': 'lastname',
  'owner.email': 'email',
  startDate: 'startDate',
  domiciliationAddress: 'domiciliationAddress',
}

/** The field a refusal of the server is about, or null when it is about the whole form (the service down…). */
export function fieldOfRefusal(error: unknown): NewClientField | null {
  const code = codeOf(error)
  const message = messageOf(error)
  if (code === 'SIREN_INVALID') return 'siren'
  if (code === 'START_DATE') return 'startDate'
  if (code === 'NO_ADDRESS') return 'domiciliationAddress'
  if (statusOf(error) === 409) return /SIREN/.test(message) ? 'siren' : /e-mail/.test(message) ? 'email' : null
  const named = /^Le champ « ([^»]+) »/.exec(message)?.[1]?.trim()
  return (statusOf(error) === 400 && named && BODY_FIELDS[named]) || null
}

export type NewClientEvent = { type: 'client.submit'; values: NewClientValues }

export const newClientMachine = deferred(() =>
  setup({
    types: {
      context: {} as { values: NewClientValues | null; fieldErrors: FieldErrors; error: string | null; created: NewClient | null },
      events: {} as NewClientEvent,
    },
    actors: {
      create: fromPromise<NewClient, NewClientBody>(async () => {
        throw new Error('newClient: create is not provided')
      }),
    },
    actions: {
      /** The new order: its page opened, the server's message told (provided by the wiring). */
      created: (_, _params: { client: NewClient }) => {},
    },
    guards: {
      complete: ({ event }) => Object.keys(checkNewClient(event.values)).length === 0,
    },
  }).createMachine({
    id: 'newClient',
    context: { values: null, fieldErrors: {}, error: null, created: null },
    initial: 'editing',
    states: {
      editing: {
        on: {
          'client.submit': [
            {
              guard: 'complete',
              target: 'sending',
              actions: assign({ values: ({ event }) => event.values, fieldErrors: {}, error: null }),
            },
            {
              actions: assign({
                values: ({ event }) => event.values,
                fieldErrors: ({ event }) => checkNewClient(event.values),
                error: null,
              }),
            },
          ],
        },
      },
      sending: {
        tags: ['busy'],
        invoke: {
          id: 'create',
          src: 'create',
          input: ({ context }) => newClientBody(context.values!),
          onDone: {
            target: 'created',
            actions: [
              assign({ created: ({ event }) => event.output }),
              { type: 'created', params: ({ event }) => ({ client: event.output }) },
            ],
          },
          onError: {
            target: 'editing',
            actions: assign(({ event }) => {
              const field = fieldOfRefusal(event.error)
              const message = messageOf(event.error)
              return field ? { fieldErrors: { [field]: message }, error: null } : { fieldErrors: {}, error: message }
            }),
          },
        },
      },
      created: { type: 'final' },
    },
  }),
)
