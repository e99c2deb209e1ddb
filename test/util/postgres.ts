// PostgreSQL's side of the outage tests: what a restart or a failover does to the API's connections.
import pg from 'pg'

/** Ends this database's client connections that `where` picks (SQL on pg_stat_activity), from a connection of its own; how many. */
export async function terminateBackends(connectionString: string, where = 'true'): Promise<number> {
  const admin = new pg.Client({ connectionString })
  await admin.connect()
  try {
    const { rowCount } = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity
      where pid <> pg_backend_pid() and backend_type = 'client backend' and datname = current_database() and ${where}`)
    return rowCount ?? 0
  } finally {
    await admin.end()
  }
}
