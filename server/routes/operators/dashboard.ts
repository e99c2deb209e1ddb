// The operators' dashboard: each queue their roles own (administrators: all), how many items wait, the oldest one's
// age, and whether it is past its target. QUEUES is the one list to extend: a new queue is one entry (its query, its
// roles, its target), and the dashboard, its route and its test take it as it is.
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import type { DashboardQueue, QueueId } from '../../contract/operators.ts'
import type { OperatorRole } from '../../contract/route-def.ts'
import type { Db } from '../../db/schema.ts'
import {
  waitingForwardingRequests,
  waitingJustificatifs,
  waitingConversations,
  waitingScans,
  waitingTerminations,
  type Waiting,
} from '../../db/repositories/operators-queues.ts'
import { parisDay } from '../../lib/time.ts'
import { parisMidnight } from './journal.ts'

export interface QueueDefinition {
  id: QueueId
  label: string
  /** The back office's page of the queue. */
  path: string
  /** The roles that work the queue and see it (administrators see every queue). */
  roles: readonly OperatorRole[]
  /** The target in French, as the dashboard shows it; null: none. */
  target: string | null
  waiting(db: Db): Promise<Waiting>
  /** When an item that came in at `since` passes its target; null: no target. */
  dueAt: ((since: Date) => Date) | null
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
/** Monday to Friday (French public holidays are not set apart: a day before one is late a day early, never late unseen). */
const isWorkingDay = (day: string) => {
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay()
  return weekday >= 1 && weekday <= 5
}

/** `hours` counted on working days only (Monday to Friday, Paris time): « 24 h ouvrées » from a Friday at 15:00 is Monday 15:00. */
export function addWorkingHours(since: Date, hours: number): Date {
  let remaining = hours * 3_600_000
  let cursor = since
  for (let days = 0; days < 3660; days++) {
    const day = parisDay(cursor)
    const end = parisMidnight(nextDay(day))
    if (isWorkingDay(day)) {
      const available = end.getTime() - cursor.getTime()
      if (remaining <= available) return new Date(cursor.getTime() + remaining)
      remaining -= available
    }
    cursor = end
  }
  return cursor
}

/** The end of the working day after the one of `since`: a forwarding request asked on Friday is due on Monday. */
export function endOfNextWorkingDay(since: Date): Date {
  let day = nextDay(parisDay(since))
  while (!isWorkingDay(day)) day = nextDay(day)
  return parisMidnight(nextDay(day))
}

/** The end of the day (Paris) of `since`. */
export const endOfDay = (since: Date) => parisMidnight(nextDay(parisDay(since)))

/** Every queue of the dashboard, in the order it shows them. */
export const QUEUES: QueueDefinition[] = [
  {
    id: 'numerisation',
    label: 'Numérisation',
    path: '/operateur/numerisation',
    roles: ['courrier'],
    target: 'publiés le jour même',
    waiting: waitingScans,
    dueAt: endOfDay,
  },
  {
    id: 'justificatifs',
    label: 'Justificatifs',
    path: '/operateur/justificatifs',
    roles: ['conformite'],
    target: '48 h',
    waiting: waitingJustificatifs,
    dueAt: (since) => new Date(since.getTime() + 48 * 3_600_000),
  },
  {
    id: 'messages',
    label: 'Messages',
    path: '/operateur/messages',
    roles: ['conformite'],
    target: '24 h ouvrées',
    waiting: waitingConversations,
    dueAt: (since) => addWorkingHours(since, 24),
  },
  {
    id: 'reexpeditions',
    label: 'Réexpéditions',
    path: '/operateur/reexpeditions',
    roles: ['courrier'],
    target: 'le jour ouvré suivant la demande',
    waiting: waitingForwardingRequests,
    dueAt: endOfNextWorkingDay,
  },
  {
    id: 'resiliations',
    label: 'Résiliations',
    path: '/operateur/resiliations',
    roles: ['conformite'],
    target: null,
    waiting: waitingTerminations,
    dueAt: null,
  },
]

export const seesQueue = (roles: readonly OperatorRole[], queue: Pick<QueueDefinition, 'roles'>) =>
  roles.includes('admin') || queue.roles.some((role) => roles.includes(role))

export async function queueState(db: Db, queue: QueueDefinition, now: Date): Promise<DashboardQueue> {
  const { count, oldest } = await queue.waiting(db)
  const dueAt = oldest && queue.dueAt ? queue.dueAt(oldest) : null
  return {
    id: queue.id,
    label: queue.label,
    path: queue.path,
    count,
    oldestAt: oldest?.toISOString() ?? null,
    oldestAgeMinutes: oldest ? Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 60_000)) : null,
    target: queue.target,
    dueAt: dueAt?.toISOString() ?? null,
    late: dueAt !== null && now.getTime() > dueAt.getTime(),
  }
}

export function dashboardRoutes(define: DefineRoute, { db, clock }: AppDeps) {
  define('operatorDashboard', async ({ operator }) => {
    const now = clock.now()
    const queues = []
    for (const queue of QUEUES.filter((q) => seesQueue(operator.roles, q))) queues.push(await queueState(db, queue, now))
    return { at: now.toISOString(), queues }
  })
}
