// The people around an order besides its owner: collaborators (shares) and representatives (mandataires).
// Accounts and sessions are in session.ts.
import { sql, type Insertable } from 'kysely'
import type { Mandataire, Share } from '../../contract/people.ts'
import { isUniqueViolation } from '../errors.ts'
import type { Database, Db } from '../schema.ts'

type ShareRow = {
  id: number
  email: string
  user_id: number | null
  created_at: Date
  accepted_at: Date | null
  invitation_sent_at: Date | null
  invitation_expires_at: Date | null
  firstname: string | null
  lastname: string | null
}
// A name shows only once the person accepted: before that the owner knows nothing but the address typed.
// The link's dates only while it waits: an accepted share keeps the last ones, which no longer mean anything.
const toShare = (r: ShareRow): Share => ({
  id: r.id,
  email: r.email,
  firstname: r.user_id ? r.firstname : null,
  lastname: r.user_id ? r.lastname : null,
  status: r.user_id ? 'active' : 'invitée',
  createdAt: r.created_at.toISOString(),
  acceptedAt: r.accepted_at?.toISOString() ?? null,
  invitationSentAt: r.user_id ? null : (r.invitation_sent_at?.toISOString() ?? null),
  invitationExpiresAt: r.user_id ? null : (r.invitation_expires_at?.toISOString() ?? null),
})

function sharesQuery(db: Db, orderId: number) {
  return db
    .selectFrom('shares')
    .leftJoin('users', 'users.id', 'shares.user_id')
    .select([
      'shares.id',
      'shares.email',
      'shares.user_id',
      'shares.created_at',
      'shares.accepted_at',
      'shares.invitation_sent_at',
      'shares.invitation_expires_at',
      'users.firstname',
      'users.lastname',
    ])
    .where('shares.order_id', '=', orderId)
}

export async function listShares(db: Db, orderId: number): Promise<Share[]> {
  return (await sharesQuery(db, orderId).orderBy('shares.id').execute()).map(toShare)
}

/** The shares of these addresses (case ignored), in the order of the addresses. */
export async function sharesByEmail(db: Db, orderId: number, emails: string[]): Promise<Share[]> {
  const rows = await sharesQuery(db, orderId)
    .where(
      sql<string>`lower(shares.email)`,
      'in',
      emails.map((e) => e.toLowerCase()),
    )
    .execute()
  return emails.flatMap((email) => rows.filter((r) => r.email.toLowerCase() === email.toLowerCase()).map(toShare))
}

export interface Invitation {
  tokenHash: string
  expiresAt: Date
  now: Date
}

/** What inviteToOrder wrote, so that it can be taken back (undoInvitation) when its e-mail cannot leave. */
export interface SentInvitation {
  shareId: number
  tokenHash: string
  /** The pending invitation this one replaced (its link, expiry, sending and sender), or null when the share was created here. */
  previous: { tokenHash: string | null; expiresAt: Date | null; sentAt: Date | null; invitedBy: number | null } | null
}

/**
 * Invites an address to an order: a new share waiting for its acceptance, or a new link for an
 * invitation still pending whose last link left more than `resendAfterMs` ago. One statement, so
 * concurrent invitations of one address meet on the unique key instead of failing. What it wrote
 * when a link is to be sent (this call's token is the one stored), null otherwise.
 */
