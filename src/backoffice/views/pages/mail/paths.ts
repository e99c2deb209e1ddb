// The mail area's paths in the back office, apart from its routes.ts (which imports its pages lazily).
import { BACK_OFFICE_PATH } from '../../../../../server/contract/rules/backoffice.ts'

export const SCANS_PATH = `${BACK_OFFICE_PATH}/numerisation`
export const PACKAGES_PATH = `${BACK_OFFICE_PATH}/colis`
export const FORWARDING_PATH = `${BACK_OFFICE_PATH}/reexpeditions`
