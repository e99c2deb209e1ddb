// Where the back office lives in the browser: the server sends its page for these paths and writes its enrolment links
// with them; its router (src/backoffice/views/pages/operators/routes.ts) routes them.
export const BACK_OFFICE_PATH = '/operateur'
export const SIGN_IN_PATH = `${BACK_OFFICE_PATH}/connexion`
/** An enrolment link: `${ENROLMENT_PATH}/<token>` (wouter's pattern: ENROLMENT_ROUTE). */
export const ENROLMENT_PATH = `${BACK_OFFICE_PATH}/inscription`
export const ENROLMENT_ROUTE = `${ENROLMENT_PATH}/:token`
export const enrolmentPath = (token: string) => `${ENROLMENT_PATH}/${token}`

/** A path of the browser the back office's page is sent for: /operateur and every path below it. */
export const isBackOfficePath = (path: string) => path === BACK_OFFICE_PATH || path.startsWith(`${BACK_OFFICE_PATH}/`)
