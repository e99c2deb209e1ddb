import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor, fromPromise } from 'xstate'
import { letterPagesMachine, PAGE_FAILED, PREPARING_RECHECK_MS, ZOOM_LEVELS } from '../../../src/machines/mail/letterPages.machine.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const image = new Blob(['RIFF....WEBP'], { type: 'image/webp' })

function start(pageCount: number) {
  const deferreds = new Deferreds()
  const machine = letterPagesMachine.provide({ actors: { loadPage: deferreds.actor(), pause: deferreds.actor() } })
  const actor = createActor(machine, { input: { documentId: 12, pageCount } })
  const rechecks: number[] = []
  actor.on('pages.recheck', () => rechecks.push(deferreds.count('pause')))
  return { actor, deferreds, rechecks }
}

const pauses = (deferreds: Deferreds) => deferreds.started.filter((s) => s.id === 'pause').map((s) => (s.input as { ms: number }).ms)

const loads = (deferreds: Deferreds) => deferreds.started.filter((s) => s.id === 'loadPage').map((s) => (s.input as { page: number }).page)

const events = [
  { type: 'page.visible', page: 1 },
  { type: 'page.visible', page: 2 },
  { type: 'page.visible', page: 3 },
  { type: 'page.retry', page: 1 },
  { type: 'page.retry', page: 2 },
  { type: 'zoom.in' },
  { type: 'zoom.out' },
  { type: 'xstate.done.actor.loadPage', output: image },
  { type: 'xstate.error.actor.loadPage', error: new Error(PAGE_FAILED) },
] as const

// The blob itself does not matter to the graph: whether a page holds one does.
const serializeState = (s: { value: unknown; context: Record<string, unknown> & { pages: { status: string; image: Blob | null }[] } }) =>
  JSON.stringify({ value: s.value, context: { ...s.context, pages: s.context.pages.map((p) => [p.status, p.image !== null]) } })

const ModelBased = suite('letterPages: shortest paths covering every state and transition, replayed (a letter of two pages)')
const paths = shortestPaths(letterPagesMachine, {
  events,
  input: { documentId: 12, pageCount: 2 },
  serializeState: serializeState as never,
  limit: 5000,
})
ModelBased('the model reaches every state and every page status', () => {
  const reached = new Set(paths.map((p) => JSON.stringify(p.state.value)))
  for (const state of ['{"viewing":"idle"}', '{"viewing":"loading"}']) assert.ok(reached.has(state), state)
  const statuses = new Set(paths.flatMap((p) => p.state.context.pages.map((page) => page.status)))
  assert.equal([...statuses].sort(), ['failed', 'loading', 'queued', 'shown', 'waiting'])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds } = start(2)
    await replay(actor, deferreds, path)
    const { pages, queue, current, zoom } = actor.getSnapshot().context
    const seen = (page: number) => path.steps.some((s) => s.event.type === 'page.visible' && (s.event as { page: number }).page === page)
    // Only pages of the letter that were seen are fetched, one at a time, again only after a failure.
    for (const page of loads(deferreds)) assert.ok(seen(page), `page ${page} fetched unseen`)
    for (const page of [1, 2]) {
      const times = loads(deferreds).filter((p) => p === page).length
      const retries = path.steps.filter((s) => s.event.type === 'page.retry' && (s.event as { page: number }).page === page).length
      assert.ok(times <= 1 + retries)
    }
    assert.ok(deferreds.count('loadPage') <= 1, 'one page fetched at a time')
    assert.is(pages.length, 2)
    for (const [i, page] of pages.entries()) {
      assert.is(page.image !== null, page.status === 'shown', `page ${i + 1}`)
      assert.is(page.error !== null, page.status === 'failed', `page ${i + 1}`)
      assert.is(page.status === 'queued', queue.includes(i + 1))
      assert.is(page.status === 'loading', current === i + 1)
    }
    assert.ok(zoom >= 0 && zoom < ZOOM_LEVELS.length)
    actor.stop()
  })
}
ModelBased.run()

// A letter whose images are being made: the pauses and the new looks at the letters, whatever else is pressed.
const preparingEvents = [
  { type: 'xstate.done.actor.pause' },
  { type: 'page.visible', page: 1 },
  { type: 'page.retry', page: 1 },
  { type: 'zoom.in' },
] as const
const Preparing = suite('letterPages: shortest paths covering every state and transition, replayed (a letter being prepared)')
const preparingPaths = shortestPaths(letterPagesMachine, { events: preparingEvents, input: { documentId: 12, pageCount: 0 }, limit: 500 })
Preparing('the model reaches the end of the pauses', () => {
  assert.ok(preparingPaths.some((p) => p.state.context.rechecks === PREPARING_RECHECK_MS.length))
})
for (const path of pathsToReplay(preparingPaths, Preparing)) {
  Preparing(describePath(path), async () => {
    const { actor, deferreds, rechecks } = start(0)
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const done = path.steps.filter((s) => s.event.type === 'xstate.done.actor.pause').length
    assert.ok(snapshot.hasTag('preparing'), 'no page to show')
    assert.equal(loads(deferreds), [], 'nothing fetched')
    // Each pause ended is one new look at the letters, made when it ends; the pauses grow, and stop after the last.
    assert.is(rechecks.length, done)
    assert.is(snapshot.context.rechecks, done)
    assert.equal(pauses(deferreds), PREPARING_RECHECK_MS.slice(0, Math.min(done + 1, PREPARING_RECHECK_MS.length)))
    assert.ok(deferreds.count('pause') <= 1)
    actor.stop()
  })
}
Preparing.run()

