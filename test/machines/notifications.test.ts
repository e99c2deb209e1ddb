// notifications (issue 14): the bell's statechart over every shortest path (the stream's events sent
// as its callback actor would), with invariants, then a few examples.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor, fromCallback } from 'xstate'
import type { PortalNotification } from '../../server/contract/schemas.ts'
import { LOAD_FAILED, notificationsMachine, READ_FAILED, reconnectDelay } from '../../src/machines/notifications.machine.ts'
import { Deferreds, describePath, flush, replay, shortestPaths } from '../util/paths.ts'

const n = (id: number, read: boolean, createdAt = `2026-11-2${id % 10}T10:00:00.000Z`): PortalNotification => ({
  id, kind: 'letter', orderId: 2, title: `Nouveau courrier ${id}`, body: 'courrier, 1 page', createdAt, read, link: `/mes-courriers/courriers?domiciliation=2&courrier=${id}`,
})
const first = { unread: 1, notifications: [n(1, false), n(2, true)] }
const later = { unread: 2, notifications: [n(3, false), n(1, false), n(2, true)] }
const failure = new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')

function start() {
  const deferreds = new Deferreds()
  const navigations: string[] = []
  const arrivals: number[] = []
  const streamsFrom: number[] = []
  const machine = notificationsMachine.provide({
    actors: {
      loadNotifications: deferreds.actor(),
      markRead: deferreds.actor(),
      markAllRead: deferreds.actor(),
      pause: deferreds.actor(),
      stream: fromCallback(({ input }) => { streamsFrom.push((input as { after: number }).after) }),
    },
    actions: {
      navigate: (_, { link }) => void navigations.push(link),
      arrived: (_, { notifications }) => void arrivals.push(...notifications.map((x) => x.id)),
    },
  })
  return { actor: createActor(machine), deferreds, navigations, arrivals, streams: () => streamsFrom.length, streamsFrom }
}

const events = [
  { type: 'xstate.done.actor.loadNotifications', output: first },
  { type: 'xstate.error.actor.loadNotifications', error: failure },
  { type: 'list.retry' },
  { type: 'notification.open', id: 1 },
  { type: 'notification.open', id: 2 },
  { type: 'notification.readAll' },
  { type: 'xstate.done.actor.markRead', output: { unread: 0 } },
  { type: 'xstate.error.actor.markRead', error: failure },
  { type: 'xstate.done.actor.markAllRead', output: { unread: 0 } },
  { type: 'xstate.error.actor.markAllRead', error: failure },
  { type: 'live.open' },
  { type: 'live.notification', notification: n(3, false) },
  { type: 'live.lost' },
  { type: 'xstate.done.actor.pause' },
  { type: 'xstate.done.actor.reloadNotifications', output: later },
  { type: 'xstate.error.actor.reloadNotifications', error: failure },
] as const

const ModelBased = suite('notifications: every shortest path, replayed')
// The drops in a row counted up to 2: past that, the machine does the same again.
const paths = shortestPaths(notificationsMachine, {
  events,
  limit: 20_000,
  serializeState: (s) => JSON.stringify({
    value: s.value, unread: s.context.unread, list: s.context.notifications.map((x) => [x.id, x.read]), error: s.context.error,
    actionError: s.context.actionError, attempt: Math.min(s.context.attempt, 2), marking: s.context.marking,
  }),
})
for (const path of paths) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, navigations, arrivals } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const { context } = snapshot
    // The count says how many listed notifications are unread (the fixtures' lists are complete), but
    // after a read mark's answer: then it is the server's count, whatever the fixture says.
    const lastLoad = path.steps.map((s) => s.event.type).findLastIndex((t) => /done\.actor\.(re)?loadNotifications/i.test(t))
    const answeredSince = path.steps.slice(lastLoad + 1).some((s) => /done\.actor\.markA?l?l?Read/.test(s.event.type))
    if (!answeredSince) assert.is(context.unread, context.notifications.filter((x) => !x.read).length, 'count = unread listed')
    assert.ok(context.unread >= 0)
    // Unread first, and each notification once.
    const firstRead = context.notifications.findIndex((x) => x.read)
    assert.ok(firstRead === -1 || context.notifications.slice(firstRead).every((x) => x.read), 'unread first')
    assert.is(new Set(context.notifications.map((x) => x.id)).size, context.notifications.length)
    // An error only while failed; every navigation goes to a listed notification's link.
    assert.is(context.error !== null, snapshot.matches('failed'))
    for (const link of navigations) assert.ok(/^\/mes-courriers\/courriers\?domiciliation=2&courrier=\d$/.test(link))
    // The stream is followed exactly while ready and following.
    assert.is(Object.keys(snapshot.children).includes('stream'), snapshot.matches({ ready: { live: 'following' } }))
    // The portal is told of each notification the bell did not have, once, whether it came live or with
    // the list read again after a drop; of nothing it had (the first list, one sent twice).
    const firstIds = first.notifications.map((x) => x.id)
    assert.equal(arrivals, context.notifications.map((x) => x.id).filter((id) => !firstIds.includes(id)), 'told once of each new one')
    // The pause grows with the drops in a row.
    for (const s of deferreds.started.filter((x) => x.id === 'pause')) assert.ok([1000, 2000, 4000, 8000].includes((s.input as { ms: number }).ms))
    actor.stop()
  })
}
ModelBased('the graph reaches every state', () => {
  const seen = new Set(paths.map((p) => JSON.stringify(p.state.value)))
  for (const live of ['following', 'waiting', 'catchingUp']) assert.ok([...seen].some((v) => v.includes(live)), live)
  for (const marks of ['marking', 'markingAll']) assert.ok([...seen].some((v) => v.includes(marks)), marks)
  assert.ok(seen.has('"failed"'))
})
ModelBased.run()

