import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { IdentityUploadReply } from '../../../server/contract/company.ts'
import type { MissingDocument } from '../../../server/contract/session.ts'
import {
  IDENTITY_DONE,
  IDENTITY_INCOMPLETE,
  IDENTITY_STILL_INCOMPLETE,
  IDENTITY_WRONG_TYPE,
  identityUploadMachine,
} from '../../../src/machines/company/identityUpload.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const documents: MissingDocument[] = [
  { type: 'identity_manager', label: 'Pièce d’identité du gérant' },
  { type: 'proof_address', label: 'Justificatif de domicile' },
]
const input = { orderId: 4, documents }
const pdf = (name: string) => ({ name, type: 'application/pdf', size: 2048 })
const incomplete: IdentityUploadReply = { uploaded: [], complete: false, missingDocumentsValidatedAt: null }
const complete: IdentityUploadReply = { uploaded: [], complete: true, missingDocumentsValidatedAt: '2026-11-22T10:00:00.000Z' }
const offline = new Error('Impossible de joindre le serveur.')

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const completed: unknown[] = []
  const machine = identityUploadMachine.provide({
    actors: { uploadOne: deferreds.actor() },
    actions: { notify: (_, n) => void notices.push(n), completed: (_, params) => void completed.push(params) },
  })
  return { actor: createActor(machine, { input }), deferreds, notices, completed }
}

const events = [
  { type: 'identity.file', documentType: 'identity_manager', file: pdf('cni.pdf') },
  { type: 'identity.file', documentType: 'identity_manager', file: { name: 'cni.gif', type: 'image/gif', size: 10 } },
  { type: 'identity.file', documentType: 'proof_address', file: pdf('edf.pdf') },
  { type: 'identity.submit' },
  { type: 'xstate.done.actor.uploadOne', output: incomplete },
  { type: 'xstate.done.actor.uploadOne', output: complete },
  { type: 'xstate.error.actor.uploadOne', error: offline },
] as const

const serializeState = (s: any) =>
  JSON.stringify([s.value, Object.keys(s.context.files).sort(), Object.keys(s.context.fileErrors).sort(), s.context.sent, s.context.error])
const ModelBased = suite('identityUpload: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(identityUploadMachine, { events, input, serializeState, limit: 5000 })

ModelBased('the model reaches a file refused, both documents sent, and everything sent with the file still incomplete', () => {
  assert.ok(
    paths.some((p) => p.state.context.fileErrors.identity_manager === IDENTITY_WRONG_TYPE),
    'refused',
  )
  assert.ok(
    paths.some((p) => p.state.status === 'done'),
    'completed',
  )
  assert.ok(
    paths.some((p) => p.state.context.sent.length === 2 && p.state.context.error === IDENTITY_STILL_INCOMPLETE),
    'all sent, still incomplete',
  )
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, notices, completed } = start()
    await replay(actor, deferreds, path)
    // One upload at a time: the n-th answer is the n-th upload's.
    const answers = path.steps.filter((s) => s.event.type.endsWith('.uploadOne')).map((s) => s.event.type.startsWith('xstate.done'))
    const uploaded = new Set<string>()
    for (const [n, { input: sent }] of deferreds.started.entries()) {
      // Every upload carries a document asked for, with its chosen file; none is sent again once the server has it.
      const { documentType, file } = sent as { documentType: string; file: { name: string } | undefined }
      assert.ok(
        documents.some((d) => d.type === documentType),
        `asked for: ${documentType}`,
      )
      assert.ok(file?.name.endsWith('.pdf'), `a file: ${JSON.stringify(file)}`)
      assert.not.ok(uploaded.has(documentType), `${documentType} sent twice`)
      if (answers[n]) uploaded.add(documentType)
    }
    const { context, status } = actor.getSnapshot()
    // Complete only on the server's word; everything sent and still incomplete: there is nothing left to send.
    assert.is(status === 'done', completed.length === 1)
    if (status === 'done') assert.equal(notices.at(-1), { kind: 'success', message: IDENTITY_DONE })
    if (status !== 'done' && context.sent.length === documents.length) {
      assert.is(context.error, IDENTITY_STILL_INCOMPLETE)
      assert.not.ok(actor.getSnapshot().can({ type: 'identity.submit' }), 'no submit')
    }
    actor.stop()
  })
}
ModelBased.run()

const Examples = suite('identityUpload: examples')

Examples('everything sent, the server still says incomplete: "Envoyer mes documents" again sends nothing', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'identity.submit' })
  assert.is(actor.getSnapshot().context.error, IDENTITY_INCOMPLETE, 'a file per document first')
  actor.send({ type: 'identity.file', documentType: 'identity_manager', file: pdf('cni.pdf') })
  actor.send({ type: 'identity.file', documentType: 'proof_address', file: pdf('edf.pdf') })
  actor.send({ type: 'identity.submit' })
  await flush()
  deferreds.settle('uploadOne', { output: incomplete })
  await flush()
  deferreds.settle('uploadOne', { output: incomplete })
  await flush()
  assert.equal(
    deferreds.started.map((s) => (s.input as { documentType: string }).documentType),
    ['identity_manager', 'proof_address'],
  )
  assert.ok(actor.getSnapshot().matches('editing'))
  assert.is(actor.getSnapshot().context.error, IDENTITY_STILL_INCOMPLETE)
  actor.send({ type: 'identity.submit' })
  await flush()
  assert.is(deferreds.started.length, 2, 'no upload without a document')
  assert.ok(actor.getSnapshot().matches('editing'))
  assert.is(actor.getSnapshot().context.error, IDENTITY_STILL_INCOMPLETE, 'the French message stays')
})

Examples.run()
