// npm run retention: one run, as the server does at start and daily, on the embedded database of DATA_DIR and the files of
// STORAGE_DIR; its summary in French, the notice in the outbox (no SMTP_URL), the letters and their files gone on their day.
// tests: the embedded database only (the command on a DATA_DIR of its own; left out of the PostgreSQL run)
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { connect } from '../../../server/db/connect.ts'
import { main } from '../../../scripts/retention.ts'

interface Ctx {
  dir: string
  env: NodeJS.ProcessEnv
}
const recorder = () => {
  const lines = { out: [] as string[], err: [] as string[] }
  const out = { log: (line: string) => lines.out.push(line), error: (line: string) => lines.err.push(line) } as unknown as Console
  return { lines, out }
}
const FILE_KEY = 'documents/2024-01/lettre-ancienne.pdf'

const test = suite<Ctx>('npm run retention')
test.before(async (ctx) => {
  ctx.dir = await mkdtemp(join(tmpdir(), 'portail-conservation-'))
  // Always the embedded database of its own directory: never the DATABASE_URL of a PostgreSQL test run.
  ctx.env = { DATA_DIR: join(ctx.dir, 'data'), STORAGE_DIR: join(ctx.dir, 'storage'), SEED_DEMO: 'false' }
})
test.after((ctx) => rm(ctx.dir, { recursive: true, force: true }))

test('an empty database: nothing to do, exit 0', async (ctx) => {
  const { lines, out } = recorder()
  assert.is(await main(ctx.env, out), 0)
  assert.equal(lines.out, ['Conservation du courrier (12 mois) : 0 avis envoyé(s), 0 courrier(s) supprimé(s) pour 0 domiciliation(s).'])
})

test('an order terminated two years ago: the notice, then on its day the letter and its file go; again, nothing', async (ctx) => {
  let handle = await connect({ dataDir: ctx.env.DATA_DIR! })
  try {
    const { db } = handle
    const user = await db
      .insertInto('users')
      .values({ email: 'ancien@example.com', password_hash: '', firstname: 'Marc', lastname: 'Lefèvre' })
      .returning('id')
      .executeTakeFirstOrThrow()
    const order = await db
      .insertInto('orders')
      .values({
        owner_id: user.id,
        raison_sociale: 'Ancienne SARL',
        order_date: new Date('2022-01-01'),
        status: 'Finalisé',
        domiciliation_address: '1 rue de Paris',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db
      .insertInto('termination_requests')
      .values({ order_id: order.id, user_id: user.id, reason: 'Cessation', date: '2024-06-30', comment: null })
      .execute()
    await db
      .insertInto('documents')
      .values({ order_id: order.id, sender: 'URSSAF', kind: 'courrier', received_at: new Date('2024-01-10'), pages: 1, file_key: FILE_KEY })
      .execute()
  } finally {
    await handle.close()
  }
  const file = join(ctx.env.STORAGE_DIR!, FILE_KEY)
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, '%PDF-1.4 lettre')

  const first = recorder()
  assert.is(await main(ctx.env, first.out), 0)
  assert.match(first.lines.out[0]!, '1 avis envoyé(s), 0 courrier(s) supprimé(s)')
  handle = await connect({ dataDir: ctx.env.DATA_DIR! })
  try {
    const mail = await handle.db.selectFrom('outbox').select(['to_address', 'subject']).executeTakeFirstOrThrow()
    assert.is(mail.to_address, 'ancien@example.com')
    assert.match(mail.subject, 'le courrier de Ancienne SARL sera supprimé le')
    // Its 30 days have passed.
    await handle.db.updateTable('mail_retention').set({ purge_on: '2025-01-01' }).execute()
  } finally {
    await handle.close()
  }
  const second = recorder()
  assert.is(await main(ctx.env, second.out), 0)
  assert.match(second.lines.out[0]!, '0 avis envoyé(s), 1 courrier(s) supprimé(s) pour 1 domiciliation(s).')
  assert.is(await stat(file).catch(() => null), null, 'the file is gone')
  const third = recorder()
  assert.is(await main(ctx.env, third.out), 0)
  assert.match(third.lines.out[0]!, '0 avis envoyé(s), 0 courrier(s) supprimé(s)')
})

test.run()
