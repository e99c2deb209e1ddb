// Frozen in time: never edit a migration that has shipped, add a new one.
// The "Kbis validé" notification leads to Attestation et contrats, which shows the Kbis, its validation date and its
// download; it led to the dashboard, which shows none of them. The notifications already sent are moved along.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`update notifications set link = '/souscription/attestation-contrats' where kind = 'kbis' and link = '/tableau-de-bord'`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update notifications set link = '/tableau-de-bord' where kind = 'kbis' and link = '/souscription/attestation-contrats'`.execute(
    db,
  )
}
