import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import {
  KBIS_FAILED,
  KBIS_NO_CONTRACT,
  KBIS_NOT_PDF,
  KBIS_SUCCESS,
  KBIS_TOO_BIG,
  kbisUploadMachine,
} from '../../../src/machines/company/kbisUpload.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import type { Order } from '../../../server/contract/session.ts'
import * as F from '../../util/fixtures.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const pdf = { name: 'kbis.pdf', type: 'application/pdf', size: 120_000 }
const png = { name: 'kbis.png', type: 'image/png', size: 80_000 }
const disguised = { name: 'kbis.pdf', type: 'image/png', size: 80_000 }
const huge = { name: 'kbis.PDF', type: 'application/pdf', size: 11 * 1024 * 1024 }
const events = [
  { type: 'kbis.open' },
  { type: 'kbis.yes' },
  { type: 'kbis.no' },
  { type: 'kbis.close' },
  { type: 'kbis.cancel' },
  { type: 'kbis.file', file: pdf },
  { type: 'kbis.file', file: png },
  { type: 'kbis.file', file: disguised },
  { type: 'kbis.file', file: huge },
  { type: 'xstate.done.actor.uploadKbis', output: '/api-protected/contracts/101/kbis' },
  { type: 'xstate.done.actor.uploadKbis', output: null },
  { type: 'xstate.error.actor.uploadKbis', error: new Error('Le fichier doit être un PDF.') },
] as const

function start(order: Order | null, contractId: number | null) {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const filed: number[] = []
  const machine = kbisUploadMachine.provide({
    actors: { uploadKbis: deferreds.actor() },
    actions: {
      notify: (_, params) => void notices.push(params),
      kbisFiled: (_, params) => void filed.push(params.orderId),
    },
  })
  return { actor: createActor(machine, { input: { order, contractId } }), deferreds, notices, filed }
}

const inputs = [
  { name: "'En attente de KBIS' without Kbis", order: F.atelier, contractId: 101 },
  { name: "'En attente de procuration' without Kbis", order: { ...F.atelier, status: 'En attente de procuration' }, contractId: 101 },
  { name: 'waiting for its Kbis but no contract', order: F.atelier, contractId: null },
  { name: 'already has its Kbis', order: { ...F.atelier, hasKbis: true }, contractId: 101 },
  { name: 'finalised', order: F.boulangerie, contractId: 102 },
  { name: "'Tous' (no default order)", order: null, contractId: null },
]

const ModelBased = suite('kbisUpload: shortest paths covering every state and transition, replayed')
for (const input of inputs) {
  const paths = shortestPaths(kbisUploadMachine, { events, input: { order: input.order, contractId: input.contractId } })
  for (const path of pathsToReplay(paths, ModelBased)) {
    ModelBased(`${input.name}: ${describePath(path)} → ${JSON.stringify(path.state.value)}`, async () => {
      const { actor, deferreds, notices, filed } = start(input.order, input.contractId)
      await replay(actor, deferreds, path)
      const snapshot = actor.getSnapshot()
      const bannerShown = !snapshot.matches('hidden') && !snapshot.matches('uploaded')
      // Spec §4: the banner shows exactly while the default order waits for its Kbis.
      const waiting =
        !!input.order && ['En attente de KBIS', 'En attente de procuration'].includes(input.order.status) && !input.order.hasKbis
      if (!waiting) assert.ok(snapshot.matches('hidden'))
      if (snapshot.matches('uploaded')) {
        assert.ok(snapshot.context.order!.hasKbis)
        assert.equal(filed, [input.order!.id])
        assert.equal(notices.at(-1), { kind: 'success', message: KBIS_SUCCESS })
      } else {
        assert.equal(filed, [], 'hasKbis is only set after a successful upload')
        if (bannerShown) assert.not.ok(snapshot.context.order!.hasKbis)
      }
      // Only a PDF of at most 10 MB, with a contract, ever reaches the upload.
      for (const started of deferreds.started) {
        assert.equal(started.input, { contractId: input.contractId, file: pdf })
      }
      actor.stop()
    })
  }
}
ModelBased.run()

const Kbis = suite('kbisUpload: spec §2, §4, §5')

async function toChooser(order: Order = F.atelier) {
  const run = start(order, 101)
  run.actor.start()
  run.actor.send({ type: 'kbis.open' })
  assert.ok(run.actor.getSnapshot().hasTag('modal'), "'Je dépose mon Kbis' opens the modal")
  run.actor.send({ type: 'kbis.yes' })
  assert.ok(run.actor.getSnapshot().hasTag('chooser'), "'Oui' opens the file chooser")
  return run
}

Kbis("'Non' closes the modal and keeps the banner", () => {
  const { actor } = start(F.atelier, 101)
  actor.start()
  actor.send({ type: 'kbis.open' })
  actor.send({ type: 'kbis.no' })
  assert.ok(actor.getSnapshot().matches('banner'))
})

Kbis('a non-PDF file is refused before anything is sent', async () => {
  const { actor, deferreds } = await toChooser()
  actor.send({ type: 'kbis.file', file: png })
  await flush()
  assert.ok(actor.getSnapshot().matches('asking'))
  assert.is(actor.getSnapshot().context.error, KBIS_NOT_PDF)
  assert.is(deferreds.started.length, 0)
})

Kbis('a PDF over 10 MB is refused before anything is sent', async () => {
  const { actor, deferreds } = await toChooser()
  actor.send({ type: 'kbis.file', file: huge })
  await flush()
  assert.is(actor.getSnapshot().context.error, KBIS_TOO_BIG)
  assert.is(deferreds.started.length, 0)
})

Kbis('a null answer is a failure: hasKbis unchanged, banner kept, the customer told in French', async () => {
  const { actor, deferreds, filed } = await toChooser()
  actor.send({ type: 'kbis.file', file: pdf })
  await flush()
  assert.ok(actor.getSnapshot().hasTag('busy'))
  deferreds.settle('uploadKbis', { output: null })
  await flush()
  const snapshot = actor.getSnapshot()
  assert.ok(snapshot.matches('asking'), 'the modal stays open to try again')
  assert.is(snapshot.context.error, KBIS_FAILED)
  assert.is(snapshot.context.order!.hasKbis, false)
  assert.equal(filed, [])
  actor.send({ type: 'kbis.close' })
  assert.ok(actor.getSnapshot().matches('banner'), 'the banner stays')
})

Kbis('success sets hasKbis and hides the banner', async () => {
  const { actor, deferreds, filed, notices } = await toChooser()
  actor.send({ type: 'kbis.file', file: pdf })
  await flush()
  deferreds.settle('uploadKbis', { output: '/api-protected/contracts/101/kbis' })
  await flush()
  assert.ok(actor.getSnapshot().matches('uploaded'))
  assert.ok(actor.getSnapshot().context.order!.hasKbis)
  assert.equal(filed, [F.atelier.id])
  assert.equal(notices, [{ kind: 'success', message: KBIS_SUCCESS }])
})

Kbis('without a contract the customer is told whom to contact', () => {
  const { actor } = start(F.atelier, null)
  actor.start()
  actor.send({ type: 'kbis.open' })
  actor.send({ type: 'kbis.yes' })
  assert.ok(actor.getSnapshot().matches('asking'))
  assert.is(actor.getSnapshot().context.error, KBIS_NO_CONTRACT)
})

Kbis.run()
