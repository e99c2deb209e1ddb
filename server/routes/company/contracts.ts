// Contracts (forwarding address, Kbis) and the identity documents of /step-upload-identity.
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, documentsComplete, fileTooLarge, HttpError, notFound, pdfTooHeavy, pdfTooLong } from '../../http/errors.ts'
import { formParts } from '../../http/multipart.ts'
import { limitPerUser } from '../../http/user-rate-limit.ts'
import {
  getContract,
  listUploadedDocuments,
  recordIdentityDocuments,
  requireOrder,
  requireOwnContract,
  updateContract,
} from '../../db/repositories/company-orders.ts'
import { MAX_UPLOAD_BYTES } from '../../contract/rules/uploads.ts'
import { checkFile, contentTypes, decodeDataUrl, type FileType } from '../../services/file-types.ts'
import { newFileKey, storeWithRecord } from '../../services/storage.ts'
import { sendPdf } from '../files.ts'
import { isBlank, trimmedOrNull } from '../../contract/rules/text.ts'
import { POSTCODE_NOT_FRENCH, isBadPostcode } from '../../contract/rules/address.ts'

const unsupported = (what: string, accepted: string) =>
  new HttpError(415, `${what} n’est pas un fichier ${accepted} valide (fichier incomplet ou d’un autre type).`, 'UNSUPPORTED_FILE')

/** Identity documents: 20 forms an hour per person (each holds up to one 10 MB file per document asked for). */
export const IDENTITY_UPLOAD_LIMIT = {
  name: 'uploadIdentity',
  max: 20,
  windowMs: 3_600_000,
  message: 'Trop de documents envoyés en peu de temps : réessayez dans une heure.',
}

/**
 * A Kbis sent: 20 an hour per person, whatever becomes of it (each is up to 10 MB, checked on the PDF thread for up to
 * 5 s: nothing bounded how often one account could make the server check one).
 */
export const KBIS_UPLOAD_LIMIT = {
  name: 'uploadKbis',
  max: 20,
  windowMs: 3_600_000,
  message: 'Trop de Kbis envoyés en peu de temps : réessayez dans une heure.',
}
/** billing: whether a forwarding address is in France ("France", "FR", any case). */

