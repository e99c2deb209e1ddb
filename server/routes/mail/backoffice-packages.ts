// The back office's Colis (roles Courrier and Administrateur): a package's arrival (with an optional photo, checked
// by its content as every upload), the packages waiting per order, and the handover at the desk to the owner or one of
// the order's representatives only, identity document checked. The customer then reads « Retiré le … par … ».
import type { MailRoomPackage, WaitingPackages } from '../../contract/mail-backoffice.ts'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, conflict, fileTooLarge, HttpError, notFound, pdfTooHeavy, pdfTooLong } from '../../http/errors.ts'
import { MAX_UPLOAD_BYTES } from '../../contract/rules/uploads.ts'
import {
  collectorsOf,
  findMailRoomPackage,
  findPackagePhoto,
  handOverPackage,
  toMailRoomPackage,
  waitingPackages,
} from '../../db/repositories/mail-room.ts'
import { recordJournal } from '../../db/repositories/operators-journal.ts'
import { checkFile, contentTypes, decodeDataUrl } from '../../services/file-types.ts'
import { announcePackage, cleanText, recordPackage } from '../../services/ingest.ts'
import { requireOpenOrder } from '../../services/mail-room.ts'
import { newFileKey, storeWithRecord } from '../../services/storage.ts'
import { longDate, parisTime } from '../../lib/time.ts'
import { fileHeaders } from '../files.ts'

export const packageMessages = {
  identityNotChecked:
    'Vérifiez la pièce d’identité de la personne qui retire le colis (case « Pièce d’identité vérifiée ») : le colis n’a pas été remis.',
  notACollector:
    'Cette personne n’est pas un mandataire de cette domiciliation : un colis n’est remis qu’au titulaire ou à l’un de ses mandataires.',
  alreadyCollected: (by: string, at: Date) =>
    `Ce colis a déjà été remis à ${by} le ${longDate.format(at)} à ${parisTime(at)} : il n’a pas été remis une seconde fois.`,
  notWaiting: (status: string) => `Ce colis n’est pas à retirer (il est « ${status} ») : il ne peut pas être remis.`,
  collectedInFuture: 'La date de retrait ne peut pas être dans le futur.',
  collectedBeforeArrival: 'La date de retrait ne peut pas précéder l’arrivée du colis.',
  badPhoto: 'La photo doit être un fichier JPEG, PNG ou PDF encodé en data URL (data:image/jpeg;base64,…).',
}

/** The photo of a package: its bytes checked as every upload (JPEG, PNG or PDF); a French 4xx for anything else. */
async function checkedPhoto(dataUrl: string) {
  const decoded = decodeDataUrl(dataUrl)
  if (!decoded) throw badRequest(packageMessages.badPhoto, 'BAD_DATA_URL')
  if (decoded.bytes.length > MAX_UPLOAD_BYTES) throw fileTooLarge()
  const checked = await checkFile(decoded.bytes)
  if (checked.type === null && checked.problem === 'heavy') throw pdfTooHeavy('La photo')
  if (checked.type === null && checked.problem === 'long') throw pdfTooLong('La photo')
  if (checked.type === null && checked.problem === 'active')
    throw badRequest('La photo contient du code (JavaScript ou HTML) : elle est refusée.', 'UNSUPPORTED_FILE')
  if (checked.type === null) throw new HttpError(415, 'La photo n’est pas un fichier JPEG, PNG ou PDF valide.', 'UNSUPPORTED_FILE')
  return { bytes: decoded.bytes, type: checked.type }
}