const Bell = suite('notifications')

async function ready() {
  const bell = start()
  bell.actor.start()
  await flush()
  bell.deferreds.settle('loadNotifications', { output: first })
  await flush()
  return bell
}

Bell('opening an unread one marks it read at once, navigates, and keeps the server’s count', async () => {
  const { actor, deferreds, navigations } = await ready()
  actor.send({ type: 'notification.open', id: 1 })
  await flush()
  assert.is(actor.getSnapshot().context.unread, 0)
  assert.equal(navigations, [first.notifications[0]!.link])
  assert.equal(deferreds.started.at(-1), { id: 'markRead', input: { id: 1 } })
  deferreds.settle('markRead', { output: { unread: 0 } })
  await flush()
  assert.ok(actor.getSnapshot().matches({ ready: { marks: 'idle' } }))
})

Bell('a failed read mark is put back and said', async () => {
  const { actor, deferreds } = await ready()
  actor.send({ type: 'notification.open', id: 1 })
  await flush()
  deferreds.settle('markRead', { error: failure })
  await flush()
  const { context } = actor.getSnapshot()
  assert.is(context.unread, 1)
  assert.is(context.notifications.find((x) => x.id === 1)!.read, false)
  assert.is(context.actionError, failure.message)
  assert.ok(READ_FAILED.length > 0)
})

Bell('a live one lights the bell, is listed first and tells the portal', async () => {
  const { actor, arrivals } = await ready()
  actor.send({ type: 'live.notification', notification: n(9, false, '2026-11-29T10:00:00.000Z') })
  actor.send({ type: 'live.notification', notification: n(9, false, '2026-11-29T10:00:00.000Z') })
  const { context } = actor.getSnapshot()
  assert.is(context.unread, 2, 'the same event twice counts once')
  assert.is(context.notifications[0]!.id, 9)
  assert.equal(arrivals, [9], 'and tells the portal once')
})

Bell('what the list read again after a drop holds that the bell did not have is told to the portal; what it had is not', async () => {
  const { actor, deferreds, arrivals } = await ready()
  actor.send({ type: 'live.lost' })
  await flush()
  deferreds.settle('pause', { output: undefined })
  await flush()
  deferreds.settle('reloadNotifications', { output: later })
  await flush()
  assert.equal(arrivals, [3])
  actor.send({ type: 'live.notification', notification: n(3, false) })
  assert.equal(arrivals, [3], 'sent again by the stream followed on: no news')
  assert.is(actor.getSnapshot().context.unread, 2)
})

Bell('a lost stream: pause 1 s, 2 s… the list read again, then followed again', async () => {
  const { actor, deferreds, streams, streamsFrom } = await ready()
  assert.is(streams(), 1)
  assert.equal(streamsFrom, [2], 'followed on from the newest notification listed')
  actor.send({ type: 'live.lost' })
  await flush()
  assert.equal(deferreds.started.at(-1), { id: 'pause', input: { ms: 1000 } })
  deferreds.settle('pause', { output: undefined })
  await flush()
  deferreds.settle('reloadNotifications', { error: failure })
  await flush()
  assert.equal(deferreds.started.at(-1), { id: 'pause', input: { ms: 2000 } })
  deferreds.settle('pause', { output: undefined })
  await flush()
  deferreds.settle('reloadNotifications', { output: later })
  await flush()
  assert.ok(actor.getSnapshot().matches({ ready: { live: 'following' } }))
  assert.is(streams(), 2)
  assert.equal(streamsFrom, [2, 3], 'then from the newest of the list read again')
  assert.is(actor.getSnapshot().context.unread, 2)
  actor.send({ type: 'live.open' })
  assert.is(actor.getSnapshot().context.attempt, 0)
  assert.equal([reconnectDelay(1), reconnectDelay(3), reconnectDelay(10)], [1000, 4000, 30_000])
})

Bell('a failed load says so, and Réessayer loads again', async () => {
  const { actor, deferreds } = start()
  actor.start()
  await flush()
  deferreds.settle('loadNotifications', { error: new Error('') })
  await flush()
  assert.is(actor.getSnapshot().context.error, LOAD_FAILED)
  actor.send({ type: 'list.retry' })
  await flush()
  deferreds.settle('loadNotifications', { output: first })
  await flush()
  assert.ok(actor.getSnapshot().matches('ready'))
})

Bell.run()
