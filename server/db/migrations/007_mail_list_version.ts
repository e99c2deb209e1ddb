// Frozen in time: never edit a migration that has shipped, add a new one.
// The mail list's version: each order counts the changes to what GET documents writes for it (its letters,
// its name). The database bumps it itself, in the writer's transaction, whoever writes (a route, the mail pipeline,
// an operator's script), so a server instance that kept an order's list knows from one comparison whether it still
// holds (db/repositories/mail.ts): no instance can serve a list older than what was committed before the request.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('mail_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute()

  // Once per statement, not per row: marking 500 letters read bumps each of their orders once.
  await sql`create function portail_bump_mail_version() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update orders set mail_version = mail_version + 1 where id in (select order_id from new_rows);
      elsif tg_op = 'DELETE' then
        update orders set mail_version = mail_version + 1 where id in (select order_id from old_rows);
      else
        update orders set mail_version = mail_version + 1
          where id in (select order_id from new_rows union select order_id from old_rows);
      end if;
      return null;
    end $$`.execute(db)
  await sql`create trigger documents_mail_version_insert after insert on documents
    referencing new table as new_rows for each statement execute function portail_bump_mail_version()`.execute(db)
  await sql`create trigger documents_mail_version_update after update on documents
    referencing old table as old_rows new table as new_rows for each statement execute function portail_bump_mail_version()`.execute(db)
  await sql`create trigger documents_mail_version_delete after delete on documents
    referencing old table as old_rows for each statement execute function portail_bump_mail_version()`.execute(db)

  // Each letter carries its order's name (raisonSociale).
  await sql`create function portail_bump_mail_version_on_rename() returns trigger language plpgsql as $$
    begin
      new.mail_version := old.mail_version + 1;
      return new;
    end $$`.execute(db)
  await sql`create trigger orders_mail_version_rename before update of raison_sociale on orders
    for each row when (old.raison_sociale is distinct from new.raison_sociale)
    execute function portail_bump_mail_version_on_rename()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger orders_mail_version_rename on orders`.execute(db)
  await sql`drop function portail_bump_mail_version_on_rename()`.execute(db)
  for (const event of ['insert', 'update', 'delete']) await sql.raw(`drop trigger documents_mail_version_${event} on documents`).execute(db)
  await sql`drop function portail_bump_mail_version()`.execute(db)
  await db.schema.alterTable('orders').dropColumn('mail_version').execute()
}
