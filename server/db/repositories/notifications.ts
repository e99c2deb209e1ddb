// notifications: the bell's rows with each person's read marks, e-mail preferences, the daily
// digest's claim, and each letter's history.
import { sql, type Insertable } from 'kysely'
import type { LetterEvent } from '../../contract/mail.ts'
import type { EmailPreference, PortalNotification } from '../../contract/notifications.ts'
import type { Database, Db } from '../schema.ts'
import { orderAudience } from './company-orders.ts'

const NOTIFICATION_COLUMNS = [
  'notifications.id',
  'notifications.kind',
  'notifications.order_id',
  'notifications.title',
  'notifications.body',
  'notifications.link',
  'notifications.created_at',
] as const

type NotificationRow = {
  id: number
  kind: PortalNotification['kind']
  order_id: number
  title: string
  body: string
  link: string
  created_at: Date
}

export const toNotification = (r: NotificationRow, read: boolean): PortalNotification => ({
  id: r.id,
  kind: r.kind,
  orderId: r.order_id,
  title: r.title,
  body: r.body,
  link: r.link,
  createdAt: r.created_at.toISOString(),
  read,
})

export function insertNotification(db: Db, row: Insertable<Database['notifications']>) {
  return db.insertInto('notifications').values(row).returning(['id', 'created_at']).executeTakeFirstOrThrow()
}

export async function findNotification(db: Db, id: number): Promise<NotificationRow | undefined> {
  return db.selectFrom('notifications').select(NOTIFICATION_COLUMNS).where('id', '=', id).executeTakeFirst()
}

/** At most `limit` notifications of these orders for one person: unread first, newest first. */
export async function listNotifications(db: Db, userId: number, orderIds: number[], limit = 50): Promise<PortalNotification[]> {
  if (!orderIds.length) return []
  const rows = await db
    .selectFrom('notifications')
    .leftJoin('notification_reads as r', (join) => join.onRef('r.notification_id', '=', 'notifications.id').on('r.user_id', '=', userId))
    .select(NOTIFICATION_COLUMNS)
    .select(sql<boolean>`r.user_id is not null`.as('read'))
    .where('notifications.order_id', 'in', orderIds)
    .orderBy(sql`r.user_id is not null`)
    .orderBy('notifications.created_at', 'desc')
    .orderBy('notifications.id', 'desc')
    .limit(limit)
    .execute()
  return rows.map((r) => toNotification(r, r.read))
}

/** At most `limit` notifications of these orders raised after `afterId`, oldest first (what a stream following on from it missed). */
export async function notificationsAfter(
  db: Db,
  userId: number,
  orderIds: number[],
  afterId: number,
  limit: number,
): Promise<PortalNotification[]> {
  if (!orderIds.length) return []
  const rows = await db
    .selectFrom('notifications')
    .leftJoin('notification_reads as r', (join) => join.onRef('r.notification_id', '=', 'notifications.id').on('r.user_id', '=', userId))
    .select(NOTIFICATION_COLUMNS)
    .select(sql<boolean>`r.user_id is not null`.as('read'))
    .where('notifications.order_id', 'in', orderIds)
    .where('notifications.id', '>', afterId)
    .orderBy('notifications.id')
    .limit(limit)
    .execute()
  return rows.map((r) => toNotification(r, r.read))
}

export async function unreadCount(db: Db, userId: number, orderIds: number[]): Promise<number> {
  if (!orderIds.length) return 0
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('order_id', 'in', orderIds)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notification_reads')
            .select('notification_id')
            .whereRef('notification_reads.notification_id', '=', 'notifications.id')
            .where('notification_reads.user_id', '=', userId),
        ),
      ),
    )
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function markRead(db: Db, userId: number, notificationId: number): Promise<void> {
  await db
    .insertInto('notification_reads')
    .values({ notification_id: notificationId, user_id: userId })
    .onConflict((oc) => oc.doNothing())
    .execute()
}

export async function markAllRead(db: Db, userId: number, orderIds: number[]): Promise<void> {
  if (!orderIds.length) return
  await db
    .insertInto('notification_reads')
    .columns(['notification_id', 'user_id'])
    .expression(
      db
        .selectFrom('notifications')
        .select(['id', sql<number>`${userId}::int`.as('user_id')])
        .where('order_id', 'in', orderIds),
    )
    .onConflict((oc) => oc.doNothing())
    .execute()
}

