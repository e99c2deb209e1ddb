import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { Folder } from '../../../server/contract/mail.ts'
import {
  FOLDER_CREATED,
  FOLDER_DELETED,
  FOLDER_NAME_EMPTY,
  FOLDER_NAME_TOO_LONG,
  FOLDER_NO_ORDER,
  FOLDER_RENAMED,
  folderEditorMachine,
} from '../../../src/machines/mail/folderEditor.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const banque: Folder = { id: 7, name: 'Banque', domiciliationOrderId: 2, documentCount: 4 }
const failure = new Error('Un dossier porte déjà ce nom pour cette domiciliation.')
/** The server's refusals that say the list shown is out of date: a name taken (409), a folder gone (404). */
const nameTaken = Object.assign(new Error('Un dossier porte déjà ce nom pour cette domiciliation.'), { status: 409 })
const gone = Object.assign(new Error('Dossier introuvable.'), { status: 404 })

function start() {
  const deferreds = new Deferreds()
  const saved: Folder[] = []
  const removed: number[] = []
  const notices: Notice[] = []
  const rereads: string[] = []
  const machine = folderEditorMachine.provide({
    actors: { saveFolder: deferreds.actor(), deleteFolder: deferreds.actor() },
    actions: {
      folderSaved: (_, { folder }) => void saved.push(folder),
      folderRemoved: (_, { folderId }) => void removed.push(folderId),
      notify: (_, notice) => void notices.push(notice),
      listOutdated: () => void rereads.push('folders'),
    },
  })
  return { actor: createActor(machine), deferreds, saved, removed, notices, rereads }
}

const events = [
  { type: 'folder.new', orderId: 2 },
  { type: 'folder.new', orderId: null },
  { type: 'folder.edit', folder: banque },
  { type: 'folder.remove', folder: banque },
  { type: 'folder.change', draft: { name: '   ' } },
  { type: 'folder.change', draft: { name: 'Impôts 2025' } },
  { type: 'folder.change', draft: { orderId: 2 } },
  { type: 'folder.submit' },
  { type: 'folder.confirm' },
  { type: 'folder.cancel' },
  { type: 'xstate.done.actor.saveFolder', output: { id: 9, name: 'Impôts 2025', domiciliationOrderId: 2, documentCount: 0 } },
  { type: 'xstate.error.actor.saveFolder', error: failure },
  { type: 'xstate.error.actor.saveFolder', error: nameTaken },
  { type: 'xstate.error.actor.saveFolder', error: gone },
  { type: 'xstate.done.actor.deleteFolder', output: { message: 'ok' } },
  { type: 'xstate.error.actor.deleteFolder', error: failure },
  { type: 'xstate.error.actor.deleteFolder', error: gone },
] as const

const ModelBased = suite('folderEditor: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(folderEditorMachine, { events })
ModelBased('the model reaches every state', () => {
  const reached = new Set(paths.map((p) => String(p.state.value)))
  for (const state of ['idle', 'editing', 'saving', 'confirmingDelete', 'deleting']) assert.ok(reached.has(state), state)
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, saved, removed, rereads } = start()
    await replay(actor, deferreds, path)
    // Only a named folder of a chosen order is ever saved; only a confirmed folder is deleted.
    for (const { id, input } of deferreds.started) {
      if (id === 'saveFolder') {
        const save = input as { name: string; orderId?: number; folderId?: number }
        assert.is(save.name, 'Impôts 2025')
        assert.ok(save.folderId === banque.id || save.orderId === 2)
      } else {
        assert.equal(input, { folderId: banque.id })
        assert.ok(path.steps.some((s) => s.event.type === 'folder.confirm'))
      }
    }
    // A change is reported only once the server agreed.
    assert.is(saved.length, path.steps.filter((s) => s.event.type === 'xstate.done.actor.saveFolder').length)
    assert.is(removed.length, path.steps.filter((s) => s.event.type === 'xstate.done.actor.deleteFolder').length)
    // The folders are read again exactly after a refusal saying the list shown is out of date (409, 404).
    assert.is(
      rereads.length,
      path.steps.filter((s) => s.event.type.startsWith('xstate.error.actor.') && [409, 404].includes(s.event.error.status)).length,
    )
    actor.stop()
  })
}
ModelBased.run()

const Folders = suite('folderEditor: create, rename, delete')

Folders('create: a name, then the server; the new folder is reported', async () => {
  const { actor, deferreds, saved, notices } = start()
  actor.start()
  actor.send({ type: 'folder.new', orderId: 2 })
  actor.send({ type: 'folder.submit' })
  assert.is(actor.getSnapshot().context.error, FOLDER_NAME_EMPTY)
  actor.send({ type: 'folder.change', draft: { name: 'x'.repeat(81) } })
  actor.send({ type: 'folder.submit' })
  assert.is(actor.getSnapshot().context.error, FOLDER_NAME_TOO_LONG)
  actor.send({ type: 'folder.change', draft: { name: '  Impôts 2025 ' } })
  actor.send({ type: 'folder.submit' })
  await flush()
  assert.equal(
    deferreds.started.map((s) => s.input),
    [{ orderId: 2, name: 'Impôts 2025' }],
  )
  const folder = { id: 9, name: 'Impôts 2025', domiciliationOrderId: 2, documentCount: 0 }
  deferreds.settle('saveFolder', { output: folder })
  await flush()
  assert.equal(saved, [folder])
  assert.equal(notices, [{ kind: 'success', message: FOLDER_CREATED }])
  assert.ok(actor.getSnapshot().matches('idle'))
})

