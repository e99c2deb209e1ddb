// The demo's letter histories never lie in the future: a letter received this morning (the seed puts the
// newest at 08:15 UTC) was not "scanned" two hours later yet when the demo is made at 08:20 (the route
// tests failed between 08:15 and 10:15 UTC, a later event sorting before the seeded scan).
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { seedDemo } from '../../server/demo/seed.ts'
import { buildTestApp, type TestApp } from '../util/server.ts'

const History = suite<{ t: TestApp }>('demo letter histories')

History.before(async (context) => {
  context.t = await buildTestApp({ seed: false })
})
History.after(async ({ t }) => t.close())

History('made at 08:20 UTC, no event of the demo is later than that', async ({ t }) => {
  const now = new Date()
  now.setUTCHours(8, 20, 0, 0)
  assert.ok(await seedDemo(t.deps.db, t.deps.storage, { now, brandName: t.deps.config.brandName }))
  const events = await t.deps.db.selectFrom('letter_history').select(['kind', 'at']).execute()
  assert.ok(events.some((e) => e.kind === 'scanned'))
  const late = events.filter((e) => new Date(e.at).getTime() > now.getTime())
  assert.equal(
    late.map((e) => `${e.kind} ${new Date(e.at).toISOString()}`),
    [],
  )
})

History.run()
