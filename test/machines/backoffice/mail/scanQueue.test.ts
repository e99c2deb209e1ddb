import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor, SimulatedClock } from 'xstate'
import { FILE_TOO_LARGE } from '../../../../server/contract/rules/uploads.ts'
import {
  isPublishable,
  type LocalFile,
  NOT_A_PDF,
  published,
  READING_POLL_MS,
  refusalOf,
  scanQueueMachine,
} from '../../../../src/backoffice/machines/mail/scanQueue.machine.ts'
import type { Notice } from '../../../../src/machines/shared.ts'
import { publishedOf, scan } from '../../../util/backoffice-mail.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const notPdf = failure(400, 'Le fichier envoyé n’est pas un PDF lisible.')
const pdf = (key: string, name = `${key}.pdf`): LocalFile => ({ key, name, size: 2048, type: 'application/pdf', file: new Blob(['%PDF']) })
const confirmed = scan(1, { confirmed: true })
const uploaded = scan(2)

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = scanQueueMachine.provide({
    actors: { load: deferreds.actor(), upload: deferreds.actor(), publishAll: deferreds.actor() },
    actions: { notify: (_, notice) => void notices.push(notice) },
  })
  return { actor: createActor(machine), deferreds, notices }
}

const events = [
  { type: 'xstate.done.actor.load', output: [confirmed] },
  { type: 'xstate.error.actor.load', error: down },
  { type: 'queue.retry' },
  { type: 'files.add', files: [pdf('a'), { ...pdf('b', 'photo.jpg'), type: 'image/jpeg' }] },
  { type: 'upload.progress', key: 'a', progress: 0.5 },
  { type: 'xstate.done.actor.upload', output: uploaded },
  { type: 'xstate.error.actor.upload', error: notPdf },
  { type: 'upload.retry', key: 'a' },
  { type: 'upload.dismiss', key: 'a' },
  { type: 'publish.confirmed' },
  { type: 'xstate.done.actor.publishAll', output: { published: [publishedOf(confirmed)], skipped: [] } },
  { type: 'xstate.error.actor.publishAll', error: down },
] as const

const ModelBased = suite('back office, scanQueue: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(scanQueueMachine, {
  events,
  serializeState: (s: any) =>
    JSON.stringify([
      s.value,
      s.context.scans?.map((x: any) => x.id) ?? null,
      // The same file added again is no new state: the search stays bounded.
      [...new Map(s.context.uploads.map((u: any) => [u.key, [u.status, u.progress]])).entries()].sort(),
      s.context.error,
      s.context.publishError,
    ]),
})
ModelBased('the model reaches every state of each region', () => {
  const values = paths.map((p) => p.state.value as Record<string, string>)
  assert.equal([...new Set(values.map((v) => v.queue))].sort(), ['failed', 'loading', 'shown'])
  assert.equal([...new Set(values.map((v) => v.uploads))].sort(), ['idle', 'sending'])
  assert.equal([...new Set(values.map((v) => v.publishing))].sort(), ['idle', 'sending'])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, notices } = start()
    await replay(actor, deferreds, path)
    const { context } = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string; error?: Error })
    // One request per file, the PDF only: the JPEG is refused before anything is sent, and stays refused.
    const uploads = deferreds.started.filter((s) => s.id === 'upload')
    assert.ok(uploads.every((s) => (s.input as { fileName: string }).fileName === 'a.pdf'))
    if (!steps.some((e) => e.type === 'files.add')) assert.is(uploads.length, 0)
    const jpeg = context.uploads.find((u) => u.key === 'b')
    if (steps.some((e) => e.type === 'files.add')) assert.equal([jpeg?.status, jpeg?.error, jpeg?.refused], ['failed', NOT_A_PDF, true])
    // At most one upload at a time.
    assert.ok(context.uploads.filter((u) => u.status === 'uploading').length <= 1)
    // An uploaded scan joins the queue; a published one leaves it.
    if (steps.some((e) => e.type === 'xstate.done.actor.upload')) assert.ok(context.scans?.some((s) => s.id === 2))
    if (steps.some((e) => e.type === 'xstate.done.actor.publishAll')) {
      assert.not.ok(context.scans?.some((s) => s.id === 1))
      assert.equal(notices, [{ kind: 'success', message: published(1) }])
    } else assert.equal(notices, [])
    // Only the confirmed scans shown are published, by id.
    for (const s of deferreds.started.filter((x) => x.id === 'publishAll')) assert.equal(s.input, { scanIds: [1] })
    if (steps.at(-1)?.type === 'xstate.error.actor.publishAll') assert.is(context.publishError, down.message)
    if (steps.at(-1)?.type === 'xstate.error.actor.upload') assert.is(context.uploads.find((u) => u.key === 'a')?.error, notPdf.message)
    actor.stop()
  })
}
ModelBased.run()

