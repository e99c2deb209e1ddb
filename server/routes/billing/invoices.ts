// Invoices, credit notes and meeting-room invoices, for the user's own orders or those shared with them.
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, HttpError, httpErrorOf, notFound } from '../../http/errors.ts'
import { limitPerUser } from '../../http/user-rate-limit.ts'
import { attachmentBudget, MAIL_ATTACHMENTS_MAX_BYTES } from '../../services/mailer.ts'
import { listCalendarInvoices, listCreditNotes, listInvoiceYears, listInvoices, requireBill } from '../../db/repositories/billing.ts'
import { requireDocument } from '../../db/repositories/mail.ts'
import { orderIdsInScope } from '../../db/repositories/company-orders.ts'
import { sendPdf } from '../files.ts'

/** 60 sendings an hour (600 pieces: the page sends batches of 10). */
export const DEXT_LIMIT = {
  name: 'sendDext',
  max: 60,
  windowMs: 3_600_000,
  message: 'Trop d’envois vers la boîte comptable en peu de temps : réessayez dans une heure.',
}
const DEXT_TOO_LARGE = `Cet envoi dépasse ${MAIL_ATTACHMENTS_MAX_BYTES / 1024 / 1024} Mo, ce qu’un e-mail peut porter : cette pièce partira au prochain envoi.`

export function invoiceRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, storage, mailer } = deps
  define('invoiceYears', async ({ user }) => listInvoiceYears(db, await orderIdsInScope(db, user.id, 'own')))
  define('shareInvoiceYears', async ({ user }) => listInvoiceYears(db, await orderIdsInScope(db, user.id, 'shared')))
  define('invoices', async ({ user, query }) => listInvoices(db, await orderIdsInScope(db, user.id, 'own'), query.year))
  define('shareInvoices', async ({ user, query }) => listInvoices(db, await orderIdsInScope(db, user.id, 'shared'), query.year))
  define('creditNotesByYear', async ({ user, query }) => listCreditNotes(db, await orderIdsInScope(db, user.id, 'own'), query.year))
  define('shareCreditNotesByYear', async ({ user, query }) => listCreditNotes(db, await orderIdsInScope(db, user.id, 'shared'), query.year))
  define('calendarInvoices', async ({ user }) => listCalendarInvoices(db, await orderIdsInScope(db, user.id, 'all')))

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
    await limitPerUser(deps, user.id, DEXT_LIMIT)
    const failed: { kind: 'invoice' | 'document'; id: number; reason: string }[] = []
    const attachments: { filename: string; content: Buffer }[] = []
    const budget = attachmentBudget()
    const attach = async (kind: 'invoice' | 'document', id: number, find: () => Promise<{ key: string; filename: string }>) => {
      try {
        const { key, filename } = await find()
        const content = await storage.get(key)
        if (!content) throw notFound('Fichier')
        // Beyond what one e-mail carries: this one waits for the next sending (the page keeps it selected).
        if (!budget.take(content.length)) throw new HttpError(413, DEXT_TOO_LARGE, 'ATTACHMENTS_TOO_LARGE')
        attachments.push({ filename, content })
      } catch (thrown) {
        // A letter or an invoice not found (a repository's NotFoundError) or too large is said, the others sent.
        const error = httpErrorOf(thrown)
        if (!(error instanceof HttpError)) throw thrown
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
        ? `${sent} pièce(s) envoyée(s) à ${body.email}, ${failed.length} non envoyée(s).`
        : `${sent} pièce(s) envoyée(s) à ${body.email}.`,
    }
  })
}
