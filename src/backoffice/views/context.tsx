// What the back office's views receive from its composition root (src/backoffice/wiring/services.ts) or from a test:
// the session actor and the flows, each with its effects provided.
import { useSelector } from '@xstate/react'
import { createContext, useContext } from 'react'
import type { OperatorMe } from '../../../server/contract/operators.ts'
import type { BackOfficeFlows, BackOfficeServices, OperatorSessionRef } from '../wiring/services.ts'

export type { BackOfficeFlows, BackOfficeServices, OperatorSessionRef }

export const BackOfficeContext = createContext<BackOfficeServices | null>(null)

export function useBackOffice(): BackOfficeServices {
  const services = useContext(BackOfficeContext)
  if (!services) throw new Error('BackOfficeContext is missing: render the views inside <BackOfficeApp services={…}>')
  return services
}

/** The operator signed in, or null. */
export const useOperator = (): OperatorMe | null => useSelector(useBackOffice().session, (s) => s.context.session?.operator ?? null)
