// Frozen in time: never edit a migration that has shipped, add a new one.
// One representative (mandataire) per person and order. A representative is the person the counter hands the mail to on
// sight of an identity document: their first and last name (case ignored) are who they are, the e-mail and phone only how
// to reach them. The same one added twice at once (a double click, a retry after a timeout) made two rows, as did adding
// them again with a new phone. Such twins are merged into the newest row (the contact details typed last); a unique index
// keeps it so, and the route answers a French 409.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from mandataires as earlier using mandataires as later
    where later.order_id = earlier.order_id and lower(later.firstname) = lower(earlier.firstname)
      and lower(later.lastname) = lower(earlier.lastname) and later.id > earlier.id`.execute(db)
  await sql`create unique index mandataires_order_person_key on mandataires (order_id, lower(firstname), lower(lastname))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index mandataires_order_person_key`.execute(db)
}