// --- e-mail preferences: 'each' unless the person chose otherwise

export async function emailPreference(db: Db, userId: number, orderId: number): Promise<EmailPreference> {
  const row = await db
    .selectFrom('notification_preferences')
    .select('email')
    .where('user_id', '=', userId)
    .where('order_id', '=', orderId)
    .executeTakeFirst()
  return row?.email ?? 'each'
}

export async function setEmailPreference(db: Db, userId: number, orderId: number, email: EmailPreference): Promise<void> {
  await db
    .insertInto('notification_preferences')
    .values({ user_id: userId, order_id: orderId, email })
    .onConflict((oc) => oc.columns(['user_id', 'order_id']).doUpdateSet({ email }))
    .execute()
}

/** The owner and the collaborators with an account still open who want an e-mail per event on this order. */
export async function peopleWantingEachEmail(db: Db, orderId: number): Promise<{ id: number; email: string; firstname: string }[]> {
  const rows = await db
    .selectFrom(orderAudience(db, orderId).as('p'))
    .innerJoin('users', 'users.id', 'p.user_id')
    .leftJoin('notification_preferences as np', (join) => join.onRef('np.user_id', '=', 'users.id').on('np.order_id', '=', orderId))
    .select(['users.id', 'users.email', 'users.firstname'])
    // A closed account's owner row stays for its orders (people-closing.ts), with an address that reaches no one.
    .where('users.closed_at', 'is', null)
    .where((eb) => eb.or([eb('np.email', 'is', null), eb('np.email', '=', 'each')]))
    .orderBy('users.id')
    .execute()
  const seen = new Set<string>()
  return rows.filter((r) => !seen.has(r.email.toLowerCase()) && seen.add(r.email.toLowerCase()))
}

// --- the daily digest

/** People who chose the digest on at least one order they still reach. */
export async function digestReaders(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('notification_preferences as np')
    .innerJoin('orders', 'orders.id', 'np.order_id')
    .select('np.user_id')
    .distinct()
    .where('np.email', '=', 'digest')
    .where((eb) =>
      eb.or([
        eb('orders.owner_id', '=', eb.ref('np.user_id')),
        eb.exists(
          eb
            .selectFrom('shares')
            .select('shares.id')
            .whereRef('shares.order_id', '=', 'np.order_id')
            .whereRef('shares.user_id', '=', 'np.user_id'),
        ),
      ]),
    )
    .orderBy('np.user_id')
    .execute()
  return rows.map((r) => r.user_id)
}

/**
 * Claims today's digest of one person, covering events up to `until`, inside the caller's transaction: the row is
 * locked until the transaction ends, so another instance waits, then finds it claimed. Answers where the previous
 * digest stopped (a day back for a first one), or null when today's is already claimed.
 */
