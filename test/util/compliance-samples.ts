// The back office's Justificatifs and Formalités samples: orders of their own (so that the demo's orders stay as they
// are), each with a Kbis filed and an identity document sent, both waiting for a check, and a formality 'Reçue'. The
// samples use one item per call (a document is decided once, a formality moved once), made once per database, and only
// for the tests that ask (`demoIds(db, { compliance: true })`): the others count the demo's orders, queues and
// formalities exactly.
import type { Kysely } from 'kysely'
import type { Database } from '../../server/db/schema.ts'
import { justificatifVersion } from '../../server/routes/company/backoffice-justificatifs.ts'

export interface ComplianceSamples {
  /** Contracts whose Kbis waits (validated by the samples), with the version of their file. */
  kbis: { id: number; version: string }[]
  /** Identity documents waiting (refused by the samples). */
  identity: { id: number; version: string }[]
  /** Formalities 'Reçue' (moved to 'En cours' by the samples). */
  formalities: number[]
}

export const COMPLIANCE_ORDER = 'Échantillons de la Conformité'
const POOL = 12

export async function complianceSamples(db: Kysely<Database>, document: number): Promise<ComplianceSamples> {
  const letter = await db.selectFrom('documents').select('file_key').where('id', '=', document).executeTakeFirstOrThrow()
  const held = await db.selectFrom('orders').select('id').where('raison_sociale', 'like', `${COMPLIANCE_ORDER}%`).orderBy('id').execute()
  if (!held.length) {
    const camille = await db.selectFrom('users').select('password_hash').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow()
    const owner = await db
      .insertInto('users')
      .values({ email: 'conformite-echantillons@example.com', password_hash: camille.password_hash, firstname: 'Anne', lastname: 'Roux' })
      .returning('id')
      .executeTakeFirstOrThrow()
    // The sample letter's PDF (which nothing removes) stands for each file.
    for (let i = 0; i < POOL; i++) {
      const { id: order } = await db
        .insertInto('orders')
        .values({
          owner_id: owner.id,
          raison_sociale: `${COMPLIANCE_ORDER} ${i + 1} SAS`,
          order_date: new Date(),
          status: 'En attente de KBIS',
          has_kbis: true,
          missing_documents: JSON.stringify([{ type: 'identity_manager', label: 'Pièce d’identité du gérant' }]) as never,
          domiciliation_address: '10 rue de la Paix, 75002 Paris',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await db.insertInto('contracts').values({ order_id: order, kbis_file_key: letter.file_key }).execute()
      await db
        .insertInto('uploaded_documents')
        .values({
          order_id: order,
          type: 'identity_manager',
          label: 'Pièce d’identité du gérant',
          file_name: 'cni.pdf',
          content_type: 'application/pdf',
          file_key: letter.file_key,
          uploaded_at: new Date(),
        })
        .execute()
      await db.insertInto('legal_submissions').values({ order_id: order, user_id: owner.id, kind: 'modification-capital' }).execute()
    }
  }
  const orders = (
    await db.selectFrom('orders').select('id').where('raison_sociale', 'like', `${COMPLIANCE_ORDER}%`).orderBy('id').execute()
  ).map((o) => o.id)
  const contracts = await db.selectFrom('contracts').select(['id', 'kbis_file_key']).where('order_id', 'in', orders).orderBy('id').execute()
  const identity = await db
    .selectFrom('uploaded_documents')
    .select(['id', 'file_key'])
    .where('order_id', 'in', orders)
    .orderBy('id')
    .execute()
  const formalities = await db.selectFrom('legal_submissions').select('id').where('order_id', 'in', orders).orderBy('id').execute()
  return {
    kbis: contracts.map((c) => ({ id: c.id, version: justificatifVersion(c.kbis_file_key!) })),
    identity: identity.map((d) => ({ id: d.id, version: justificatifVersion(d.file_key) })),
    formalities: formalities.map((f) => f.id),
  }
}
