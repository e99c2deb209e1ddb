// The ceilings of npm run bench:api (scripts/bench-api.ts), each in a bare process of its own:
//   node scripts/bench-ceiling.mjs http <payload.json>   a bare Fastify (no plugin, no hook) answering on IPC its port:
//       GET /json    the payload from memory
//       GET /pg      `SELECT 1` through a pg Pool of 10 (when DATABASE_URL is set), as JSON
//       GET /pglite  `SELECT 1` on an in-memory PGlite, as JSON
//   node scripts/bench-ceiling.mjs open <dir>         opens PGlite on an existing data directory, runs SELECT 1, says ready
//   node scripts/bench-ceiling.mjs create <dir>       creates PGlite in an empty directory, runs SELECT 1, says ready
import { readFile } from 'node:fs/promises'

const [mode, arg] = process.argv.slice(2)

if (mode === 'open' || mode === 'create') {
  const { PGlite } = await import('@electric-sql/pglite')
  const db = new PGlite(arg)
  await db.query('select 1')
  process.send?.({ ready: true })
  await db.close()
} else if (mode === 'http') {
  const { default: Fastify } = await import('fastify')
  const payload = await readFile(arg, 'utf8')
  const parsed = JSON.parse(payload)
  const app = Fastify({ logger: false })
  app.get('/json', async () => parsed)
  if (process.env.DATABASE_URL) {
    const { default: pg } = await import('pg')
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
    app.get('/pg', async () => (await pool.query('select 1 as one')).rows[0])
  }
  const { PGlite } = await import('@electric-sql/pglite')
  const pglite = new PGlite()
  await pglite.query('select 1')
  app.get('/pglite', async () => (await pglite.query('select 1 as one')).rows[0])
  await app.listen({ port: 0, host: '127.0.0.1' })
  process.send?.({ ready: true, port: app.server.address().port })
  process.once('SIGTERM', () => process.exit(0))
} else {
  console.error('usage : node scripts/bench-ceiling.mjs http <payload.json> | open <dir> | create <dir>')
  process.exit(2)
}
