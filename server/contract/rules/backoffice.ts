// The back office's words and places both sides use: where it lives in the browser (the server sends its page for these
// paths and writes its enrolment links with them; its router routes them) and the roles' names.
import type { OperatorRole } from '../route-def.ts'

/** The roles' names as the back office shows them (its menu, its refusals, the journal). */
export const ROLE_LABELS: Record<OperatorRole, string> = { admin: 'Administrateur', courrier: 'Courrier', conformite: 'Conformité' }
/** The roles in the order the back office lists them (route-def.ts's OPERATOR_ROLES, without the schemas' library). */
export const ROLES = Object.keys(ROLE_LABELS) as OperatorRole[]
/** « Courrier, Conformité ». */
export const rolesText = (roles: readonly string[]) => roles.map((role) => ROLE_LABELS[role as OperatorRole] ?? role).join(', ')

export const BACK_OFFICE_PATH = '/operateur'
export const SIGN_IN_PATH = `${BACK_OFFICE_PATH}/connexion`
/** An enrolment link: `${ENROLMENT_PATH}/<token>` (wouter's pattern: ENROLMENT_ROUTE). */
export const ENROLMENT_PATH = `${BACK_OFFICE_PATH}/inscription`
export const ENROLMENT_ROUTE = `${ENROLMENT_PATH}/:token`
export const enrolmentPath = (token: string) => `${ENROLMENT_PATH}/${token}`

/** A path of the browser the back office's page is sent for: /operateur and every path below it. */
export const isBackOfficePath = (path: string) => path === BACK_OFFICE_PATH || path.startsWith(`${BACK_OFFICE_PATH}/`)
