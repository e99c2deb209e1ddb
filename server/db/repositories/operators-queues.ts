// The operators' queues as the dashboard counts them: how many items wait, and since when the oldest has.
import type { Db } from '../schema.ts'

export interface Waiting {
  count: number
  oldest: Date | null
}

const waiting = (row: { n: string | number; oldest: Date | string | null } | undefined): Waiting => ({
  count: Number(row?.n ?? 0),
  oldest: row?.oldest ? new Date(row.oldest) : null,
})

/**
 * Justificatifs: the Kbis filed and the identity documents sent that no operator has validated or refused yet, since
 * their filing: exactly the list of GET /api/backoffice/justificatifs (company-justificatifs.ts).
 */
export async function waitingJustificatifs(db: Db): Promise<Waiting> {
  const rows = await db
    .selectFrom('contracts')
    .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('kbis_filed_at').as('oldest')])
    .where('kbis_file_key', 'is not', null)
    .where('kbis_validated_at', 'is', null)
    .where('kbis_refused_at', 'is', null)
    .unionAll(
      db
        .selectFrom('uploaded_documents')
        .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('uploaded_at').as('oldest')])
        .where('validated_at', 'is', null)
        .where('refused_at', 'is', null),
    )
    .execute()
  const both = rows.map(waiting)
  const oldest = both.flatMap((w) => (w.oldest ? [w.oldest.getTime()] : []))
  return { count: both.reduce((sum, w) => sum + w.count, 0), oldest: oldest.length ? new Date(Math.min(...oldest)) : null }
}

/** Messages: the open conversations whose customer's last words wait for the provider's answer, since they were written. */
export async function waitingConversations(db: Db): Promise<Waiting> {
  return waiting(
    await db
      .selectFrom('conversations')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('waiting_since').as('oldest')])
      .where('status', '=', 'open')
      .where('waiting_since', 'is not', null)
      .executeTakeFirst(),
  )
}

/** The mail room's scans not published yet, since their upload (read or not, « À vérifier » or not). */
export async function waitingScans(db: Db): Promise<Waiting> {
  return waiting(
    await db
      .selectFrom('mail_scans')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('uploaded_at').as('oldest')])
      .where('state', '=', 'waiting')
      .executeTakeFirst(),
  )
}

/** Forwarding requests not sent yet. */
export async function waitingForwardingRequests(db: Db): Promise<Waiting> {
  return waiting(
    await db
      .selectFrom('courier_requests')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('kind', '=', 'réexpédition')
      .where('status', '=', 'en attente')
      .executeTakeFirst(),
  )
}

/** Termination requests not answered yet: neither accepted nor the customer contacted about them. */
export async function waitingTerminations(db: Db): Promise<Waiting> {
  return waiting(
    await db
      .selectFrom('termination_requests')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('accepted_at', 'is', null)
      .where('conversation_id', 'is', null)
      .executeTakeFirst(),
  )
}
