// Frozen in time: never edit a migration that has shipped, add a new one.
// The back office's Clients and dashboard: a folding of text for searching names whatever their case and accents; the
// day a domiciliation created by an operator starts; and when a contract's Kbis was filed, which the team's queue
// counts its wait from (set by the database at each new file, whoever writes it).
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // unaccent (005) may live in another schema than this one: the function names it, and its dictionary, in full, since
  // the one-argument unaccent() looks its dictionary up through search_path.
  const { rows } = await sql<{
    schema: string
  }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'unaccent'`.execute(db)
  const schema = rows[0]!.schema
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`schéma inattendu pour unaccent : ${schema}`)
  await sql
    .raw(
      `create function search_fold(value text) returns text language sql immutable parallel safe as $$
        select lower(${schema}.unaccent('${schema}.unaccent'::regdictionary, value))
      $$`,
    )
    .execute(db)

  await db.schema.alterTable('orders').addColumn('starts_on', 'date').execute()

  await db.schema.alterTable('contracts').addColumn('kbis_filed_at', 'timestamptz').execute()
  await sql`update contracts set kbis_filed_at = coalesce(signed_at, now()) where kbis_file_key is not null`.execute(db)
  await sql`create function portail_kbis_filed_at() returns trigger language plpgsql as $$
    begin
      if new.kbis_file_key is null then
        new.kbis_filed_at := null;
      elsif tg_op = 'INSERT' then
        new.kbis_filed_at := coalesce(new.kbis_filed_at, now());
      elsif new.kbis_file_key is distinct from old.kbis_file_key then
        new.kbis_filed_at := now();
      end if;
      return new;
    end $$`.execute(db)
  await sql`create trigger contracts_kbis_filed_at before insert or update on contracts
    for each row execute function portail_kbis_filed_at()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger contracts_kbis_filed_at on contracts`.execute(db)
  await sql`drop function portail_kbis_filed_at()`.execute(db)
  await db.schema.alterTable('contracts').dropColumn('kbis_filed_at').execute()
  await db.schema.alterTable('orders').dropColumn('starts_on').execute()
  await sql`drop function search_fold(text)`.execute(db)
}