const Pages = suite('letterPages: examples')

Pages('a letter being prepared: its letters asked for again after 2, 4, 8, 15 and 30 s, then no more', async () => {
  const { actor, deferreds, rechecks } = start(0)
  actor.start()
  await flush()
  for (const [i, ms] of PREPARING_RECHECK_MS.entries()) {
    assert.equal(pauses(deferreds).at(-1), ms)
    assert.is(rechecks.length, i, 'not before the pause ends')
    deferreds.settle('pause', { output: undefined })
    await flush()
    assert.is(rechecks.length, i + 1)
  }
  assert.is(pauses(deferreds).length, PREPARING_RECHECK_MS.length, 'no pause after the last')
  assert.is(deferreds.count('pause'), 0)
  assert.ok(actor.getSnapshot().hasTag('preparing'))
})

Pages('a letter with its images asks for nothing again', async () => {
  const { actor, deferreds, rechecks } = start(2)
  actor.start()
  await flush()
  assert.equal(pauses(deferreds), [])
  assert.equal(rechecks, [])
})

Pages('left (the actor stopped), a letter being prepared calls its pause off', async () => {
  let signal: AbortSignal | undefined
  const machine = letterPagesMachine.provide({
    actors: {
      pause: fromPromise<void, { ms: number }>(({ signal: s }) => {
        signal = s
        return new Promise<void>(() => {})
      }),
    },
  })
  const actor = createActor(machine, { input: { documentId: 12, pageCount: 0 } }).start()
  await flush()
  assert.is(signal?.aborted, false)
  actor.stop()
  assert.is(signal?.aborted, true)
})

Pages('pages are fetched as they come into view, one by one, in the order seen', async () => {
  const { actor, deferreds } = start(3)
  actor.start()
  actor.send({ type: 'page.visible', page: 1 })
  actor.send({ type: 'page.visible', page: 3 })
  actor.send({ type: 'page.visible', page: 1 })
  await flush()
  assert.equal(loads(deferreds), [1])
  deferreds.settle('loadPage', { output: image })
  await flush()
  assert.equal(loads(deferreds), [1, 3])
  deferreds.settle('loadPage', { output: image })
  await flush()
  assert.equal(
    actor.getSnapshot().context.pages.map((p) => p.status),
    ['shown', 'waiting', 'shown'],
  )
  assert.is(actor.getSnapshot().context.pages[0]!.image, image)
  assert.equal(
    deferreds.started.map((s) => s.input),
    [
      { documentId: 12, page: 1 },
      { documentId: 12, page: 3 },
    ],
  )
})

Pages('a failed page says so and is fetched again on Réessayer; the others go on', async () => {
  const { actor, deferreds } = start(2)
  actor.start()
  actor.send({ type: 'page.visible', page: 1 })
  actor.send({ type: 'page.visible', page: 2 })
  await flush()
  deferreds.settle('loadPage', { error: new Error('Image de cette page introuvable.') })
  await flush()
  assert.equal(loads(deferreds), [1, 2])
  assert.is(
    actor.getSnapshot().context.pages[0]!.error,
    'Cette page n’a pas pu être chargée. Image de cette page introuvable.',
    'what failed, then why',
  )
  deferreds.settle('loadPage', { output: image })
  await flush()
  actor.send({ type: 'page.retry', page: 1 })
  await flush()
  deferreds.settle('loadPage', { output: image })
  await flush()
  assert.equal(loads(deferreds), [1, 2, 1])
  assert.equal(
    actor.getSnapshot().context.pages.map((p) => p.status),
    ['shown', 'shown'],
  )
})

Pages('zoom steps through its levels and stops at both ends', async () => {
  const { actor } = start(1)
  actor.start()
  actor.send({ type: 'zoom.out' })
  assert.is(actor.getSnapshot().context.zoom, 0)
  for (let i = 0; i < 10; i++) actor.send({ type: 'zoom.in' })
  assert.is(ZOOM_LEVELS[actor.getSnapshot().context.zoom], 3)
  actor.send({ type: 'zoom.out' })
  assert.is(ZOOM_LEVELS[actor.getSnapshot().context.zoom], 2)
})

Pages.run()