export async function inviteToOrder(
  db: Db,
  orderId: number,
  email: string,
  invitedBy: number,
  invitation: Invitation,
  resendAfterMs: number,
): Promise<SentInvitation | null> {
  const resendBefore = new Date(invitation.now.getTime() - resendAfterMs)
  const row = await db
    // The row as it was, read by the same statement, for undoInvitation.
    .with('previous', (qb) =>
      qb
        .selectFrom('shares')
        .select(['id', 'invitation_token_hash', 'invitation_expires_at', 'invitation_sent_at', 'invited_by'])
        .where('order_id', '=', orderId)
        .where(sql<string>`lower(email)`, '=', email.toLowerCase()),
    )
    .insertInto('shares')
    .values({
      order_id: orderId,
      email,
      user_id: null,
      invited_by: invitedBy,
      invitation_token_hash: invitation.tokenHash,
      invitation_expires_at: invitation.expiresAt,
      invitation_sent_at: invitation.now,
    })
    .onConflict((oc) =>
      oc
        .expression(sql`order_id, lower(email)`)
        .doUpdateSet({
          invitation_token_hash: invitation.tokenHash,
          invitation_expires_at: invitation.expiresAt,
          invitation_sent_at: invitation.now,
          invited_by: invitedBy,
        })
        .where('shares.user_id', 'is', null)
        .where((eb) => eb.or([eb('shares.invitation_sent_at', 'is', null), eb('shares.invitation_sent_at', '<', resendBefore)])),
    )
    .returning((eb) => [
      'shares.id',
      eb.selectFrom('previous').select('previous.id').as('previous_id'),
      eb.selectFrom('previous').select('previous.invitation_token_hash').as('previous_token_hash'),
      eb.selectFrom('previous').select('previous.invitation_expires_at').as('previous_expires_at'),
      eb.selectFrom('previous').select('previous.invitation_sent_at').as('previous_sent_at'),
      eb.selectFrom('previous').select('previous.invited_by').as('previous_invited_by'),
    ])
    .executeTakeFirst()
  if (!row) return null
  return {
    shareId: row.id,
    tokenHash: invitation.tokenHash,
    previous:
      row.previous_id === null
        ? null
        : {
            tokenHash: row.previous_token_hash,
            expiresAt: row.previous_expires_at,
            sentAt: row.previous_sent_at,
            invitedBy: row.previous_invited_by,
          },
  }
}

/**
 * Takes back what inviteToOrder wrote when its e-mail could not leave: the share it created, or the pending invitation
 * it replaced, as it was (its former link works again, and the next invitation of the address sends a new one). Only
 * while this call's link is still the one stored.
 */
export async function undoInvitation(db: Db, sent: SentInvitation): Promise<void> {
  if (sent.previous === null) {
    await db
      .deleteFrom('shares')
      .where('id', '=', sent.shareId)
      .where('invitation_token_hash', '=', sent.tokenHash)
      .where('user_id', 'is', null)
      .execute()
    return
  }
  const { tokenHash, expiresAt, sentAt, invitedBy } = sent.previous
  await db
    .updateTable('shares')
    .set({ invitation_token_hash: tokenHash, invitation_expires_at: expiresAt, invitation_sent_at: sentAt, invited_by: invitedBy })
    .where('id', '=', sent.shareId)
    .where('invitation_token_hash', '=', sent.tokenHash)
    .where('user_id', 'is', null)
    .execute()
}

/** An invitation by its link's token hash (accepted ones too: user_id set), with its order and who sent it; undefined when unknown. */
export function findInvitation(db: Db, tokenHash: string) {
  return db
    .selectFrom('shares')
    .innerJoin('orders', 'orders.id', 'shares.order_id')
    .leftJoin('users as inviter', 'inviter.id', 'shares.invited_by')
    .select([
      'shares.id',
      'shares.order_id',
      'shares.email',
      'shares.user_id',
      'shares.invitation_expires_at',
      'orders.raison_sociale',
      'inviter.firstname as inviter_firstname',
      'inviter.lastname as inviter_lastname',
    ])
    .where('shares.invitation_token_hash', '=', tokenHash)
    .executeTakeFirst()
}

/** Why a link could not be accepted, as found once the attempt failed: removed (or sent again), accepted, or out of date. */
export type InvitationRefusal = 'unknown' | 'used' | 'expired'

/**
 * Spends an invitation's link: access starts for this user. Conditional, so a link is accepted once
 * even when two tabs try together. The order's id, or why not: what the link is now (a request that
 * lost a race to another acceptance or to the owner removing the share says so, not "expired").
 */