export async function claimDigest(trx: Db, userId: number, today: string, until: Date): Promise<Date | null> {
  await trx
    .insertInto('notification_digests')
    .values({
      user_id: userId,
      digest_sent_on: sql<string>`(${today}::date - 1)` as never,
      covered_until: new Date(until.getTime() - 86_400_000),
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute()
  const previous = await trx
    .selectFrom('notification_digests')
    .select('covered_until')
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirstOrThrow()
  const claimed = await trx
    .updateTable('notification_digests')
    .set({ digest_sent_on: today, covered_until: until })
    .where('user_id', '=', userId)
    .where('digest_sent_on', '<', sql<string>`${today}::date`)
    .returning('user_id')
    .executeTakeFirst()
  return claimed ? previous.covered_until : null
}

/** The notifications of a person's digest orders in (since, until]. */
export async function digestNotifications(db: Db, userId: number, since: Date, until: Date) {
  return db
    .selectFrom('notifications')
    .innerJoin('notification_preferences as np', (join) =>
      join.onRef('np.order_id', '=', 'notifications.order_id').on('np.user_id', '=', userId),
    )
    .innerJoin('orders', 'orders.id', 'notifications.order_id')
    .select([...NOTIFICATION_COLUMNS, 'orders.raison_sociale'])
    .where('np.email', '=', 'digest')
    .where((eb) =>
      eb.or([
        eb('orders.owner_id', '=', userId),
        eb.exists(
          eb.selectFrom('shares').select('shares.id').whereRef('shares.order_id', '=', 'orders.id').where('shares.user_id', '=', userId),
        ),
      ]),
    )
    .where('notifications.created_at', '>', since)
    .where('notifications.created_at', '<=', until)
    .orderBy('notifications.created_at')
    .orderBy('notifications.id')
    .execute()
}

// --- each letter's history

export async function insertLetterEvent(db: Db, row: Insertable<Database['letter_history']>): Promise<void> {
  const query = db.insertInto('letter_history').values(row)
  await (row.kind === 'opened'
    ? query.onConflict((oc) => oc.columns(['document_id', 'user_id']).where('kind', '=', 'opened').doNothing())
    : query
  ).execute()
}

/** A letter's history for one reader: "vous" for himself, the others by name, null for the provider. */
export async function listLetterHistory(db: Db, documentId: number, viewerId: number): Promise<LetterEvent[]> {
  const rows = await db
    .selectFrom('letter_history')
    .leftJoin('users', 'users.id', 'letter_history.user_id')
    .select([
      'letter_history.kind',
      'letter_history.at',
      'letter_history.detail',
      'letter_history.user_id',
      'users.firstname',
      'users.lastname',
    ])
    .where('letter_history.document_id', '=', documentId)
    .orderBy('letter_history.at')
    .orderBy('letter_history.id')
    .execute()
  return rows.map((r) => ({
    kind: r.kind,
    at: r.at.toISOString(),
    actor: r.user_id === null ? null : r.user_id === viewerId ? 'vous' : `${r.firstname ?? ''} ${r.lastname ?? ''}`.trim() || null,
    detail: r.detail,
  }))
}

/** Gives a claimed digest back when its e-mail could not leave, so that the next round sends it. */
export async function releaseDigest(db: Db, userId: number, today: string, coveredUntil: Date): Promise<void> {
  await db
    .updateTable('notification_digests')
    .set({ digest_sent_on: sql<string>`(${today}::date - 1)` as never, covered_until: coveredUntil })
    .where('user_id', '=', userId)
    .where('digest_sent_on', '=', sql<string>`${today}::date`)
    .execute()
}

// --- the live streams open, per user across the instances (018_live_streams); times are the database's, shared by all

/** A row's age past which its instance is taken for stopped: its `seen_at` older than `staleMs`. */
const staleBefore = (staleMs: number) => sql<Date>`now() - ${staleMs} * interval '1 millisecond'`

/** A new stream's row; its id orders the user's streams, oldest first. */
export async function insertLiveStream(db: Db, userId: number, instance: string): Promise<number> {
  return (await db.insertInto('live_streams').values({ user_id: userId, instance }).returning('id').executeTakeFirstOrThrow()).id
}

/**
 * Deletes the user's rows past his `keep` newest live ones, and those gone stale (their instance stopped without
 * cleaning up, so they hold no place): the streams they stand for are to end. Run under the user's lock (a stream
 * opened at the same moment elsewhere would otherwise be counted by neither).
 */
export async function deleteLiveStreamsBeyond(db: Db, userId: number, keep: number, staleMs: number): Promise<number[]> {
  const newest = db
    .selectFrom('live_streams')
    .select('id')
    .where('user_id', '=', userId)
    .where('seen_at', '>=', staleBefore(staleMs))
    .orderBy('id', 'desc')
    .limit(keep)
  const rows = await db.deleteFrom('live_streams').where('user_id', '=', userId).where('id', 'not in', newest).returning('id').execute()
  return rows.map((r) => r.id)
}

/** Marks these rows of a running instance alive; those it returns still exist (the others were taken over meanwhile). */
export async function touchLiveStreams(db: Db, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set()
  const rows = await db
    .updateTable('live_streams')
    .set({ seen_at: sql<Date>`now()` })
    .where(sql<boolean>`id = any(${ids}::int[])`)
    .returning('id')
    .execute()
  return new Set(rows.map((r) => r.id))
}

/** Every instance's stale rows (their instance stopped without cleaning up). */
export async function deleteStaleLiveStreams(db: Db, staleMs: number): Promise<number> {
  const result = await db.deleteFrom('live_streams').where('seen_at', '<', staleBefore(staleMs)).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** Rows of streams that ended here. */
export async function deleteLiveStreams(db: Db, ids: number[]): Promise<void> {
  if (ids.length) await db.deleteFrom('live_streams').where(sql<boolean>`id = any(${ids}::int[])`).execute()
}
