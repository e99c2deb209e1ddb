// notifications: the demo's past as the bell and the letters' histories tell it. What is older than a
// week (and every letter already read) is read by everybody who reaches the order, so the demo opens with a few
// unread notifications. The rows are those recordEvent writes for a live event, all inserted in one statement and
// without its NOTIFY: nobody can be listening for accounts this very transaction creates.
import type { Insertable, Transaction } from 'kysely'
import { legalFormalityLabels } from '../services/legal-formalities.ts'
import { invoiceEvent } from '../services/events.ts'
import { letterPath } from '../contract/rules/mail.ts'
import { orderAudience } from '../db/repositories/company-orders.ts'
import type { Database } from '../db/schema.ts'

export async function seedNotifications(tx: Transaction<Database>, orderId: number, raisonSociale: string, now: Date): Promise<void> {
  const letters = await tx
    .selectFrom('documents')
    .select(['id', 'sender', 'kind', 'pages', 'received_at'])
    .where('order_id', '=', orderId)
    .where('deleted', '=', false)
    .orderBy('received_at')
    .execute()
  if (letters.length) {
    await tx
      .insertInto('letter_history')
      .values(
        letters.flatMap((l) => [
          { document_id: l.id, kind: 'received' as const, at: l.received_at },
          // Scanned two hours after it came, but never later than now (a letter received this morning).
          {
            document_id: l.id,
            kind: 'scanned' as const,
            at: new Date(Math.max(l.received_at.getTime(), Math.min(l.received_at.getTime() + 2 * 3_600_000, now.getTime()))),
          },
        ]),
      )
      .execute()
  }
  const rows: Insertable<Database['notifications']>[] = []
  for (const l of letters) {
    rows.push({
      order_id: orderId,
      kind: 'letter',
      document_id: l.id,
      title: `Nouveau courrier de ${l.sender}`,
      body: `${l.kind}, ${l.pages} page${l.pages > 1 ? 's' : ''} — ${raisonSociale}`,
      link: letterPath(orderId, l.id),
      created_at: l.received_at,
    })
  }
  const packages = await tx
    .selectFrom('packages')
    .select(['id', 'carrier', 'sender', 'received_at'])
    .where('order_id', '=', orderId)
    .execute()
  for (const p of packages) {
    rows.push({
      order_id: orderId,
      kind: 'package',
      package_id: p.id,
      title: 'Nouveau colis',
      body: `De ${p.sender}, par ${p.carrier} — ${raisonSociale}`,
      link: '/mes-courriers/colis',
      created_at: p.received_at,
    })
  }
  const invoices = await tx
    .selectFrom('invoices')
    .select(['number', 'date', 'amount_incl_tax_cents'])
    .where('order_id', '=', orderId)
    .execute()
  for (const i of invoices) {
    rows.push({ order_id: orderId, kind: 'invoice', ...invoiceEvent(i.number, i.amount_incl_tax_cents, raisonSociale), created_at: i.date })
  }
  const submissions = await tx
    .selectFrom('legal_submissions')
    .select(['kind', 'status', 'started_at', 'filed_at', 'completed_at'])
    .where('order_id', '=', orderId)
    .execute()
  for (const s of submissions) {
    const at = s.completed_at ?? s.filed_at ?? s.started_at
    if (!at) continue
    rows.push({
      order_id: orderId,
      kind: 'formality',
      title: `${legalFormalityLabels[s.kind as keyof typeof legalFormalityLabels] ?? s.kind} : ${s.status}`,
      body: `Votre demande pour ${raisonSociale} est passée à l’étape « ${s.status} ».`,
      link: '/formalites',
      created_at: at,
    })
  }
  if (!rows.length) return
  await tx.insertInto('notifications').values(rows).execute()
  // Read by everybody who reaches the order: what is older than a week, and the letters already read.
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000)
  await tx
    .insertInto('notification_reads')
    .columns(['notification_id', 'user_id'])
    .expression(
      tx
        .selectFrom('notifications')
        .crossJoin(orderAudience(tx, orderId).as('p'))
        .select(['notifications.id', 'p.user_id'])
        .where('notifications.order_id', '=', orderId)
        .where((eb) =>
          eb.or([
            eb('notifications.created_at', '<', weekAgo),
            eb(
              'notifications.document_id',
              'in',
              eb
                .selectFrom('documents')
                .select('documents.id')
                .where('documents.order_id', '=', orderId)
                .where('documents.read', '=', true),
            ),
          ]),
        ),
    )
    .execute()
}
