// Frozen in time: never edit a migration that has shipped, add a new one.
// One share per person and order: a collaborator who changed their address and accepted a second invitation to the
// same order held two shares (two rows in the owner's list, and removing one left the access). Shares a person already
// holds twice are merged into the oldest; a unique index keeps it so.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from shares as later using shares as earlier
    where later.user_id is not null and later.user_id = earlier.user_id and later.order_id = earlier.order_id
      and later.id > earlier.id`.execute(db)
  await sql`create unique index shares_order_user_idx on shares (order_id, user_id) where user_id is not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index shares_order_user_idx`.execute(db)
}