export function mailRoomPackageRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, storage, clock } = deps

  define('mailRoomRegisterPackage', async ({ body, operator, req }) => {
    const now = clock.now()
    const carrier = cleanText(body.carrier, 'carrier', 100)
    const sender = cleanText(body.sender, 'sender', 200)
    const order = await requireOpenOrder(deps, body.orderId, now)
    const photo = body.photo === undefined ? null : await checkedPhoto(body.photo)
    const key = photo ? newFileKey('packages', photo.type === 'jpeg' ? 'jpg' : photo.type) : null
    const parcel = await storeWithRecord(storage, photo && key ? [{ key, bytes: photo.bytes }] : [], () =>
      db.transaction().execute((trx) =>
        recordPackage(trx, {
          order,
          carrier,
          sender,
          receivedAt: now,
          at: now,
          ...(photo && key ? { photo: { key, contentType: contentTypes[photo.type] } } : {}),
          alongside: (packageId) =>
            recordJournal(trx, {
              actor: { operatorId: operator.id },
              action: 'package.received',
              orderId: order.id,
              summary: `Colis de ${sender} (${carrier}) reçu pour ${order.raison_sociale}${photo ? ', avec sa photo' : ''}`,
              after: { packageId, carrier, sender, photo: photo !== null },
              at: now,
            }),
        }),
      ),
    )
    const { notificationFailures } = await announcePackage(deps, parcel)
    if (notificationFailures.length)
      req.log.error({ packageId: parcel.id, notificationFailures }, 'notification du nouveau colis impossible')
    return { ...parcel, hasPhoto: photo !== null } satisfies MailRoomPackage
  })

  define('mailRoomWaitingPackages', async ({ query }) => {
    const groups: WaitingPackages = []
    for (const row of await waitingPackages(db, query.orderId)) {
      let group = groups.find((g) => g.orderId === row.order_id)
      if (!group) groups.push((group = { orderId: row.order_id, raisonSociale: row.raison_sociale, packages: [] }))
      group.packages.push(toMailRoomPackage(row))
    }
    return groups
  })

  define('mailRoomPackagePhoto', async ({ params, reply }) => {
    const photo = await findPackagePhoto(db, params.id)
    const bytes = photo?.photo_file_key ? await storage.get(photo.photo_file_key) : null
    if (!photo?.photo_file_key || !bytes) throw notFound('Photo')
    const extension = photo.photo_type === 'application/pdf' ? 'pdf' : photo.photo_type === 'image/png' ? 'png' : 'jpg'
    fileHeaders(reply, photo.photo_type ?? 'application/octet-stream', `colis-${params.id}.${extension}`)
    return bytes
  })

  define('mailRoomPackageCollectors', async ({ params }) => {
    const parcel = await findMailRoomPackage(db, params.id)
    if (!parcel) throw notFound('Colis')
    const { owner, mandataires } = await collectorsOf(db, parcel.order_id)
    return [
      ...(owner ? [{ kind: 'titulaire' as const, mandataireId: null, name: owner }] : []),
      ...mandataires.map((m) => ({ kind: 'mandataire' as const, mandataireId: m.id, name: m.name })),
    ]
  })

  define('mailRoomHandOverPackage', async ({ params, body, operator }) => {
    if (!body.identityChecked) throw badRequest(packageMessages.identityNotChecked, 'IDENTITY_NOT_CHECKED')
    const now = clock.now()
    const asked = body.collectedAt === undefined ? now : new Date(body.collectedAt)
    if (Number.isNaN(asked.getTime())) throw badRequest('Le champ « collectedAt » doit être une date et heure ISO 8601.')
    if (asked.getTime() > now.getTime() + 5 * 60_000) throw badRequest(packageMessages.collectedInFuture)
    const row = await db.transaction().execute(async (trx) => {
      const parcel = await findMailRoomPackage(trx, params.id, { forUpdate: true })
      if (!parcel) throw notFound('Colis')
      if (parcel.status === 'Retiré' && parcel.collected_at && parcel.collected_by)
        throw conflict(packageMessages.alreadyCollected(parcel.collected_by, parcel.collected_at))
      if (parcel.status !== 'À retirer') throw conflict(packageMessages.notWaiting(parcel.status))
      // The form's field shows minutes: a package handed over in the minute it arrived is typed at that minute's start,
      // before its arrival's seconds. Earlier than that minute is refused; within it, the handover is dated at the arrival.
      const arrivalMinute = new Date(Math.floor(parcel.received_at.getTime() / 60_000) * 60_000)
      if (asked < arrivalMinute) throw badRequest(packageMessages.collectedBeforeArrival)
      const collectedAt = new Date(Math.max(asked.getTime(), parcel.received_at.getTime()))
      // Chosen from this order's list only: a representative of another order, or one removed meanwhile, is nobody here.
      const { owner, mandataires } = await collectorsOf(trx, parcel.order_id)
      const { collector } = body
      const mandataire = collector.kind === 'mandataire' ? mandataires.find((m) => m.id === collector.mandataireId) : undefined
      if (collector.kind === 'mandataire' && !mandataire) throw badRequest(packageMessages.notACollector, 'NOT_A_COLLECTOR')
      const collectedBy = mandataire ? mandataire.name : owner!
      await handOverPackage(trx, parcel.id, {
        at: collectedAt,
        collectedBy,
        kind: body.collector.kind,
        mandataireId: mandataire?.id ?? null,
        operatorId: operator.id,
      })
      await recordJournal(trx, {
        actor: { operatorId: operator.id },
        action: 'package.handedOver',
        orderId: parcel.order_id,
        summary: `Colis de ${parcel.sender} (${parcel.carrier}) remis à ${collectedBy} (${mandataire ? 'mandataire' : 'titulaire'}), pièce d’identité vérifiée`,
        before: { status: parcel.status },
        after: { status: 'Retiré', collectedBy, collectedAt: collectedAt.toISOString(), identityChecked: true },
        at: now,
      })
      return (await findMailRoomPackage(trx, parcel.id))!
    })
    return toMailRoomPackage(row)
  })
}