const Rules = suite('back office, scanQueue: the files and the progress')
Rules('a file is refused before it is sent when it is no PDF or is over 10 MB', () => {
  assert.is(refusalOf({ name: 'scan.PDF', size: 10, type: '' }), null)
  assert.is(refusalOf({ name: 'scan', size: 10, type: 'application/pdf' }), null)
  assert.is(refusalOf({ name: 'scan.png', size: 10, type: 'image/png' }), NOT_A_PDF)
  assert.is(refusalOf({ name: 'scan.pdf', size: 10 * 1024 * 1024 + 1, type: 'application/pdf' }), FILE_TOO_LARGE)
})
Rules('only a confirmed scan with an order, not « À vérifier », is published with the others', () => {
  assert.ok(isPublishable(confirmed))
  assert.not.ok(isPublishable(scan(3)))
  assert.not.ok(isPublishable(scan(3, { confirmed: true, toCheck: 'Aucune domiciliation reconnue' })))
  assert.not.ok(isPublishable(scan(3, { confirmed: true, orderId: null })))
})
Rules('the upload’s progress reaches its entry; the files go one after the other; the queue is read again while one is read', async () => {
  const { actor, deferreds } = start()
  actor.start()
  await flush()
  deferreds.settle('load', { output: [scan(5, { reading: 'en cours', suggestion: null })] })
  actor.send({ type: 'files.add', files: [pdf('a'), pdf('b')] })
  await flush()
  const first = deferreds.started.find((s) => s.id === 'upload')!.input as { fileName: string; onProgress: (p: number) => void }
  assert.is(first.fileName, 'a.pdf')
  first.onProgress(0.4)
  assert.equal(
    actor.getSnapshot().context.uploads.map((u) => [u.key, u.status, u.progress]),
    [
      ['a', 'uploading', 0.4],
      ['b', 'waiting', 0],
    ],
  )
  deferreds.settle('upload', { output: uploaded })
  await flush()
  assert.equal(
    deferreds.started.filter((s) => s.id === 'upload').map((s) => (s.input as { fileName: string }).fileName),
    ['a.pdf', 'b.pdf'],
  )
  // A scan being read: the queue is read again a few seconds later (the delay is the machine's).
  assert.ok(actor.getSnapshot().matches({ queue: 'shown' }))
  actor.stop()
})
Rules('a scan dropped long after the queue was shown empty is still read again until its reading ends', async () => {
  const clock = new SimulatedClock()
  const deferreds = new Deferreds()
  const machine = scanQueueMachine.provide({
    actors: { load: deferreds.actor(), upload: deferreds.actor(), publishAll: deferreds.actor() },
  })
  const actor = createActor(machine, { clock }).start()
  await flush()
  deferreds.settle('load', { output: [] })
  await flush()
  // Nothing is read: no request, however long the page stays open.
  clock.increment(5 * READING_POLL_MS)
  await flush()
  assert.is(deferreds.started.filter((s) => s.id === 'load').length, 1)
  actor.send({ type: 'files.add', files: [pdf('a')] })
  await flush()
  deferreds.settle('upload', { output: scan(7, { reading: 'en cours', suggestion: null }) })
  await flush()
  clock.increment(READING_POLL_MS)
  await flush()
  assert.is(deferreds.started.filter((s) => s.id === 'load').length, 2, 'the queue is read again')
  deferreds.settle('load', { output: [scan(7)] })
  await flush()
  clock.increment(3 * READING_POLL_MS)
  await flush()
  assert.is(deferreds.started.filter((s) => s.id === 'load').length, 2, 'read, it is not asked again')
  actor.stop()
})
Rules.run()
