// Justificatifs: the Kbis (one per contract) and the identity documents (/missing-document) that operators check,
// validate or refuse with a reason. Rows, or undefined; the routes decide the 404, 409 and 412.
import type { Transaction } from 'kysely'
import type { JustificatifKind } from '../../contract/company-backoffice.ts'
import type { RefusalReason } from '../../contract/rules/justificatifs.ts'
import type { Database, Db } from '../schema.ts'

export interface JustificatifRow {
  kind: JustificatifKind
  id: number
  orderId: number
  raisonSociale: string
  siren: string | null
  ownerId: number
  label: string
  fileName: string
  contentType: string
  fileKey: string
  filedAt: Date
  validatedAt: Date | null
  refusedAt: Date | null
  refusalReason: RefusalReason | null
  refusalDetail: string | null
}

const kbisQuery = (db: Db) =>
  db
    .selectFrom('contracts as c')
    .innerJoin('orders as o', 'o.id', 'c.order_id')
    .select([
      'c.id',
      'c.order_id',
      'o.raison_sociale',
      'o.siren',
      'o.owner_id',
      'c.kbis_file_key',
      'c.kbis_filed_at',
      'c.signed_at',
      'c.kbis_validated_at',
      'c.kbis_refused_at',
      'c.kbis_refusal_reason',
      'c.kbis_refusal_detail',
    ])
    .where('c.kbis_file_key', 'is not', null)

type KbisRow = Awaited<ReturnType<ReturnType<typeof kbisQuery>['executeTakeFirstOrThrow']>>
const fromKbis = (r: KbisRow): JustificatifRow => ({
  kind: 'kbis',
  id: r.id,
  orderId: r.order_id,
  raisonSociale: r.raison_sociale,
  siren: r.siren,
  ownerId: r.owner_id,
  label: 'Kbis',
  fileName: `kbis-${r.order_id}.pdf`,
  contentType: 'application/pdf',
  fileKey: r.kbis_file_key!,
  filedAt: r.kbis_filed_at ?? r.signed_at ?? new Date(0),
  validatedAt: r.kbis_validated_at,
  refusedAt: r.kbis_refused_at,
  refusalReason: r.kbis_refusal_reason,
  refusalDetail: r.kbis_refusal_detail,
})

const identityQuery = (db: Db) =>
  db
    .selectFrom('uploaded_documents as d')
    .innerJoin('orders as o', 'o.id', 'd.order_id')
    .select([
      'd.id',
      'd.order_id',
      'o.raison_sociale',
      'o.siren',
      'o.owner_id',
      'd.label',
      'd.file_name',
      'd.content_type',
      'd.file_key',
      'd.uploaded_at',
      'd.validated_at',
      'd.refused_at',
      'd.refusal_reason',
      'd.refusal_detail',
    ])

type IdentityRow = Awaited<ReturnType<ReturnType<typeof identityQuery>['executeTakeFirstOrThrow']>>
const fromIdentity = (r: IdentityRow): JustificatifRow => ({
  kind: 'identite',
  id: r.id,
  orderId: r.order_id,
  raisonSociale: r.raison_sociale,
  siren: r.siren,
  ownerId: r.owner_id,
  label: r.label,
  fileName: r.file_name,
  contentType: r.content_type,
  fileKey: r.file_key,
  filedAt: r.uploaded_at,
  validatedAt: r.validated_at,
  refusedAt: r.refused_at,
  refusalReason: r.refusal_reason,
  refusalDetail: r.refusal_detail,
})

/** Every Kbis and identity document waiting for a check (neither validated nor refused), oldest first. */
export async function listWaitingJustificatifs(db: Db): Promise<JustificatifRow[]> {
  const kbis = await kbisQuery(db).where('c.kbis_validated_at', 'is', null).where('c.kbis_refused_at', 'is', null).execute()
  const identity = await identityQuery(db).where('d.validated_at', 'is', null).where('d.refused_at', 'is', null).execute()
  return [...kbis.map(fromKbis), ...identity.map(fromIdentity)].sort(
    (a, b) => a.filedAt.getTime() - b.filedAt.getTime() || a.kind.localeCompare(b.kind) || a.id - b.id,
  )
}

/** One Kbis (by its contract, filed) or identity document; `lock` holds its row until the transaction ends. */
export async function findJustificatif(db: Db, kind: JustificatifKind, id: number, lock = false): Promise<JustificatifRow | undefined> {
  if (kind === 'kbis') {
    const query = kbisQuery(db).where('c.id', '=', id)
    const row = await (lock ? query.forUpdate('c') : query).executeTakeFirst()
    return row && fromKbis(row)
  }
  const query = identityQuery(db).where('d.id', '=', id)
  const row = await (lock ? query.forUpdate('d') : query).executeTakeFirst()
  return row && fromIdentity(row)
}

export interface Refusal {
  reason: RefusalReason
  detail: string | null
}

/** Validates or refuses a Kbis; a refusal also takes the order's hasKbis back (spec §4: the banner's rule shows it again). */
export async function decideKbis(trx: Transaction<Database>, row: JustificatifRow, at: Date, refusal: Refusal | null): Promise<void> {
  await trx
    .updateTable('contracts')
    .set(
      refusal
        ? { kbis_refused_at: at, kbis_refusal_reason: refusal.reason, kbis_refusal_detail: refusal.detail }
        : { kbis_validated_at: at },
    )
    .where('id', '=', row.id)
    .execute()
  if (refusal) await trx.updateTable('orders').set({ has_kbis: false }).where('id', '=', row.orderId).execute()
}

/**
 * Validates or refuses an identity document. Once every document the order asks for has a validated file, the order's
 * missingDocumentsValidatedAt is set (spec §4: the customer is no longer sent to /missing-document); its date, or null.
 */
export async function decideIdentityDocument(
  trx: Transaction<Database>,
  row: JustificatifRow,
  at: Date,
  refusal: Refusal | null,
): Promise<Date | null> {
  await trx
    .updateTable('uploaded_documents')
    .set(refusal ? { refused_at: at, refusal_reason: refusal.reason, refusal_detail: refusal.detail } : { validated_at: at })
    .where('id', '=', row.id)
    .execute()
  if (refusal) return null
  const order = await trx
    .selectFrom('orders')
    .select(['missing_documents', 'missing_documents_validated_at'])
    .where('id', '=', row.orderId)
    .forUpdate()
    .executeTakeFirstOrThrow()
  if (order.missing_documents_validated_at) return order.missing_documents_validated_at
  const validated = new Set(
    (
      await trx
        .selectFrom('uploaded_documents')
        .select('type')
        .where('order_id', '=', row.orderId)
        .where('validated_at', 'is not', null)
        .execute()
    ).map((r) => r.type),
  )
  if (!(order.missing_documents ?? []).every((m) => validated.has(m.type))) return null
  await trx.updateTable('orders').set({ missing_documents_validated_at: at }).where('id', '=', row.orderId).execute()
  return at
}
