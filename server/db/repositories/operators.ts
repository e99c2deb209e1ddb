// The back office's operators: accounts, roles, enrolment links, sign-in tickets and sessions.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely'
import type { OperatorRole } from '../../contract/route-def.ts'
import type { OperatorSummary } from '../../contract/operators.ts'
import { randomToken, sha256 } from '../../lib/crypto.ts'
import type { Database, Db } from '../schema.ts'
import { recordJournal } from './operators-journal.ts'
import { markPasskeyUsed } from './session-passkeys.ts'

export type OperatorRow = Selectable<Database['operators']>

/** The operator behind a session, as a handler gets it. */
export interface SessionOperator {
  id: number
  email: string
  name: string
  roles: OperatorRole[]
  sessionId: number
}

/** Idle sessions end: 30 minutes without a request. */
export const OPERATOR_IDLE_MS = 30 * 60_000
/** Between the password and the code. */
export const SIGN_IN_TICKET_MS = 5 * 60_000
export const ENROLMENT_MS = 7 * 86_400_000

export const toOperatorSummary = (row: OperatorRow): OperatorSummary => ({
  id: row.id,
  email: row.email,
  name: row.name,
  roles: row.roles,
  active: row.active,
  enrolled: row.password_hash !== null && row.totp_enrolled_at !== null,
  createdAt: new Date(row.created_at).toISOString(),
  deactivatedAt: row.deactivated_at ? new Date(row.deactivated_at).toISOString() : null,
})

export function findOperatorByEmail(db: Db, email: string) {
  return db.selectFrom('operators').selectAll().where(sql<string>`lower(email)`, '=', email.trim().toLowerCase()).executeTakeFirst()
}

export function findOperator(db: Db, id: number, options: { forUpdate?: boolean } = {}) {
  const query = db.selectFrom('operators').selectAll().where('id', '=', id)
  return (options.forUpdate ? query.forUpdate() : query).executeTakeFirst()
}

export function listOperators(db: Db) {
  return db.selectFrom('operators').selectAll().orderBy('id').execute()
}

/** Thrown when the address already belongs to an operator (case ignored). */
export class OperatorExistsError extends Error {}

/**
 * A new operator, not yet enrolled, and their single-use enrolment link (its token answered once, kept as its hash).
 * `passwordHash` and `enrolledAt` make an operator already enrolled (the demo's).
 */
export async function createOperator(
  db: Transaction<Database>,
  operator: { email: string; name: string; roles: OperatorRole[]; totpSecret: string; now: Date },
): Promise<{ row: OperatorRow; enrolmentToken: string; enrolmentExpiresAt: Date }> {
  const row = await db
    .insertInto('operators')
    .values({ email: operator.email.trim(), name: operator.name, roles: operator.roles, totp_secret: operator.totpSecret })
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .returningAll()
    .executeTakeFirst()
  if (!row) throw new OperatorExistsError()
  const enrolmentToken = randomToken()
  const enrolmentExpiresAt = new Date(operator.now.getTime() + ENROLMENT_MS)
  await db
    .insertInto('operator_enrolments')
    .values({ operator_id: row.id, token_hash: sha256(enrolmentToken), expires_at: enrolmentExpiresAt })
    .execute()
  return { row, enrolmentToken, enrolmentExpiresAt }
}

/** The operator an unused, unexpired enrolment link is for (an active one only). */
export function findEnrolment(db: Db, token: string, now: Date) {
  return db
    .selectFrom('operator_enrolments')
    .innerJoin('operators', 'operators.id', 'operator_enrolments.operator_id')
    .select(['operators.id', 'operators.email', 'operators.name', 'operators.totp_secret', 'operator_enrolments.expires_at'])
    .where('operator_enrolments.token_hash', '=', sha256(token))
    .where('operator_enrolments.used_at', 'is', null)
    .where('operator_enrolments.expires_at', '>', now)
    .where('operators.active', '=', true)
    .executeTakeFirst()
}

/**
 * Uses an enrolment link once: the password and the authenticator's first code's step are set only while the link is
 * still unused (false otherwise: used meanwhile, expired, the operator deactivated).
 */
