// "Adresse de réexpédition" (/souscription/attestation-contrats): the five address fields of spec §7 saved with
// PUT contracts/{id}; a French postcode is five digits. The saved address shows at once (`contractChanged`); a
// failure keeps the form as typed and says so.
import { assign, fromPromise, setup } from 'xstate'
import type { ContractAddressBody } from '../../../server/contract/company.ts'
import type { Contract } from '../../../server/contract/session.ts'
import { messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'
import { isBlank, singleLineProblem } from '../../../server/contract/rules/text.ts'
import { POSTCODE_NOT_FRENCH, isBadPostcode } from '../../../server/contract/rules/address.ts'

export const ADDRESS_STREET_MISSING = 'Indiquez le numéro et la rue.'
export const ADDRESS_POSTCODE_MISSING = 'Indiquez le code postal.'
export const ADDRESS_POSTCODE_FRENCH = POSTCODE_NOT_FRENCH
export const ADDRESS_CITY_MISSING = 'Indiquez la ville.'
export const ADDRESS_COUNTRY_MISSING = 'Indiquez le pays.'
export const ADDRESS_SAVED = 'Votre adresse de réexpédition est enregistrée.'
export const ADDRESS_NOT_SAVED = 'Votre adresse de réexpédition n’a pas été enregistrée : vérifiez-la puis réessayez.'

export interface AddressDraft {
  adressePostaleExpedition: string
  adresseComplementPostaleExpedition: string
  codePostaleExpedition: string
  villePostaleExpedition: string
  paysPostaleExpedition: string
}
export type AddressField = keyof AddressDraft

export interface ForwardingAddressContext {
  contract: Contract
  draft: AddressDraft
  fieldErrors: Partial<Record<AddressField, string>>
  error: string | null
}

export type ForwardingAddressEvent =
  | { type: 'address.edit' }
  | { type: 'address.change'; draft: Partial<AddressDraft> }
  | { type: 'address.submit' }
  | { type: 'address.cancel' }

export function addressProblems(draft: AddressDraft): Partial<Record<AddressField, string>> {
  const problems: Partial<Record<AddressField, string>> = {}
  if (isBlank(draft.adressePostaleExpedition)) problems.adressePostaleExpedition = ADDRESS_STREET_MISSING
  const postcode = draft.codePostaleExpedition.trim()
  if (!postcode) problems.codePostaleExpedition = ADDRESS_POSTCODE_MISSING
  else if (isBadPostcode(postcode, draft.paysPostaleExpedition)) problems.codePostaleExpedition = ADDRESS_POSTCODE_FRENCH
  if (isBlank(draft.villePostaleExpedition)) problems.villePostaleExpedition = ADDRESS_CITY_MISSING
  if (isBlank(draft.paysPostaleExpedition)) problems.paysPostaleExpedition = ADDRESS_COUNTRY_MISSING
  // Each field is one line (the server's schema refuses the rest before its handler looks at what is missing).
  for (const field of Object.keys(draft) as AddressField[]) {
    const problem = singleLineProblem(draft[field])
    if (problem) problems[field] = problem
  }
  return problems
}

const draftOf = (contract: Contract): AddressDraft => ({
  adressePostaleExpedition: contract.adressePostaleExpedition ?? '',
  adresseComplementPostaleExpedition: contract.adresseComplementPostaleExpedition ?? '',
  codePostaleExpedition: contract.codePostaleExpedition ?? '',
  villePostaleExpedition: contract.villePostaleExpedition ?? '',
  paysPostaleExpedition: contract.paysPostaleExpedition ?? 'France',
})

const bodyOf = (draft: AddressDraft): ContractAddressBody => ({
  adressePostaleExpedition: draft.adressePostaleExpedition.trim(),
  adresseComplementPostaleExpedition: isBlank(draft.adresseComplementPostaleExpedition)
    ? null
    : draft.adresseComplementPostaleExpedition.trim(),
  codePostaleExpedition: draft.codePostaleExpedition.trim(),
  villePostaleExpedition: draft.villePostaleExpedition.trim(),
  paysPostaleExpedition: draft.paysPostaleExpedition.trim(),
})

export const forwardingAddressMachine = deferred(() =>
  setup({
    types: {
      context: {} as ForwardingAddressContext,
      input: {} as { contract: Contract },
      events: {} as ForwardingAddressEvent,
    },
    actors: {
      /** PUT contracts/{id} with the five fields: the saved contract (a swallowed failure is an error here). */
      saveAddress: fromPromise<Contract, { contractId: number; address: ContractAddressBody }>(async () => {
        throw new Error('forwardingAddress: saveAddress is not provided')
      }),
    },
    actions: {
      contractChanged: (_, _params: { contract: Contract }) => {},
      notify: (_, _params: Notice) => {},
    },
    guards: {
      draftInvalid: ({ context }) => Object.keys(addressProblems(context.draft)).length > 0,
    },
  }).createMachine({
    id: 'forwardingAddress',
    context: ({ input }) => ({ contract: input.contract, draft: draftOf(input.contract), fieldErrors: {}, error: null }),
    initial: 'viewing',
    states: {
      viewing: {
        on: {
          'address.edit': {
            target: 'editing',
            actions: assign({ draft: ({ context }) => draftOf(context.contract), fieldErrors: {}, error: null }),
          },
        },
      },
      editing: {
        tags: ['form'],
        on: {
          'address.change': {
            actions: assign({
              draft: ({ context, event }) => ({ ...context.draft, ...event.draft }),
              fieldErrors: ({ context, event }) =>
                Object.fromEntries(Object.entries(context.fieldErrors).filter(([field]) => !(field in event.draft))),
            }),
          },
          'address.submit': [
            { guard: 'draftInvalid', actions: assign({ fieldErrors: ({ context }) => addressProblems(context.draft), error: null }) },
            { target: 'saving', actions: assign({ fieldErrors: {}, error: null }) },
          ],
          'address.cancel': { target: 'viewing', actions: assign({ fieldErrors: {}, error: null }) },
        },
      },
      saving: {
        tags: ['form', 'busy'],
        invoke: {
          id: 'saveAddress',
          src: 'saveAddress',
          input: ({ context }) => ({ contractId: context.contract.id, address: bodyOf(context.draft) }),
          onDone: {
            target: 'viewing',
            actions: [
              assign({ contract: ({ event }) => event.output }),
              { type: 'contractChanged', params: ({ event }) => ({ contract: event.output }) },
              { type: 'notify', params: { kind: 'success', message: ADDRESS_SAVED } },
            ],
          },
          onError: { target: 'editing', actions: assign({ error: ({ event }) => messageOf(event.error, ADDRESS_NOT_SAVED) }) },
        },
      },
    },
  }),
)
