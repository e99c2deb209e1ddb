// Invoices, credit notes and meeting-room invoices, for the user's own orders or those shared with them.
import { sql, type Kysely } from 'kysely'
import type { CreditNote, Invoice } from '../../contract/index.ts'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, HttpError, notFound } from '../../http/errors.ts'
import { requireDocument } from '../../db/repositories/mail.ts'
import { orderIdsInScope, type Scope } from '../../db/repositories/orders.ts'
import type { Database } from '../../db/schema.ts'
import { sendPdf } from '../files.ts'

type Db = Kysely<Database>
// Invoice years follow the French calendar, whatever the server's time zone.
const yearOf = (column: string) => sql<number>`extract(year from ${sql.ref(column)} at time zone 'Europe/Paris')::int`

async function invoiceYears(db: Db, userId: number, scope: Scope): Promise<number[]> {
  const orderIds = await orderIdsInScope(db, userId, scope)
  if (!orderIds.length) return []
  const rows = await db.selectFrom('invoices').select(yearOf('date').as('year')).distinct()
    .where('order_id', 'in', orderIds).orderBy('year', 'desc').execute()
  return rows.map((r) => r.year)
}

async function listInvoices(db: Db, userId: number, scope: Scope, year?: number): Promise<Invoice[]> {
  const orderIds = await orderIdsInScope(db, userId, scope)
  if (!orderIds.length) return []
  const rows = await db.selectFrom('invoices').innerJoin('orders', 'orders.id', 'invoices.order_id')
    .selectAll('invoices').select('orders.raison_sociale')
    .where('invoices.order_id', 'in', orderIds)
    .$if(year !== undefined, (q) => q.where(yearOf('invoices.date'), '=', year!))
    .orderBy('invoices.date', 'desc').orderBy('invoices.id', 'desc').execute()
  return rows.map((r) => ({
    id: r.id, domId: r.order_id, raisonSociale: r.raison_sociale, number: r.number, date: r.date.toISOString(),
    amountExclTaxCents: r.amount_excl_tax_cents, amountInclTaxCents: r.amount_incl_tax_cents, paid: r.paid_at !== null,
  }))
}

async function listCreditNotes(db: Db, userId: number, scope: Scope, year?: number): Promise<CreditNote[]> {
  const orderIds = await orderIdsInScope(db, userId, scope)
  if (!orderIds.length) return []
  const rows = await db.selectFrom('credit_notes').innerJoin('orders', 'orders.id', 'credit_notes.order_id')
    .selectAll('credit_notes').select('orders.raison_sociale')
    .where('credit_notes.order_id', 'in', orderIds)
    .$if(year !== undefined, (q) => q.where(yearOf('credit_notes.date'), '=', year!))
    .orderBy('credit_notes.date', 'desc').execute()
  return rows.map((r) => ({
    id: r.id, domId: r.order_id, raisonSociale: r.raison_sociale, number: r.number, date: r.date.toISOString(),
    amountExclTaxCents: r.amount_excl_tax_cents, amountInclTaxCents: r.amount_incl_tax_cents, invoiceId: r.invoice_id,
  }))
}

/** An invoice or credit note of an order the user sees (collaborators see the shared order's invoices), or 404. */
async function requireBill(db: Db, table: 'invoices' | 'credit_notes', userId: number, id: number) {
  const row = await db.selectFrom(table).select(['id', 'order_id', 'number', 'file_key']).where('id', '=', id).executeTakeFirst()
  if (!row || !(await orderIdsInScope(db, userId, 'all', row.order_id)).length) throw notFound(table === 'invoices' ? 'Facture' : 'Avoir')
  return row
}

export function invoiceRoutes(define: DefineRoute, { db, storage, mailer }: AppDeps) {
  define('invoiceYears', async ({ user }) => invoiceYears(db, user.id, 'own'))
  define('shareInvoiceYears', async ({ user }) => invoiceYears(db, user.id, 'shared'))
  define('invoices', async ({ user, query }) => listInvoices(db, user.id, 'own', query.year))
  define('shareInvoices', async ({ user, query }) => listInvoices(db, user.id, 'shared', query.year))
  define('creditNotesByYear', async ({ user, query }) => listCreditNotes(db, user.id, 'own', query.year))
  define('shareCreditNotesByYear', async ({ user, query }) => listCreditNotes(db, user.id, 'shared', query.year))

  define('calendarInvoices', async ({ user }) => {
    const orderIds = await orderIdsInScope(db, user.id, 'all')
    if (!orderIds.length) return []
    const rows = await db.selectFrom('calendar_invoices').innerJoin('orders', 'orders.id', 'calendar_invoices.order_id')
      .selectAll('calendar_invoices').select('orders.raison_sociale')
      .where('calendar_invoices.order_id', 'in', orderIds).orderBy('calendar_invoices.date', 'desc').execute()
    return rows.map((r) => ({
      id: r.id, domId: r.order_id, raisonSociale: r.raison_sociale, date: r.date.toISOString(), room: r.room,
      hours: r.hours, amountInclTaxCents: r.amount_incl_tax_cents, paid: r.paid,
    }))
  })

  define('invoiceFile', async ({ user, params, reply }) => {
    const invoice = await requireBill(db, 'invoices', user.id, params.id)
    return sendPdf(reply, storage, invoice.file_key, `facture-${invoice.number}.pdf`)
  })

  define('creditNoteFile', async ({ user, params, reply }) => {
    const note = await requireBill(db, 'credit_notes', user.id, params.id)
    return sendPdf(reply, storage, note.file_key, `avoir-${note.number}.pdf`)
  })

  define('sendDextInvoices', async ({ user, body }) => {
    const invoiceIds = [...new Set(body.invoiceIds)]
    const documentIds = [...new Set(body.documentIds)]
    if (!invoiceIds.length && !documentIds.length) throw badRequest('Sélectionnez au moins une facture ou un courrier à envoyer.')
    const failed: { kind: 'invoice' | 'document'; id: number; reason: string }[] = []
    const attachments: { filename: string; content: Buffer }[] = []
    const attach = async (kind: 'invoice' | 'document', id: number, find: () => Promise<{ key: string; filename: string }>) => {
      try {
        const { key, filename } = await find()
        const content = await storage.get(key)
        if (!content) throw notFound('Fichier')
        attachments.push({ filename, content })
      } catch (error) {
        if (!(error instanceof HttpError)) throw error
        failed.push({ kind, id, reason: error.message })
      }
    }
    for (const id of invoiceIds) {
      await attach('invoice', id, async () => {
        const invoice = await requireBill(db, 'invoices', user.id, id)
        return { key: invoice.file_key, filename: `facture-${invoice.number}.pdf` }
      })
    }
    for (const id of documentIds) {
      await attach('document', id, async () => {
        const document = await requireDocument(db, user.id, id)
        return { key: document.file_key, filename: `courrier-${document.id}.pdf` }
      })
    }
    // Nothing the user may see: the same 404 as every other route given ids that are not theirs.
    if (!attachments.length) throw new HttpError(404, 'Aucune des pièces demandées n’a été trouvée.', 'NOT_FOUND')
    await mailer.send({
      to: body.email,
      subject: `Pièces comptables de ${user.firstname} ${user.lastname}`,
      text: `${attachments.length} pièce(s) jointe(s) envoyée(s) depuis l’espace client.`,
      attachments,
    })
    const sent = attachments.length
    return {
      sent,
      failed,
      message: failed.length
        ? `${sent} pièce(s) envoyée(s) à ${body.email}, ${failed.length} introuvable(s).`
        : `${sent} pièce(s) envoyée(s) à ${body.email}.`,
    }
  })
}
