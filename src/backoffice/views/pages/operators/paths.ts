// The operators area's paths, apart from its routes.ts (which imports its pages lazily, and the pages these).
import { BACK_OFFICE_PATH } from '../../../../../server/contract/rules/backoffice.ts'

export const ADMINISTRATION_PATH = `${BACK_OFFICE_PATH}/administration`
export const CLIENTS_PATH = `${BACK_OFFICE_PATH}/clients`
export const NEW_CLIENT_PATH = `${CLIENTS_PATH}/nouveau`
export const clientOrderPath = (orderId: number) => `${CLIENTS_PATH}/${orderId}`

/** « Mes clés d’accès »: the signed-in operator's passkeys, every role. */
export const MY_PASSKEYS_PATH = `${BACK_OFFICE_PATH}/mes-cles-d-acces`