Folders("with 'Tous', the order must be chosen", async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'folder.new', orderId: null })
  actor.send({ type: 'folder.change', draft: { name: 'Clients' } })
  actor.send({ type: 'folder.submit' })
  assert.is(actor.getSnapshot().context.error, FOLDER_NO_ORDER)
  actor.send({ type: 'folder.change', draft: { orderId: 3 } })
  actor.send({ type: 'folder.submit' })
  await flush()
  assert.equal(
    deferreds.started.map((s) => s.input),
    [{ orderId: 3, name: 'Clients' }],
  )
})

Folders('rename: the form starts with the name; a refusal keeps what was typed', async () => {
  const { actor, deferreds, saved, notices } = start()
  actor.start()
  actor.send({ type: 'folder.edit', folder: banque })
  assert.equal(actor.getSnapshot().context.draft, { name: 'Banque', orderId: 2 })
  actor.send({ type: 'folder.change', draft: { name: 'Administratif' } })
  actor.send({ type: 'folder.submit' })
  await flush()
  assert.equal(
    deferreds.started.map((s) => s.input),
    [{ folderId: 7, name: 'Administratif' }],
  )
  deferreds.settle('saveFolder', { error: failure })
  await flush()
  assert.ok(actor.getSnapshot().matches('editing'))
  assert.is(actor.getSnapshot().context.error, failure.message)
  assert.is(actor.getSnapshot().context.draft.name, 'Administratif')
  actor.send({ type: 'folder.change', draft: { name: 'Banque et assurances' } })
  actor.send({ type: 'folder.submit' })
  await flush()
  deferreds.settle('saveFolder', { output: { ...banque, name: 'Banque et assurances' } })
  await flush()
  assert.equal(saved, [{ ...banque, name: 'Banque et assurances' }])
  assert.equal(notices, [{ kind: 'success', message: FOLDER_RENAMED }])
})

Folders('delete: asks first; once deleted the folder is reported removed (its letters stay, unfiled)', async () => {
  const { actor, deferreds, removed, notices } = start()
  actor.start()
  actor.send({ type: 'folder.remove', folder: banque })
  assert.ok(actor.getSnapshot().hasTag('confirm'))
  assert.equal(deferreds.started, [], 'nothing before the confirmation')
  actor.send({ type: 'folder.cancel' })
  assert.ok(actor.getSnapshot().matches('idle'))
  actor.send({ type: 'folder.remove', folder: banque })
  actor.send({ type: 'folder.confirm' })
  await flush()
  deferreds.settle('deleteFolder', { error: new Error('Impossible de joindre le serveur.') })
  await flush()
  assert.ok(actor.getSnapshot().matches('confirmingDelete'))
  assert.is(actor.getSnapshot().context.error, 'Impossible de joindre le serveur.')
  actor.send({ type: 'folder.confirm' })
  await flush()
  deferreds.settle('deleteFolder', { output: { message: 'ok' } })
  await flush()
  assert.equal(removed, [7])
  assert.equal(notices, [{ kind: 'success', message: FOLDER_DELETED }])
})

Folders(
  'a folder gone meanwhile (404), or a name taken (409): the French reason, and the folders are read again; the network, not',
  async () => {
    const { actor, deferreds, removed, rereads } = start()
    actor.start()
    actor.send({ type: 'folder.remove', folder: banque })
    actor.send({ type: 'folder.confirm' })
    await flush()
    deferreds.settle('deleteFolder', { error: gone })
    await flush()
    assert.ok(actor.getSnapshot().matches('confirmingDelete'))
    assert.is(actor.getSnapshot().context.error, 'Dossier introuvable.')
    assert.equal([removed, rereads], [[], ['folders']])
    actor.send({ type: 'folder.cancel' })
    actor.send({ type: 'folder.edit', folder: banque })
    actor.send({ type: 'folder.change', draft: { name: 'Impôts' } })
    actor.send({ type: 'folder.submit' })
    await flush()
    deferreds.settle('saveFolder', { error: nameTaken })
    await flush()
    assert.is(actor.getSnapshot().context.error, nameTaken.message)
    assert.equal(rereads, ['folders', 'folders'])
    actor.send({ type: 'folder.submit' })
    await flush()
    deferreds.settle('saveFolder', { error: new Error('Impossible de joindre le serveur.') })
    await flush()
    assert.equal(rereads, ['folders', 'folders'])
  },
)

Folders(
  'a rename of a folder another collaborator deleted meanwhile (404): the French reason, what was typed kept, nothing saved, the folders read again',
  async () => {
    const { actor, deferreds, saved, notices, rereads } = start()
    actor.start()
    actor.send({ type: 'folder.edit', folder: banque })
    actor.send({ type: 'folder.change', draft: { name: 'Administratif' } })
    actor.send({ type: 'folder.submit' })
    await flush()
    deferreds.settle('saveFolder', { error: gone })
    await flush()
    assert.ok(actor.getSnapshot().matches('editing'))
    assert.equal([actor.getSnapshot().context.error, actor.getSnapshot().context.draft.name], ['Dossier introuvable.', 'Administratif'])
    assert.equal([saved, notices, rereads], [[], [], ['folders']])
  },
)

Folders.run()