export async function acceptInvitation(
  db: Db,
  tokenHash: string,
  userId: number,
  now: Date,
): Promise<{ orderId: number } | { refused: InvitationRefusal }> {
  // Whether the person reaches the share's order already: its owner, or a collaborator by another share (an
  // invitation to an address they had before changing it). Then the link is used up and nothing is added.
  const hasAccess = sql<boolean>`(exists (select 1 from orders where orders.id = shares.order_id and orders.owner_id = ${userId})
    or exists (select 1 from shares as held where held.order_id = shares.order_id and held.user_id = ${userId}))`
  for (let attempt = 1; ; attempt++) {
    try {
      const row = await db
        .updateTable('shares')
        .set({ user_id: userId, accepted_at: now })
        .where('invitation_token_hash', '=', tokenHash)
        .where('user_id', 'is', null)
        .where('invitation_expires_at', '>', now)
        .where(sql<boolean>`not ${hasAccess}`)
        .returning('order_id')
        .executeTakeFirst()
      if (row) return { orderId: row.order_id }
    } catch (error) {
      // Another link of the same order accepted by the same person at the same moment (shares_order_user_idx).
      if (!isUniqueViolation(error)) throw error
    }
    const used = await db
      .deleteFrom('shares')
      .where('invitation_token_hash', '=', tokenHash)
      .where('user_id', 'is', null)
      .where('invitation_expires_at', '>', now)
      .where(hasAccess)
      .returning('order_id')
      .executeTakeFirst()
    if (used) return { orderId: used.order_id }
    // Neither: what the link is now.
    const share = await db
      .selectFrom('shares')
      .select(['user_id', 'invitation_expires_at'])
      .where('invitation_token_hash', '=', tokenHash)
      .executeTakeFirst()
    if (!share) return { refused: 'unknown' }
    if (share.user_id !== null) return { refused: 'used' }
    if (!share.invitation_expires_at || new Date(share.invitation_expires_at) <= now) return { refused: 'expired' }
    // Still waiting: the person's other access ended between the two statements. Once more (it cannot flip for ever).
    if (attempt === 3) return { refused: 'unknown' }
  }
}

/** False when the order has no such collaborator. */
export async function deleteShare(db: Db, orderId: number, shareId: number): Promise<boolean> {
  const deleted = await db.deleteFrom('shares').where('id', '=', shareId).where('order_id', '=', orderId).executeTakeFirst()
  return deleted.numDeletedRows > 0n
}

/** The owner and the collaborators who have an account (an invitation still pending cannot open a link), each address once. */
export async function listPeopleWithAccount(db: Db, orderId: number): Promise<{ email: string; firstname: string }[]> {
  const owner = await db
    .selectFrom('orders')
    .innerJoin('users', 'users.id', 'orders.owner_id')
    .select(['users.email', 'users.firstname'])
    .where('orders.id', '=', orderId)
    .execute()
  const collaborators = await db
    .selectFrom('shares')
    .innerJoin('users', 'users.id', 'shares.user_id')
    .select(['users.email', 'users.firstname'])
    .where('shares.order_id', '=', orderId)
    .orderBy('shares.id')
    .execute()
  const seen = new Set<string>()
  return [...owner, ...collaborators].filter((r) => !seen.has(r.email.toLowerCase()) && seen.add(r.email.toLowerCase()))
}

type MandataireRow = { id: number; firstname: string; lastname: string; email: string; phone: string; created_at: Date }
const toMandataire = (r: MandataireRow): Mandataire => ({
  id: r.id,
  firstname: r.firstname,
  lastname: r.lastname,
  email: r.email,
  phone: r.phone,
  createdAt: r.created_at.toISOString(),
})

export async function listMandataires(db: Db, orderId: number): Promise<Mandataire[]> {
  const rows = await db.selectFrom('mandataires').selectAll().where('order_id', '=', orderId).orderBy('id').execute()
  return rows.map(toMandataire)
}

/**
 * A new representative, or null when the order has one of the same first and last name (case ignored) already: the
 * unique index of migration 012 says so, also for two identical ones added at the same moment.
 */
export async function createMandataire(db: Db, mandataire: Insertable<Database['mandataires']>): Promise<Mandataire | null> {
  const row = await db
    .insertInto('mandataires')
    .values(mandataire)
    .onConflict((oc) => oc.expression(sql`order_id, lower(firstname), lower(lastname)`).doNothing())
    .returningAll()
    .executeTakeFirst()
  return row ? toMandataire(row) : null
}

/** False when the order has no such representative. */
export async function deleteMandataire(db: Db, orderId: number, mandataireId: number): Promise<boolean> {
  const deleted = await db.deleteFrom('mandataires').where('id', '=', mandataireId).where('order_id', '=', orderId).executeTakeFirst()
  return deleted.numDeletedRows > 0n
}
