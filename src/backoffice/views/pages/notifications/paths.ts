// The notifications area's paths in the back office, apart from its routes.ts (which imports its pages lazily).
import { BACK_OFFICE_PATH } from '../../../../../server/contract/rules/backoffice.ts'

export const MESSAGES_PATH = `${BACK_OFFICE_PATH}/messages`

/** One conversation opened in Messages (where « Contacter le client » leads). */
export const conversationPath = (id: number) => `${MESSAGES_PATH}/${id}`
