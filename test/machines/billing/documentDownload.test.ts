import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { Certificate } from '../../../server/contract/billing.ts'
import { documentDownloadMachine } from '../../../src/machines/billing/documentDownload.machine.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const certificate: Certificate = {
  code: 'K7QM-2XPA-9D4F',
  orderId: 2,
  issuedAt: '2026-11-23T10:00:00.000Z',
  verificationUrl: 'http://localhost:8080/verification/K7QM-2XPA-9D4F',
  file: '/api-protected/certificates/K7QM-2XPA-9D4F/file',
}
const pdf = new Blob(['%PDF-1.7'], { type: 'application/pdf' })

function start() {
  const deferreds = new Deferreds()
  const saved: string[] = []
  const machine = documentDownloadMachine.provide({
    actors: { fetchDocument: deferreds.actor() },
    actions: { saveFile: (_, { fileName }) => void saved.push(fileName) },
  })
  return { actor: createActor(machine), deferreds, saved }
}

const events = [
  { type: 'download.start', request: { kind: 'certificate', orderId: 2 } },
  { type: 'xstate.done.actor.fetchDocument', output: { blob: pdf, fileName: 'attestation.pdf', certificate } },
  {
    type: 'xstate.error.actor.fetchDocument',
    error: new Error('Votre attestation sera disponible dès la signature de votre contrat de domiciliation.'),
  },
] as const

const ModelBased = suite('documentDownload: shortest paths covering every state and transition, replayed')
for (const path of pathsToReplay(
  shortestPaths(documentDownloadMachine, {
    events,
    serializeState: (s) => JSON.stringify({ value: s.value, error: s.context.error, code: s.context.certificate?.code }),
  }),
  ModelBased,
)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, saved } = start()
    await replay(actor, deferreds, path)
    // A file is handed to the browser exactly when the server gave one; the code stays to be shown.
    const done = path.steps.some((s) => s.event.type === 'xstate.done.actor.fetchDocument')
    assert.equal(saved, done ? ['attestation.pdf'] : [])
    assert.is(actor.getSnapshot().context.certificate?.code ?? null, done ? certificate.code : null)
    actor.stop()
  })
}
ModelBased.run()

const Download = suite('documentDownload: examples')

Download('a failure says why; the next try clears it', async () => {
  const { actor, deferreds, saved } = start()
  actor.start()
  actor.send({ type: 'download.start', request: { kind: 'contract', contractId: 102 } })
  await flush()
  deferreds.settle('fetchDocument', { error: new Error('Contrat introuvable.') })
  await flush()
  assert.is(actor.getSnapshot().context.error, 'Contrat introuvable.')
  actor.send({ type: 'download.start', request: { kind: 'contract', contractId: 102 } })
  assert.is(actor.getSnapshot().context.error, null)
  assert.ok(actor.getSnapshot().hasTag('busy'))
  await flush()
  deferreds.settle('fetchDocument', { output: { blob: pdf, fileName: 'contrat.pdf', certificate: null } })
  await flush()
  assert.equal(saved, ['contrat.pdf'])
  assert.equal(
    deferreds.started.map((s) => s.input),
    [
      { kind: 'contract', contractId: 102 },
      { kind: 'contract', contractId: 102 },
    ],
  )
})

Download.run()