export function contractRoutes(define: DefineRoute, { db, storage, clock }: AppDeps) {
  define('updateContract', async ({ user, params, body }) => {
    const contract = await requireOwnContract(db, user.id, params.id)
    const { kbis, ...address } = body
    // The schema's minLength sees "   " or zero-width spaces as text: blank is empty all the same (the complement may be cleared).
    for (const field of ['adressePostaleExpedition', 'codePostaleExpedition', 'villePostaleExpedition', 'paysPostaleExpedition'] as const) {
      if (address[field] !== undefined && isBlank(address[field]))
        throw badRequest(`Le champ « ${field} » ne peut pas être vide.`, 'VALIDATION')
    }
    const addressColumns = {
      ...(address.adressePostaleExpedition !== undefined ? { adresse_postale_expedition: address.adressePostaleExpedition.trim() } : {}),
      ...(address.adresseComplementPostaleExpedition !== undefined
        ? { adresse_complement_postale_expedition: trimmedOrNull(address.adresseComplementPostaleExpedition) }
        : {}),
      ...(address.codePostaleExpedition !== undefined ? { code_postale_expedition: address.codePostaleExpedition.trim() } : {}),
      ...(address.villePostaleExpedition !== undefined ? { ville_postale_expedition: address.villePostaleExpedition.trim() } : {}),
      ...(address.paysPostaleExpedition !== undefined ? { pays_postale_expedition: address.paysPostaleExpedition.trim() } : {}),
    }
    // billing: the address as it will be once saved; a French postcode is five digits.
    const postcode = (address.codePostaleExpedition ?? contract.code_postale_expedition)?.trim()
    if (
      Object.keys(addressColumns).length &&
      postcode &&
      isBadPostcode(postcode, address.paysPostaleExpedition ?? contract.pays_postale_expedition)
    ) {
      throw badRequest(POSTCODE_NOT_FRENCH, 'BAD_POSTCODE')
    }
    const update = (kbisKey?: string) => updateContract(db, contract.id, contract.order_id, addressColumns, kbisKey)
    if (kbis === undefined) {
      await update()
    } else {
      await limitPerUser({ db, clock }, user.id, KBIS_UPLOAD_LIMIT)
      const decoded = decodeDataUrl(kbis)
      if (!decoded)
        throw badRequest('Le champ « kbis » doit être un fichier encodé en data URL (data:application/pdf;base64,…).', 'BAD_DATA_URL')
      if (decoded.bytes.length > MAX_UPLOAD_BYTES) throw fileTooLarge()
      const checked = await checkFile(decoded.bytes)
      if (checked.type === null && checked.problem === 'heavy') throw pdfTooHeavy('Le Kbis')
      if (checked.type === null && checked.problem === 'long') throw pdfTooLong('Le Kbis')
      if (checked.type !== 'pdf') throw unsupported('Le Kbis', 'PDF')
      const key = newFileKey('kbis', 'pdf')
      await storeWithRecord(storage, [{ key, bytes: decoded.bytes }], () => update(key))
      // The replaced Kbis is no longer referenced by anything.
      if (contract.kbis_file_key) await storage.delete(contract.kbis_file_key).catch(() => undefined)
    }
    return getContract(db, contract.id)
  })

  define('contractKbis', async ({ user, params, reply }) => {
    const contract = await requireOwnContract(db, user.id, params.id)
    if (!contract.kbis_file_key) throw notFound('Kbis')
    return sendPdf(reply, storage, contract.kbis_file_key, `kbis-${contract.order_id}.pdf`)
  })

  define('uploadIdentity', async ({ user, req }) => {
    if (!req.isMultipart())
      throw badRequest(
        'Le formulaire doit être envoyé en multipart/form-data (champ orderId puis un fichier par document).',
        'NOT_MULTIPART',
      )
    await limitPerUser({ db, clock }, user.id, IDENTITY_UPLOAD_LIMIT)
    let orderId: number | undefined
    let missing: { type: string; label: string }[] = []
    const files: { type: string; label: string; fileName: string; fileType: FileType; bytes: Buffer }[] = []
    // Every file is read and checked before anything is stored: one bad file rejects the whole form. One file per
    // document asked for, and none once the file is complete: a form holds at most one 10 MB file per missing type.
    for await (const part of formParts(req, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 10, fields: 5, parts: 20 } })) {
      if (part.type === 'field') {
        if (part.name !== 'orderId') throw badRequest(`Le champ « ${part.name} » n’est pas attendu.`)
        if (orderId !== undefined) throw badRequest('Le champ « orderId » ne peut figurer qu’une fois.')
        if (!/^[1-9]\d{0,9}$/.test(part.value) || Number(part.value) > 2147483647)
          throw badRequest('Le champ « orderId » doit être un identifiant de domiciliation.')
        const order = await requireOrder(db, user.id, Number(part.value), 'owner')
        if (order.missing_documents_validated_at) throw documentsComplete()
        orderId = order.id
        missing = order.missing_documents ?? []
        continue
      }
      if (orderId === undefined) throw badRequest('Le champ « orderId » doit précéder les fichiers.')
      const expected = missing.find((m) => m.type === part.name)
      if (!expected) throw badRequest(`Le document « ${part.name} » n’est pas demandé pour cette domiciliation.`, 'UNEXPECTED_DOCUMENT')
      if (files.some((f) => f.type === expected.type)) {
        throw badRequest(
          `Le document « ${expected.label} » est joint plusieurs fois : envoyez un seul fichier par document.`,
          'DUPLICATE_DOCUMENT',
        )
      }
      const bytes = await part.bytes()
      const checked = await checkFile(bytes)
      if (checked.type === null && checked.problem === 'heavy') throw pdfTooHeavy(`Le fichier « ${part.fileName} »`)
      if (checked.type === null && checked.problem === 'long') throw pdfTooLong(`Le fichier « ${part.fileName} »`)
      const fileType = checked.type
      if (!fileType) throw unsupported(`Le fichier « ${part.fileName} »`, 'PDF, JPEG ou PNG')
      files.push({ type: expected.type, label: expected.label, fileName: part.fileName || `${expected.type}.${fileType}`, fileType, bytes })
    }
    if (orderId === undefined) throw badRequest('Le champ « orderId » est obligatoire.')
    if (!files.length) throw badRequest('Aucun fichier reçu : joignez au moins un document.', 'NO_FILE')

    const now = clock.now()
    const stored = files.map((f) => ({ ...f, key: newFileKey('identity', f.fileType === 'jpeg' ? 'jpg' : f.fileType) }))
    const documents = stored.map((f) => ({
      order_id: orderId!,
      type: f.type,
      label: f.label,
      file_name: f.fileName,
      content_type: contentTypes[f.fileType],
      file_key: f.key,
      uploaded_at: now,
    }))
    const { replaced } = await storeWithRecord(
      storage,
      stored.map((f) => ({ key: f.key, bytes: f.bytes })),
      () => recordIdentityDocuments(db, orderId!, documents),
    )
    // The files sent before for the same documents are no longer referenced by anything.
    await Promise.all(replaced.map((key) => storage.delete(key).catch(() => undefined)))
    // The file is complete once the provider has validated every document (back office, Justificatifs): never here.
    return { uploaded: await listUploadedDocuments(db, orderId), complete: false, missingDocumentsValidatedAt: null }
  })
}
