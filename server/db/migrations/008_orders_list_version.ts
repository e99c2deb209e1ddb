// Frozen in time: never edit a migration that has shipped, add a new one.
// The orders list's version: each order counts the changes to what GET my-domiciliation-orders writes for
// it (its own columns, its contracts), as 007 does for the letters. The database bumps it itself, in the writer's
// transaction, whoever writes, so a server instance that kept a user's list knows from one comparison whether it
// still holds (db/repositories/orders.ts); which orders a user reaches (owned, shared) is part of that comparison.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('list_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute()

  // Any column but the two versions: a column added later to the list is covered without touching this trigger.
  // mail_version moves with every letter, which the orders list does not show.
  await sql`create function portail_bump_orders_list_version() returns trigger language plpgsql as $$
    begin
      new.list_version := old.list_version + 1;
      return new;
    end $$`.execute(db)
  await sql`create trigger orders_list_version before update on orders
    for each row when ((to_jsonb(old) - 'mail_version' - 'list_version') is distinct from (to_jsonb(new) - 'mail_version' - 'list_version'))
    execute function portail_bump_orders_list_version()`.execute(db)

  // Each order carries its contract's id (contractId). Once per statement, as 007.
  await sql`create function portail_bump_orders_list_version_of_contracts() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update orders set list_version = list_version + 1 where id in (select order_id from new_rows);
      elsif tg_op = 'DELETE' then
        update orders set list_version = list_version + 1 where id in (select order_id from old_rows);
      else
        update orders set list_version = list_version + 1
          where id in (select order_id from new_rows union select order_id from old_rows);
      end if;
      return null;
    end $$`.execute(db)
  await sql`create trigger contracts_orders_list_version_insert after insert on contracts
    referencing new table as new_rows for each statement execute function portail_bump_orders_list_version_of_contracts()`.execute(db)
  await sql`create trigger contracts_orders_list_version_update after update on contracts
    referencing old table as old_rows new table as new_rows for each statement
    execute function portail_bump_orders_list_version_of_contracts()`.execute(db)
  await sql`create trigger contracts_orders_list_version_delete after delete on contracts
    referencing old table as old_rows for each statement execute function portail_bump_orders_list_version_of_contracts()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const event of ['insert', 'update', 'delete'])
    await sql.raw(`drop trigger contracts_orders_list_version_${event} on contracts`).execute(db)
  await sql`drop function portail_bump_orders_list_version_of_contracts()`.execute(db)
  await sql`drop trigger orders_list_version on orders`.execute(db)
  await sql`drop function portail_bump_orders_list_version()`.execute(db)
  await db.schema.alterTable('orders').dropColumn('list_version').execute()
}
