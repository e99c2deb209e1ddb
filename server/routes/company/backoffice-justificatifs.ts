// The back office's Justificatifs (roles Conformité and Administrateur): the Kbis and identity documents waiting for a
// check, oldest first; one opened with its file; « Valider » or « Refuser » with a reason. A decision names the version of
// the file read (the operator API's ETag rule, kbisTag): a file replaced meanwhile is never decided unseen (412). A
// refusal e-mails the owner and shows in the portal (the Kbis banner, /missing-document) until another file is sent.
import type { Justificatif, JustificatifDecision, JustificatifKind } from '../../contract/company-backoffice.ts'
import { kbisRefusedText, REFUSAL_DETAIL_REQUIRED, refusalText, type RefusalReason } from '../../contract/rules/justificatifs.ts'
import { isBlank } from '../../contract/rules/text.ts'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.ts'
import {
  decideIdentityDocument,
  decideKbis,
  findJustificatif,
  type JustificatifRow,
  type Refusal,
  listWaitingJustificatifs,
} from '../../db/repositories/company-justificatifs.ts'
import { recordJournal } from '../../db/repositories/operators-journal.ts'
import { findUserById } from '../../db/repositories/session.ts'
import { longDate } from '../../lib/time.ts'
import { kbisEvent, recordEvent } from '../../services/events.ts'
import { fileHeaders } from '../files.ts'
import { kbisTag } from './operator.ts'

/** A file's version: the digest of its storage key, which each upload makes new (the operator API's Kbis ETag). */
export const justificatifVersion = kbisTag

export const justificatifMessages = {
  replaced: (what: string) =>
    `Le client a envoyé un autre fichier (${what}) depuis celui que vous avez ouvert : vérifiez le nouveau avant de décider.`,
  decided: (row: JustificatifRow) =>
    row.validatedAt
      ? `Ce justificatif a déjà été validé le ${longDate.format(row.validatedAt)} : rien n’a été changé.`
      : `Ce justificatif a déjà été refusé le ${longDate.format(row.refusedAt!)} : rien n’a été changé.`,
  what: (kind: JustificatifKind) => (kind === 'kbis' ? 'Kbis' : 'Justificatif'),
}

export function toJustificatif(row: JustificatifRow): Justificatif {
  return {
    kind: row.kind,
    id: row.id,
    orderId: row.orderId,
    raisonSociale: row.raisonSociale,
    siren: row.siren,
    label: row.label,
    fileName: row.fileName,
    contentType: row.contentType,
    filedAt: row.filedAt.toISOString(),
    version: justificatifVersion(row.fileKey),
    status: row.validatedAt ? 'validé' : row.refusedAt ? 'refusé' : 'à vérifier',
    decidedAt: (row.validatedAt ?? row.refusedAt)?.toISOString() ?? null,
    refusal: row.refusalReason
      ? { reason: row.refusalReason, detail: row.refusalDetail, text: refusalText(row.refusalReason, row.refusalDetail) }
      : null,
  }
}

const kindWords = (row: JustificatifRow) => (row.kind === 'kbis' ? 'Kbis' : `« ${row.label} »`)

