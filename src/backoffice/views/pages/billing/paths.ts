// The billing area's paths in the back office, apart from its routes.ts (which imports its pages lazily).
import { BACK_OFFICE_PATH } from '../../../../../server/contract/rules/backoffice.ts'

export const TERMINATIONS_PATH = `${BACK_OFFICE_PATH}/resiliations`
