// notifications: the bell's statechart over every shortest path (the stream's events sent
// as its callback actor would), with invariants, then a few examples.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor, fromCallback } from 'xstate'
import type { PortalNotification } from '../../../server/contract/notifications.ts'
import {
  LOAD_FAILED,
  notificationsMachine,
  READ_FAILED,
  reconnectDelay,
} from '../../../src/machines/notifications/notifications.machine.ts'
import { applyEvent, Deferreds, describePath, flush, pathsToReplay, shortestPaths } from '../../util/paths.ts'

const n = (id: number, read: boolean, createdAt = `2026-11-2${id % 10}T10:00:00.000Z`): PortalNotification => ({
  id,
  kind: 'letter',
  orderId: 2,
  title: `Nouveau courrier ${id}`,
  body: 'courrier, 1 page',
  createdAt,
  read,
  link: `/mes-courriers/courriers?domiciliation=2&courrier=${id}`,
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
      pageShown: deferreds.actor(),
      stream: fromCallback(({ input }) => {
        streamsFrom.push((input as { after: number }).after)
      }),
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
  { type: 'notification.open', id: 3 },
  { type: 'notification.readAll' },
  { type: 'xstate.done.actor.markRead', output: { unread: 0 } },
  { type: 'xstate.error.actor.markRead', error: failure },
  { type: 'xstate.done.actor.markAllRead', output: { unread: 0 } },
  { type: 'xstate.error.actor.markAllRead', error: failure },
  { type: 'live.open' },
  { type: 'live.notification', notification: n(3, false) },
  { type: 'live.lost' },
  { type: 'live.replaced' },
  { type: 'xstate.done.actor.pause' },
  { type: 'xstate.done.actor.pageShown' },
  { type: 'xstate.done.actor.reloadNotifications', output: later },
  { type: 'xstate.error.actor.reloadNotifications', error: failure },
] as const

const ModelBased = suite('notifications: every shortest path, replayed')
// The drops in a row counted up to 2: past that, the machine does the same again.
const paths = shortestPaths(notificationsMachine, {
  events,
  limit: 20_000,
  serializeState: (s) =>
    JSON.stringify({
      value: s.value,
      unread: s.context.unread,
      list: s.context.notifications.map((x) => [x.id, x.read]),
      error: s.context.error,
      actionError: s.context.actionError,
      attempt: Math.min(s.context.attempt, 2),
      pendingMarks: s.context.pendingMarks,
      readAllAsked: s.context.readAllAsked,
    }),
})
const linkOf = (id: number) => n(id, false).link
const atRest = (s: ReturnType<ReturnType<typeof start>['actor']['getSnapshot']>) => s.matches({ ready: { marks: 'idle' } })

/** The bell driven like the view would, with a server fake: what its answered marks made read, and the clicks. */
function drive(bell: ReturnType<typeof start>) {
  const { actor, deferreds } = bell
  const readOnServer = new Set<number>()
  const lastMark = new Map<number, 'done' | 'failed'>()
  /** Each notification opened that the bell listed, unread or not; each "Tout marquer comme lu" accepted. */
  const opened: { id: number; unread: boolean }[] = []
  let readAllsAccepted = 0
  let marksAnswered = 0
  const send = async (event: { type: string; id?: number; output?: unknown; error?: unknown }) => {
    const before = actor.getSnapshot()
    if (event.type === 'notification.open') {
      const listed = before.context.notifications.find((x) => x.id === event.id)
      if (listed) opened.push({ id: listed.id, unread: !listed.read })
    }
    if (event.type === 'notification.readAll' && before.can({ type: 'notification.readAll' })) readAllsAccepted++
    if (/\.actor\.markRead$/.test(event.type)) {
      // Saved one at a time: the answer is the oldest call's.
      const id = (deferreds.started.filter((x) => x.id === 'markRead')[marksAnswered++]!.input as { id: number }).id
      lastMark.set(id, event.type.startsWith('xstate.done') ? 'done' : 'failed')
      if (event.type.startsWith('xstate.done')) readOnServer.add(id)
    }
    if (event.type === 'xstate.done.actor.markAllRead') for (const x of [1, 2, 3]) readOnServer.add(x)
    await applyEvent(actor, deferreds, event)
    const after = actor.getSnapshot()
    // "Tout marquer comme lu" is refused only while it is being saved or already asked (the view disables it then).
    if (after.matches('ready') && !after.matches({ ready: { marks: 'markingAll' } }) && !after.context.readAllAsked) {
      assert.ok(after.can({ type: 'notification.readAll' }), '"Tout marquer comme lu" honoured during a read mark')
    }
  }
  /** Every click did what it said: navigated at once; marks sent in turn, none lost or sent twice; at rest, read on the server. */
  const clicksHonoured = () => {
    const snapshot = actor.getSnapshot()
    assert.equal(
      bell.navigations,
      opened.map((o) => linkOf(o.id)),
      'each click on a notification navigates',
    )
    const marksSent = deferreds.started.filter((x) => x.id === 'markRead').map((x) => (x.input as { id: number }).id)
    assert.equal(
      marksSent,
      opened
        .filter((o) => o.unread)
        .map((o) => o.id)
        .slice(0, marksSent.length),
      'marks sent in the order opened',
    )
    assert.is(
      deferreds.started.filter((x) => x.id === 'markAllRead').length,
      readAllsAccepted - (snapshot.context.readAllAsked ? 1 : 0),
      '"Tout marquer comme lu" sent once per click accepted',
    )
    if (atRest(snapshot)) {
      assert.is(marksSent.length, opened.filter((o) => o.unread).length, 'no mark lost')
      // Read on the server, unless its mark failed (then said, and shown unread again).
      for (const { id, unread } of opened)
        if (unread) assert.ok(readOnServer.has(id) || lastMark.get(id) === 'failed', `notification ${id} read on the server`)
    }
  }
  return { send, clicksHonoured }
}

// Every path: the click each one ends with is meant for every state the graph tells apart (which marks wait, whether
// "Tout marquer comme lu" is asked), not only for those a path adding a transition happens to end in.
for (const path of pathsToReplay(paths, ModelBased, { every: true })) {
  ModelBased(describePath(path), async () => {
    const bell = start()
    const { actor, deferreds, navigations, arrivals } = bell
    const { send, clicksHonoured } = drive(bell)
    actor.start()
    await flush()
    for (const [i, step] of path.steps.entries()) {
      await send(step.event)
      assert.equal(actor.getSnapshot().value, step.state.value, `step ${i + 1} (${step.event.type}) of ${describePath(path)}`)
    }
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
    // the list read again after a drop; of nothing it had (the first list, one sent twice). A first list that
    // came after a failed one: its unread ones may be news (they could have come during the failure).
    const firstIds = first.notifications.map((x) => x.id)
    const types = path.steps.map((s) => s.event.type)
    const firstLoaded = types.indexOf('xstate.done.actor.loadNotifications')
    const afterFailure = firstLoaded > 0 && types.slice(0, firstLoaded).includes('xstate.error.actor.loadNotifications')
    const toldAtFirst = afterFailure ? first.notifications.filter((x) => !x.read).map((x) => x.id) : []
    assert.equal(
      arrivals,
      [...toldAtFirst, ...context.notifications.map((x) => x.id).filter((id) => !firstIds.includes(id))],
      'told once of each new one',
    )
    // A stream replaced by a newer one waits for its page to be looked at, with no pause: none is started after it.
    if (snapshot.matches({ ready: { live: 'replaced' } })) {
      assert.ok(Object.keys(snapshot.children).includes('pageShown'))
      const since = deferreds.started.slice(deferreds.started.findLastIndex((s) => s.id === 'pageShown') + 1)
      assert.equal(
        since.filter((s) => s.id === 'pause' || s.id === 'stream'),
        [],
        'no pause nor stream started since (a read mark may be)',
      )
    }
    // The pause grows with the drops (or failed first lists) in a row.
    for (const s of deferreds.started.filter((x) => x.id === 'pause'))
      assert.ok([1000, 2000, 4000, 8000].includes((s.input as { ms: number }).ms))
    // A first list that failed is asked again by itself: the pause runs, with the same delay as a drop's.
    if (snapshot.matches('failed')) {
      assert.ok(Object.keys(snapshot.children).includes('pause'), 'a retry is scheduled')
      assert.equal(deferreds.started.at(-1), { id: 'pause', input: { ms: reconnectDelay(context.attempt) } })
    }
    clicksHonoured()
    // From wherever the path ends, one more click on a notification (an unread one if any) does what it says:
    // its page at once, whatever is being saved; then, once every mark is answered, read on the server.
    const target = context.notifications.find((x) => !x.read) ?? context.notifications[0]
    if (snapshot.matches('ready') && target) {
      await send({ type: 'notification.open', id: target.id })
      assert.is(navigations.at(-1), target.link, 'the click navigates')
      let answers = 0
      for (; answers < 4 && !atRest(actor.getSnapshot()); answers++) {
        const marking = actor.getSnapshot().matches({ ready: { marks: 'marking' } })
        await send({ type: `xstate.done.actor.${marking ? 'markRead' : 'markAllRead'}`, output: { unread: 0 } })
      }
      assert.ok(atRest(actor.getSnapshot()), 'every mark saved in turn')
      clicksHonoured()
      if (answers > 0)
        assert.is(actor.getSnapshot().context.unread, 0, 'the server’s count once every mark is saved, nothing counted twice')
    }
    actor.stop()
  })
}
ModelBased('the graph reaches every state', () => {
  const seen = new Set(paths.map((p) => JSON.stringify(p.state.value)))
  for (const live of ['following', 'waiting', 'catchingUp', 'replaced'])
    assert.ok(
      [...seen].some((v) => v.includes(live)),
      live,
    )
  for (const marks of ['marking', 'markingAll'])
    assert.ok(
      [...seen].some((v) => v.includes(marks)),
      marks,
    )
  assert.ok(seen.has('"failed"'))
  // Two unread opened in a row, and "Tout marquer comme lu" asked during a read mark.
  assert.ok(
    paths.some((p) => p.state.context.pendingMarks.length === 2),
    'a mark waiting for another',
  )
  assert.ok(
    paths.some((p) => p.state.context.readAllAsked),
    '"Tout marquer comme lu" waiting for a mark',
  )
  assert.ok(
    paths.some(
      (p) =>
        p.state.matches({ ready: { marks: 'marking' } }) && p.steps.some((s) => s.event.type === 'xstate.error.actor.loadNotifications'),
    ),
    'a load that failed, then succeeded',
  )
})
ModelBased.run()

const Bell = suite('notifications')

async function ready(list = first) {
  const bell = start()
  bell.actor.start()
  await flush()
  bell.deferreds.settle('loadNotifications', { output: list })
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
  assert.is(context.actionError, `${READ_FAILED} ${failure.message}`, "what failed, then the server's reason")
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

Bell(
  'a stream a newer one replaced (another tab or device) is not followed again until the page is looked at: then the list is read again, and it follows',
  async () => {
    const { actor, deferreds, streams, streamsFrom, arrivals } = await ready()
    actor.send({ type: 'live.open' })
    actor.send({ type: 'live.replaced' })
    await flush()
    assert.ok(actor.getSnapshot().matches({ ready: { live: 'replaced' } }))
    assert.equal(deferreds.started.at(-1), { id: 'pageShown', input: undefined }, 'no pause: it waits for the person')
    assert.is(streams(), 1, 'not followed again meanwhile')
    // The bell still answers its clicks meanwhile.
    actor.send({ type: 'notification.open', id: 1 })
    assert.is(actor.getSnapshot().context.unread, 0)
    deferreds.settle('pageShown', { output: undefined })
    await flush()
    deferreds.settle('reloadNotifications', { output: later })
    await flush()
    assert.ok(actor.getSnapshot().matches({ ready: { live: 'following' } }))
    assert.equal(streamsFrom, [2, 3], 'followed again from the newest of the list read again')
    assert.equal(arrivals, [3], 'what came meanwhile is news')
    assert.is(actor.getSnapshot().context.attempt, 0, 'no drop counted: the next one pauses 1 s')
  },
)

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

Bell('a click on a notification while "Tout marquer comme lu" is saving goes there, and it ends up read', async () => {
  const { actor, deferreds, navigations } = await ready()
  actor.send({ type: 'notification.readAll' })
  actor.send({ type: 'notification.open', id: 1 })
  await flush()
  assert.equal(navigations, [first.notifications[0]!.link], 'at once')
  assert.is(actor.getSnapshot().context.unread, 0)
  deferreds.settle('markAllRead', { error: failure })
  await flush()
  // "Tout marquer comme lu" failed: the one opened is still saved on its own.
  assert.equal(deferreds.started.at(-1), { id: 'markRead', input: { id: 1 } })
  deferreds.settle('markRead', { output: { unread: 0 } })
  await flush()
  assert.ok(actor.getSnapshot().matches({ ready: { marks: 'idle' } }))
  assert.is(actor.getSnapshot().context.notifications.find((x) => x.id === 1)!.read, true)
})

Bell('two unread opened in a row: both go, both are marked read, one after the other, each counted once', async () => {
  const { actor, deferreds, navigations } = await ready(later)
  actor.send({ type: 'notification.open', id: 3 })
  actor.send({ type: 'notification.open', id: 1 })
  await flush()
  assert.equal(navigations, [n(3, false).link, n(1, false).link])
  assert.is(actor.getSnapshot().context.unread, 0, 'both shown read')
  assert.equal(
    deferreds.started.filter((x) => x.id === 'markRead'),
    [{ id: 'markRead', input: { id: 3 } }],
    'one at a time',
  )
  // The server has read 3, not yet 1: its count less the mark still to save.
  deferreds.settle('markRead', { output: { unread: 1 } })
  await flush()
  assert.is(actor.getSnapshot().context.unread, 0)
  assert.equal(deferreds.started.at(-1), { id: 'markRead', input: { id: 1 } })
  deferreds.settle('markRead', { output: { unread: 0 } })
  await flush()
  const { context } = actor.getSnapshot()
  assert.is(context.unread, 0)
  assert.ok(context.notifications.every((x) => x.read))
  assert.ok(actor.getSnapshot().matches({ ready: { marks: 'idle' } }))
})

Bell('"Tout marquer comme lu" during a read mark is saved once the mark is', async () => {
  const { actor, deferreds } = await ready(later)
  actor.send({ type: 'notification.open', id: 3 })
  assert.ok(actor.getSnapshot().can({ type: 'notification.readAll' }), 'offered')
  actor.send({ type: 'notification.readAll' })
  assert.not.ok(actor.getSnapshot().can({ type: 'notification.readAll' }), 'asked once')
  await flush()
  deferreds.settle('markRead', { output: { unread: 1 } })
  await flush()
  assert.equal(deferreds.started.at(-1), { id: 'markAllRead', input: undefined })
  deferreds.settle('markAllRead', { output: { unread: 0 } })
  await flush()
  const { context } = actor.getSnapshot()
  assert.is(context.unread, 0)
  assert.ok(context.notifications.every((x) => x.read))
})

Bell('a failed first load is asked again by itself after 1 s, then 2 s; then the stream, and its unread ones told as news', async () => {
  const { actor, deferreds, streamsFrom, arrivals } = start()
  actor.start()
  await flush()
  deferreds.settle('loadNotifications', { error: failure })
  await flush()
  assert.equal(deferreds.started.at(-1), { id: 'pause', input: { ms: reconnectDelay(1) } })
  assert.is(actor.getSnapshot().context.error, `${LOAD_FAILED} ${failure.message}`, '"Réessayer" still offered')
  deferreds.settle('pause', { output: undefined })
  await flush()
  deferreds.settle('loadNotifications', { error: failure })
  await flush()
  assert.equal(deferreds.started.at(-1), { id: 'pause', input: { ms: reconnectDelay(2) } })
  deferreds.settle('pause', { output: undefined })
  await flush()
  deferreds.settle('loadNotifications', { output: first })
  await flush()
  assert.ok(actor.getSnapshot().matches({ ready: { live: 'following' } }))
  assert.equal(streamsFrom, [2], 'followed from the newest listed')
  // Notification 1 (unread) may have come during the failure, after the portal read its lists: they are read again.
  assert.equal(arrivals, [1], 'the unread ones of a list that came late are news; the read one is not')
  actor.send({ type: 'live.notification', notification: n(3, false) })
  actor.send({ type: 'live.notification', notification: n(3, false) })
  assert.equal(arrivals, [1, 3], 'told once')
})

Bell.run()