export async function completeEnrolment(
  db: Kysely<Database>,
  enrolment: { token: string; passwordHash: string; step: number; now: Date },
): Promise<boolean> {
  return db
    .transaction()
    .execute(async (tx) => {
      const link = await tx
        .updateTable('operator_enrolments')
        .set({ used_at: enrolment.now })
        .where('token_hash', '=', sha256(enrolment.token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', enrolment.now)
        .returning('operator_id')
        .executeTakeFirst()
      if (!link) return false
      const operator = await tx
        .updateTable('operators')
        .set({ password_hash: enrolment.passwordHash, totp_enrolled_at: enrolment.now, totp_last_step: enrolment.step })
        .where('id', '=', link.operator_id)
        .where('active', '=', true)
        .returning(['id', 'email'])
        .executeTakeFirst()
      if (!operator) throw new EnrolmentRefused()
      await recordJournal(tx, {
        actor: { operatorId: operator.id },
        action: 'operator.enrolled',
        summary: `Inscription de l’opérateur ${operator.email} : mot de passe choisi, application d’authentification enregistrée`,
        at: enrolment.now,
      })
      // Any other link left for the same operator stops working.
      await tx
        .updateTable('operator_enrolments')
        .set({ used_at: enrolment.now })
        .where('operator_id', '=', link.operator_id)
        .where('used_at', 'is', null)
        .execute()
      return true
    })
    .catch((error: unknown) => {
      if (error instanceof EnrolmentRefused) return false
      throw error
    })
}
class EnrolmentRefused extends Error {}

/** A ticket for the code's step, after a right password. */
export async function createSignInTicket(db: Db, operatorId: number, now: Date): Promise<{ ticket: string; expiresAt: Date }> {
  const ticket = randomToken()
  const expiresAt = new Date(now.getTime() + SIGN_IN_TICKET_MS)
  await db
    .insertInto('operator_sign_in_tickets')
    .values({ operator_id: operatorId, token_hash: sha256(ticket), expires_at: expiresAt })
    .execute()
  return { ticket, expiresAt }
}

/** The active operator an unused, unexpired ticket is for. */
export function findSignInTicket(db: Db, ticket: string, now: Date) {
  return db
    .selectFrom('operator_sign_in_tickets')
    .innerJoin('operators', 'operators.id', 'operator_sign_in_tickets.operator_id')
    .select(['operators.id', 'operators.totp_secret'])
    .where('operator_sign_in_tickets.token_hash', '=', sha256(ticket))
    .where('operator_sign_in_tickets.used_at', 'is', null)
    .where('operator_sign_in_tickets.expires_at', '>', now)
    .where('operators.active', '=', true)
    .where('operators.totp_enrolled_at', 'is not', null)
    .executeTakeFirst()
}

export type OpenSessionResult = { token: string } | { refused: 'ticket' | 'replay' }

/** What proved the second factor: a TOTP code's step, or a passkey's signature with the counter it carried. */
export type SecondFactor = { step: number } | { passkeyId: number; counter: number }

/**
 * The second factor was right: in one transaction, the ticket is used, the factor taken (a code's step only if later than
 * the last one taken; a passkey's counter only if above its stored one, markPasskeyUsed: a code or a signature, once
 * used, never opens a second session) and the session opened. 'replay' when the factor was taken already.
 */
export async function openOperatorSession(
  db: Kysely<Database>,
  session: { ticket: string; operatorId: number; factor: SecondFactor; now: Date },
): Promise<OpenSessionResult> {
  const { factor } = session
  return db
    .transaction()
    .execute(async (tx) => {
      const ticket = await tx
        .updateTable('operator_sign_in_tickets')
        .set({ used_at: session.now })
        .where('token_hash', '=', sha256(session.ticket))
        .where('operator_id', '=', session.operatorId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', session.now)
        .returning('id')
        .executeTakeFirst()
      if (!ticket) return { refused: 'ticket' } as const
      const taken =
        'step' in factor
          ? await tx
              .updateTable('operators')
              .set({ totp_last_step: factor.step })
              .where('id', '=', session.operatorId)
              .where('active', '=', true)
              .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', String(factor.step))]))
              .returning('id')
              .executeTakeFirst()
          : (await tx
              .selectFrom('operators')
              .select('id')
              .where('id', '=', session.operatorId)
              .where('active', '=', true)
              .forShare()
              .executeTakeFirst()) && (await markPasskeyUsed(tx, 'operator_passkeys', factor.passkeyId, factor.counter, session.now))
      // The ticket stays usable for the next try: the transaction is rolled back by the throw below.
      if (!taken) throw new ReplayedCode()
      const token = randomToken()
      await tx
        .insertInto('operator_sessions')
        .values({ operator_id: session.operatorId, token_hash: sha256(token), last_used_at: session.now })
        .execute()
      return { token }
    })
    .catch((error: unknown) => {
      if (error instanceof ReplayedCode) return { refused: 'replay' } as const
      throw error
    })
}
class ReplayedCode extends Error {}

/**
 * The operator behind a session, in one statement: the session not ended, used within the idle time, its operator still
 * active (a deactivation ends it from the next request on, whatever instance serves it); its use noted at once.
 */
export async function findOperatorSession(db: Db, token: string, now: Date): Promise<SessionOperator | undefined> {
  const row = await db
    .updateTable('operator_sessions')
    .from('operators')
    .set({ last_used_at: now })
    .whereRef('operators.id', '=', 'operator_sessions.operator_id')
    .where('operator_sessions.token_hash', '=', sha256(token))
    .where('operator_sessions.ended_at', 'is', null)
    .where('operator_sessions.last_used_at', '>', new Date(now.getTime() - OPERATOR_IDLE_MS))
    .where('operators.active', '=', true)
    .returning(['operators.id', 'operators.email', 'operators.name', 'operators.roles', 'operator_sessions.id as session_id'])
    .executeTakeFirst()
  return row && { id: row.id, email: row.email, name: row.name, roles: row.roles, sessionId: row.session_id }
}

export async function endOperatorSession(db: Db, sessionId: number, now: Date): Promise<void> {
  await db.updateTable('operator_sessions').set({ ended_at: now }).where('id', '=', sessionId).where('ended_at', 'is', null).execute()
}

export async function setOperatorRoles(db: Db, id: number, roles: OperatorRole[]): Promise<OperatorRow | undefined> {
  return db.updateTable('operators').set({ roles }).where('id', '=', id).returningAll().executeTakeFirst()
}

/** Deactivates an operator and ends every session of theirs, in the caller's transaction; undefined when already inactive or unknown. */
export async function deactivateOperator(db: Db, id: number, now: Date): Promise<OperatorRow | undefined> {
  const row = await db
    .updateTable('operators')
    .set({ active: false, deactivated_at: now })
    .where('id', '=', id)
    .where('active', '=', true)
    .returningAll()
    .executeTakeFirst()
  if (!row) return undefined
  await db.updateTable('operator_sessions').set({ ended_at: now }).where('operator_id', '=', id).where('ended_at', 'is', null).execute()
  return row
}