export function companyJustificatifRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, clock, storage, mailer, config } = deps

  define('complianceJustificatifs', async () => (await listWaitingJustificatifs(db)).map(toJustificatif))

  define('complianceJustificatif', async ({ params }) => {
    const row = await findJustificatif(db, params.kind, params.id)
    if (!row) throw notFound(justificatifMessages.what(params.kind))
    return toJustificatif(row)
  })

  define('complianceJustificatifFile', async ({ params, reply }) => {
    const row = await findJustificatif(db, params.kind, params.id)
    const bytes = row ? await storage.get(row.fileKey) : null
    if (!row || !bytes) throw notFound(justificatifMessages.what(params.kind))
    fileHeaders(reply, row.contentType, row.fileName).header('ETag', justificatifVersion(row.fileKey))
    return Buffer.from(bytes)
  })

  /** Validates (refusal null) or refuses the version read, journaled and announced in one transaction; then the e-mail. */
  async function decide(
    kind: JustificatifKind,
    id: number,
    version: string,
    refusal: Refusal | null,
    operatorId: number,
  ): Promise<JustificatifDecision> {
    const now = clock.now()
    const { row, orderValidatedAt } = await db.transaction().execute(async (trx) => {
      const row = await findJustificatif(trx, kind, id, true)
      if (!row) throw notFound(justificatifMessages.what(kind))
      if (row.validatedAt || row.refusedAt) throw conflict(justificatifMessages.decided(row))
      if (version.trim() !== justificatifVersion(row.fileKey))
        throw new HttpError(412, justificatifMessages.replaced(kindWords(row)), 'JUSTIFICATIF_REPLACED')
      const orderValidatedAt =
        kind === 'kbis' ? (await decideKbis(trx, row, now, refusal), null) : await decideIdentityDocument(trx, row, now, refusal)
      const what = `${row.kind === 'kbis' ? 'Kbis' : row.label} de ${row.raisonSociale}`
      await recordJournal(trx, {
        actor: { operatorId },
        action: refusal ? 'justificatif.refused' : 'justificatif.validated',
        orderId: row.orderId,
        summary: refusal ? `${what} refusé : ${refusalText(refusal.reason, refusal.detail)}` : `${what} validé`,
        before: { kind, id, status: 'à vérifier' },
        after: {
          kind,
          id,
          status: refusal ? 'refusé' : 'validé',
          ...(refusal ? { reason: refusal.reason, detail: refusal.detail } : {}),
          ...(orderValidatedAt ? { missingDocumentsValidatedAt: orderValidatedAt.toISOString() } : {}),
        },
        at: now,
      })
      if (kind === 'kbis') {
        await recordEvent(trx, {
          kind: 'kbis',
          orderId: row.orderId,
          ...(refusal
            ? { title: 'Kbis refusé', body: kbisRefusedText(refusal.reason, refusal.detail), link: '/tableau-de-bord' }
            : kbisEvent(row.raisonSociale)),
          at: now,
        })
      }
      return { row, orderValidatedAt }
    })
    const decided = (await findJustificatif(db, kind, id))!
    const notified = refusal ? await mailRefusal(row, refusal) : false
    return { justificatif: toJustificatif(decided), orderValidatedAt: orderValidatedAt?.toISOString() ?? null, notified }
  }

  /** The owner told of a refusal; an e-mail that cannot leave is answered as not sent (the portal shows it all the same). */
  async function mailRefusal(row: JustificatifRow, refusal: Refusal): Promise<boolean> {
    const owner = await findUserById(db, row.ownerId)
    const reason = refusalText(refusal.reason, refusal.detail)
    const link = `${config.publicUrl}${row.kind === 'kbis' ? '/tableau-de-bord' : '/missing-document'}`
    const text =
      row.kind === 'kbis'
        ? `Bonjour ${owner.firstname},\n\nLe Kbis déposé pour ${row.raisonSociale} a été refusé : ${reason}. Déposez-en un autre depuis votre espace client :\n\n${link}\n`
        : `Bonjour ${owner.firstname},\n\nLe document « ${row.label} » envoyé pour ${row.raisonSociale} a été refusé : ${reason}. Envoyez-en un autre depuis votre espace client :\n\n${link}\n`
    return mailer
      .send({
        to: owner.email,
        subject:
          row.kind === 'kbis' ? `Votre Kbis a été refusé (${row.raisonSociale})` : `Un justificatif a été refusé (${row.raisonSociale})`,
        text,
        link,
      })
      .then(() => true)
      .catch(() => false)
  }

  define('complianceValidateJustificatif', async ({ params, body, operator }) =>
    decide(params.kind, params.id, body.version, null, operator.id),
  )

  define('complianceRefuseJustificatif', async ({ params, body, operator }) => {
    const detail = body.detail === undefined || isBlank(body.detail) ? null : body.detail.trim()
    if (body.reason === 'autre' && (detail === null || detail.length < 3)) throw badRequest(REFUSAL_DETAIL_REQUIRED, 'VALIDATION')
    const reason: RefusalReason = body.reason
    return decide(params.kind, params.id, body.version, { reason, detail: reason === 'autre' ? detail : null }, operator.id)
  })
}
