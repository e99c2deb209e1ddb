import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor, fromPromise } from 'xstate'
import type { Folder, MailDocument } from '../../../server/contract/mail.ts'
import {
  FILE_FAILED,
  LINKED_LETTER_GONE,
  mailboxMachine,
  MOVE_FAILED,
  MOVE_OUT_FAILED,
  MOVED_OUT,
  type PortalSeen,
  MOVED_TO_FOLDER,
  READ_FAILED,
  SEND_BAD_EMAIL,
  SEND_NO_LETTER,
} from '../../../src/machines/mail/mailbox.machine.ts'
import { ApiError } from '../../../src/api/errors.ts'
import { portalDataMachine } from '../../../src/machines/session/portalData.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import * as F from '../../util/fixtures.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const unreadA = F.letter(12)
const readB = F.letter(13, { read: true, sender: 'EDF' })
const unreadC = F.letter(14, { sender: 'Greffe' })
const failure = new Error('Le service est momentanément indisponible.')
const scan = new Blob(['%PDF-1.7'], { type: 'application/pdf' })

function start() {
  const deferreds = new Deferreds()
  const changes: MailDocument[] = []
  const reads: { documentId: number; read: boolean }[] = []
  const notices: Notice[] = []
  const portal: string[] = []
  const machine = mailboxMachine.provide({
    actors: { loadFile: deferreds.actor(), updateDocument: deferreds.actor(), sendDocuments: deferreds.actor() },
    actions: {
      documentChanged: (_, { document }) => void changes.push(document),
      readChanged: (_, read) => void reads.push(read),
      notify: (_, notice) => void notices.push(notice),
      selectOrder: (_, { orderId }) => void portal.push(`order ${orderId}`),
      selectDocument: (_, { documentId }) => void portal.push(`letter ${documentId}`),
      forgetLink: () => void portal.push('forget'),
      foldersOutdated: () => void portal.push('folders'),
    },
  })
  return { actor: createActor(machine), deferreds, changes, reads, notices, portal }
}

/** What the letters page reports: the order shown (null: 'Tous') among orders 2 and 3, and its list. */
const seen = (orderId: number | null, status: PortalSeen['status'], documentIds: number[] = []) =>
  ({ type: 'portal.seen', seen: { orderId, orderIds: [2, 3], status, documentIds } }) as const

const inputOf = (deferreds: Deferreds, id: string) => deferreds.started.filter((s) => s.id === id).map((s) => s.input)

// The four regions are independent: each model drives one concern, the others staying idle.
const models = {
  'viewer and reading': [
    { type: 'letter.open', document: unreadA },
    { type: 'letter.open', document: readB },
    { type: 'letter.open', document: unreadC },
    { type: 'xstate.done.actor.loadFile', output: scan },
    { type: 'xstate.error.actor.loadFile', error: failure },
    { type: 'viewer.retry' },
    { type: 'xstate.done.actor.markRead', output: { ...unreadA, read: true } },
    { type: 'xstate.error.actor.markRead', error: failure },
    { type: 'order.switched' },
  ],
  moving: [
    { type: 'letter.move', document: unreadA, folderId: 5 },
    { type: 'letter.move', document: readB, folderId: null },
    { type: 'xstate.done.actor.move', output: { ...unreadA, folderId: 5 } },
    { type: 'xstate.error.actor.move', error: failure },
    { type: 'order.switched' },
  ],
  sending: [
    { type: 'send.open', documentIds: [12, 13] },
    { type: 'send.open', documentIds: [] },
    { type: 'send.pick', documentIds: [13] },
    { type: 'send.change', form: { email: 'pas-une-adresse' } },
    { type: 'send.change', form: { email: 'comptable@example.com', message: 'Pour la clôture' } },
    { type: 'send.submit' },
    { type: 'send.close' },
    { type: 'xstate.done.actor.sendDocuments', output: { message: 'Les 2 courriers ont été envoyés à comptable@example.com.' } },
    { type: 'xstate.error.actor.sendDocuments', error: failure },
  ],
  // The e-mail's link names letter 14 of order 3; the page shows order 2, order 3 or 'Tous'.
  'order and link': [
    seen(2, 'loaded', [12, 13]),
    seen(3, 'loading'),
    seen(3, 'loaded', [14]),
    seen(3, 'loaded', [15]),
    seen(3, 'failed'),
    seen(3, 'refreshing', [15]),
    seen(3, 'stale', [15]),
    seen(null, 'loaded', [12, 13, 14]),
    { type: 'link.follow', link: { documentId: 14, orderId: 3 } },
    { type: 'viewer.show' },
  ],
} as const

const ModelBased = suite('mailbox: shortest paths of each region covering every state and transition, replayed')
for (const [concern, events] of Object.entries(models)) {
  const paths = shortestPaths(mailboxMachine, { events, limit: 5000 })
  ModelBased(`${concern}: the model reaches every state of its region`, () => {
    const region = concern === 'viewer and reading' ? ['viewer', 'reading'] : concern === 'order and link' ? ['order', 'link'] : [concern]
    const reached = new Set(paths.flatMap((p) => region.map((r) => `${r}.${(p.state.value as Record<string, string>)[r]}`)))
    const expected: Record<string, string[]> = {
      viewer: ['empty', 'loading', 'shown', 'failed'],
      reading: ['idle', 'marking'],
      moving: ['idle', 'saving'],
      sending: ['closed', 'editing', 'submitting'],
      order: ['unknown', 'known'],
      link: ['none', 'following'],
    }
    for (const r of region) for (const state of expected[r]!) assert.ok(reached.has(`${r}.${state}`), `${r}.${state} is reached`)
  })
  for (const path of pathsToReplay(paths, ModelBased)) {
    ModelBased(`${concern}: ${describePath(path)}`, async () => {
      const { actor, deferreds, changes, reads, notices, portal } = start()
      await replay(actor, deferreds, path)
      const { context } = actor.getSnapshot()
      // The link only ever selects its own order, then its own letter; each link is let go of once,
      // found (the viewer shows it) or said to be gone.
      assert.ok(
        portal.every((p) => ['order 3', 'letter 14', 'forget'].includes(p)),
        portal.join(),
      )
      const found = portal.filter((p) => p === 'letter 14').length
      const gone = notices.filter((n) => n.message === LINKED_LETTER_GONE).length
      assert.is(portal.filter((p) => p === 'forget').length, found + gone)
      if (portal.at(-1) === 'letter 14') assert.ok(context.phoneViewer, 'a phone shows the linked letter')
      assert.is(context.link === null, actor.getSnapshot().matches({ link: 'none' }))
      // An order switch sends a phone back to the list.
      const events = path.steps.map((s) => s.event)
      const last = events.at(-1)
      const reports = events.filter((e) => e.type === 'portal.seen') as ReturnType<typeof seen>[]
      if (
        last?.type === 'portal.seen' &&
        reports.length > 1 &&
        reports.at(-2)!.seen.orderId !== reports.at(-1)!.seen.orderId &&
        portal.at(-1) !== 'letter 14' &&
        // (nor when that last report found the linked letter: a phone then shows it, and the link is let go of)
        !(
          (path.steps.at(-2)?.state.value as { link?: string } | undefined)?.link === 'following' &&
          (reports.at(-1)!.seen.documentIds as readonly number[] | undefined)?.includes(14)
        )
      ) {
        assert.not.ok(context.phoneViewer)
      }
      // Only unread letters are marked, always with readFlag true, and each shows read before the server answers.
      for (const input of inputOf(deferreds, 'markRead') as { documentId: number; readFlag: boolean }[]) {
        assert.equal(input.readFlag, true)
        assert.ok([unreadA.id, unreadC.id].includes(input.documentId), 'a read letter is never marked again')
        assert.ok(
          reads.some((r) => r.documentId === input.documentId && r.read),
          'read on screen at once',
        )
      }
      // A read mark reports the read flag alone: the letter as it was when opened never replaces a move made since.
      const moves = path.steps
        .filter((s) => s.event.type === 'xstate.done.actor.move')
        .map((s) => (s.event as { output: MailDocument }).output)
      assert.equal(changes, moves, 'only moves report a whole letter')
      // The scan asked for is always the open letter's.
      const files = inputOf(deferreds, 'loadFile') as { documentId: number }[]
      if (files.length && context.opened) assert.is(files.at(-1)!.documentId, context.opened.id)
      // A sent e-mail always has a valid recipient and at least one letter.
      for (const input of inputOf(deferreds, 'sendDocuments') as { email: string; documentIds: number[] }[]) {
        assert.is(input.email, 'comptable@example.com')
        assert.ok(input.documentIds.length > 0)
      }
      // Whatever happened, the recipient typed is kept.
      if (path.steps.some((s) => s.event.type === 'send.change')) assert.ok(context.form.email !== '')
      actor.stop()
    })
  }
}
ModelBased.run()

const Reading = suite('mailbox: opening a letter')

Reading('an unread letter is read at once, then on the server; the viewer loads its scan', async () => {
  const { actor, deferreds, reads } = start()
  actor.start()
  actor.send({ type: 'letter.open', document: unreadA })
  await flush()
  assert.equal(reads, [{ documentId: unreadA.id, read: true }], 'the unread count follows before the server answers')
  assert.equal(inputOf(deferreds, 'markRead'), [{ documentId: unreadA.id, readFlag: true }])
  assert.equal(inputOf(deferreds, 'loadFile'), [{ documentId: unreadA.id }])
  assert.ok(actor.getSnapshot().hasTag('loadingFile'))
  deferreds.settle('loadFile', { output: scan })
  deferreds.settle('markRead', { output: { ...unreadA, read: true } })
  await flush()
  assert.is(actor.getSnapshot().context.file, scan)
  assert.equal(reads, [
    { documentId: unreadA.id, read: true },
    { documentId: unreadA.id, read: true },
  ])
  assert.ok(actor.getSnapshot().matches({ reading: 'idle', viewer: 'shown' }))
})

Reading('a read letter is shown without any call but its scan', async () => {
  const { actor, deferreds, reads } = start()
  actor.start()
  actor.send({ type: 'letter.open', document: readB })
  await flush()
  assert.equal(reads, [])
  assert.equal(
    deferreds.started.map((s) => s.id),
    ['loadFile'],
  )
})

Reading('the server refusing: the letter is unread again and the customer is told', async () => {
  const { actor, deferreds, reads, notices } = start()
  actor.start()
  actor.send({ type: 'letter.open', document: unreadA })
  await flush()
  deferreds.settle('markRead', { error: failure })
  await flush()
  assert.equal(reads, [
    { documentId: unreadA.id, read: true },
    { documentId: unreadA.id, read: false },
  ])
  // The server's reason alone ('Le service est momentanément indisponible.') would not say the letter stayed unread.
  assert.equal(notices, [
    { kind: 'error', message: 'Le courrier n’a pas pu être marqué comme lu : il reste non lu. Le service est momentanément indisponible.' },
  ])
  actor.send({ type: 'letter.open', document: unreadC })
  await flush()
  deferreds.settle('markRead', { error: new Error('') })
  await flush()
  assert.equal(notices.at(-1), { kind: 'error', message: READ_FAILED }, 'without a reason, what failed alone')
})

Reading('letters opened while one is being marked are marked next, in turn', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'letter.open', document: unreadA })
  actor.send({ type: 'letter.open', document: readB })
  actor.send({ type: 'letter.open', document: unreadC })
  await flush()
  assert.equal(inputOf(deferreds, 'markRead'), [{ documentId: unreadA.id, readFlag: true }], 'one at a time, none cancelled')
  assert.equal(inputOf(deferreds, 'loadFile').at(-1), { documentId: unreadC.id })
  deferreds.settle('markRead', { output: { ...unreadA, read: true } })
  await flush()
  assert.equal(inputOf(deferreds, 'markRead'), [
    { documentId: unreadA.id, readFlag: true },
    { documentId: unreadC.id, readFlag: true },
  ])
})

Reading('the scan failing says why and can be asked again', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'letter.open', document: readB })
  await flush()
  deferreds.settle('loadFile', { error: failure })
  await flush()
  assert.is(actor.getSnapshot().context.fileError, `${FILE_FAILED} Le service est momentanément indisponible.`, 'what failed, then why')
  actor.send({ type: 'viewer.retry' })
  await flush()
  assert.equal(inputOf(deferreds, 'loadFile'), [{ documentId: readB.id }, { documentId: readB.id }])
  assert.is(actor.getSnapshot().context.fileError, null)
})

Reading('a stale answer after switching order is ignored: no revert, no scan, no move', async () => {
  const { actor, deferreds, changes, reads, notices } = start()
  actor.start()
  actor.send({ type: 'letter.open', document: unreadA })
  actor.send({ type: 'letter.move', document: readB, folderId: 5 })
  await flush()
  actor.send({ type: 'order.switched' })
  await flush()
  assert.ok(actor.getSnapshot().matches({ viewer: 'empty', reading: 'idle', moving: 'idle' }))
  // The old order's answers arrive now: a failed read mark, a scan, a move.
  deferreds.settleAt('markRead', 0, { error: failure })
  deferreds.settleAt('loadFile', 0, { output: scan })
  deferreds.settleAt('move', 0, { output: { ...readB, folderId: 5 } })
  await flush()
  assert.equal(reads, [{ documentId: unreadA.id, read: true }], 'only what happened before the switch')
  assert.equal(changes, [])
  assert.equal(notices, [])
  assert.is(actor.getSnapshot().context.file, null)
  assert.is(actor.getSnapshot().context.opened, null)
})

Reading('reopening the letter shown keeps its scan (its read flag changed, not the letter)', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'letter.open', document: unreadA })
  await flush()
  deferreds.settle('loadFile', { output: scan })
  await flush()
  actor.send({ type: 'letter.open', document: { ...unreadA, read: true } })
  await flush()
  assert.is(inputOf(deferreds, 'loadFile').length, 1)
  assert.is(actor.getSnapshot().context.file, scan)
})

Reading.run()

const Moving = suite('mailbox: moving a letter to a folder')

Moving('filed: the server’s letter replaces the old one, and the customer is told', async () => {
  const { actor, deferreds, changes, notices } = start()
  actor.start()
  actor.send({ type: 'letter.move', document: readB, folderId: 5 })
  await flush()
  assert.ok(actor.getSnapshot().hasTag('moving'))
  assert.equal(inputOf(deferreds, 'move'), [{ documentId: readB.id, folderId: 5 }])
  deferreds.settle('move', { output: { ...readB, folderId: 5 } })
  await flush()
  assert.equal(changes, [{ ...readB, folderId: 5 }])
  assert.equal(notices, [{ kind: 'success', message: MOVED_TO_FOLDER }])
  actor.send({ type: 'letter.move', document: { ...readB, folderId: 5 }, folderId: null })
  await flush()
  deferreds.settle('move', { output: readB })
  await flush()
  assert.equal(notices.at(-1), { kind: 'success', message: MOVED_OUT })
})

Moving('a failure changes nothing and says what failed and why', async () => {
  const { actor, deferreds, changes, notices, portal } = start()
  actor.start()
  actor.send({ type: 'letter.move', document: readB, folderId: 5 })
  await flush()
  deferreds.settle('move', { error: failure })
  await flush()
  assert.equal(changes, [])
  assert.equal(notices, [{ kind: 'error', message: `${MOVE_FAILED} Le service est momentanément indisponible.` }])
  actor.send({ type: 'letter.move', document: { ...readB, folderId: 5 }, folderId: null })
  await flush()
  deferreds.settle('move', { error: failure })
  await flush()
  assert.equal(notices.at(-1), { kind: 'error', message: `${MOVE_OUT_FAILED} Le service est momentanément indisponible.` })
  assert.equal(portal, [], 'the folders shown are not in question')
})

Moving('a folder deleted in another tab (404) or changed (409): said, and the portal reads the folders again', async () => {
  const { actor, deferreds, changes, notices, portal } = start()
  actor.start()
  actor.send({ type: 'letter.move', document: readB, folderId: 5 })
  await flush()
  deferreds.settle('move', { error: new ApiError('Dossier introuvable.', 404) })
  await flush()
  assert.equal(changes, [])
  assert.equal(notices, [{ kind: 'error', message: `${MOVE_FAILED} Dossier introuvable.` }])
  assert.equal(portal, ['folders'])
  actor.send({ type: 'letter.move', document: readB, folderId: 6 })
  await flush()
  deferreds.settle('move', { error: new ApiError('Cette action est en conflit avec une autre modification. Rechargez la page.', 409) })
  await flush()
  assert.equal(portal, ['folders', 'folders'])
})

Moving('one move at a time: another asked while one is saved is ignored', async () => {
  const { actor, deferreds, changes } = start()
  actor.start()
  actor.send({ type: 'letter.move', document: readB, folderId: 5 })
  actor.send({ type: 'letter.move', document: readB, folderId: 6 })
  await flush()
  assert.equal(inputOf(deferreds, 'move'), [{ documentId: readB.id, folderId: 5 }])
  deferreds.settle('move', { output: { ...readB, folderId: 5 } })
  await flush()
  assert.equal(changes, [{ ...readB, folderId: 5 }])
  assert.ok(actor.getSnapshot().matches({ moving: 'idle' }))
})

Moving.run()

const Sending = suite('mailbox: sending letters by e-mail')

Sending('several letters, a recipient and a message; the recipient stays for next time', async () => {
  const { actor, deferreds, notices } = start()
  actor.start()
  actor.send({ type: 'send.open', documentIds: [12, 13] })
  actor.send({ type: 'send.change', form: { email: ' comptable@example.com ', message: 'Pour la clôture' } })
  actor.send({ type: 'send.submit' })
  await flush()
  assert.equal(inputOf(deferreds, 'sendDocuments'), [{ email: 'comptable@example.com', message: 'Pour la clôture', documentIds: [12, 13] }])
  deferreds.settle('sendDocuments', { output: { message: 'Les 2 courriers ont été envoyés à comptable@example.com.' } })
  await flush()
  assert.ok(actor.getSnapshot().matches({ sending: 'closed' }))
  assert.equal(notices, [{ kind: 'success', message: 'Les 2 courriers ont été envoyés à comptable@example.com.' }])
  assert.equal(actor.getSnapshot().context.form, { email: ' comptable@example.com ', message: '' })
})

Sending('without a message, none is sent', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'send.open', documentIds: [12] })
  actor.send({ type: 'send.change', form: { email: 'a@b.fr', message: '  ' } })
  actor.send({ type: 'send.submit' })
  await flush()
  assert.equal(inputOf(deferreds, 'sendDocuments'), [{ email: 'a@b.fr', documentIds: [12] }])
})

Sending('a bad address or no letter is refused before anything is sent', () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'send.open', documentIds: [] })
  actor.send({ type: 'send.change', form: { email: 'a@b.fr' } })
  actor.send({ type: 'send.submit' })
  assert.is(actor.getSnapshot().context.sendError, SEND_NO_LETTER)
  actor.send({ type: 'send.close' })
  actor.send({ type: 'send.open', documentIds: [12] })
  actor.send({ type: 'send.change', form: { email: 'pas-une-adresse' } })
  actor.send({ type: 'send.submit' })
  assert.is(actor.getSnapshot().context.sendError, SEND_BAD_EMAIL)
  assert.equal(deferreds.started, [])
})

Sending('a failure keeps the form open with what was typed, and says why', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'send.open', documentIds: [12] })
  actor.send({ type: 'send.change', form: { email: 'a@b.fr', message: 'Bonjour' } })
  actor.send({ type: 'send.submit' })
  await flush()
  deferreds.settle('sendDocuments', { error: failure })
  await flush()
  const snapshot = actor.getSnapshot()
  assert.ok(snapshot.hasTag('sendForm'))
  assert.is(snapshot.context.sendError, failure.message)
  assert.equal(snapshot.context.form, { email: 'a@b.fr', message: 'Bonjour' })
})

Sending('a message pasted with line and paragraph separators (U+2028, U+2029) or a lone \\r is sent with plain line breaks', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'send.open', documentIds: [12] })
  actor.send({ type: 'send.change', form: { email: 'a@b.fr', message: 'Nous quittons Lyon.\u2028Merci pour tout.\u2029L’équipe\rFin' } })
  actor.send({ type: 'send.submit' })
  await flush()
  assert.equal(inputOf(deferreds, 'sendDocuments'), [
    { email: 'a@b.fr', message: 'Nous quittons Lyon.\nMerci pour tout.\nL’équipe\nFin', documentIds: [12] },
  ])
})

Sending.run()

const Link = suite("mailbox: the 'Nouveau courrier' e-mail's link and order switches")

Link('another order shown: the letter’s order first, then, once its list is in, the letter (once)', async () => {
  const { actor, portal } = start()
  actor.start()
  actor.send(seen(2, 'loaded', [12, 13]))
  actor.send({ type: 'link.follow', link: { documentId: 14, orderId: 3 } })
  actor.send(seen(2, 'loaded', [12, 13]))
  assert.equal(portal, ['order 3'])
  actor.send(seen(3, 'loading'))
  assert.equal(portal, ['order 3'], 'nothing while the list loads')
  actor.send(seen(3, 'loaded', [14]))
  assert.equal(portal, ['order 3', 'letter 14', 'forget'])
  assert.ok(actor.getSnapshot().context.phoneViewer)
  actor.send(seen(3, 'loaded', [14]))
  assert.is(portal.length, 3, 'followed once')
})

Link("'Tous' shows the letter already: no order switch", () => {
  const { actor, portal } = start()
  actor.start()
  actor.send({ type: 'link.follow', link: { documentId: 14, orderId: 3 } })
  actor.send(seen(null, 'loaded', [12, 13, 14]))
  assert.equal(portal, ['letter 14', 'forget'])
})

Link('a letter no longer there is said in French; a failed list keeps the link for Réessayer', () => {
  const { actor, portal, notices } = start()
  actor.start()
  actor.send({ type: 'link.follow', link: { documentId: 99, orderId: null } })
  actor.send(seen(2, 'failed'))
  assert.equal(portal, [])
  actor.send(seen(2, 'loaded', [12]))
  assert.equal(portal, ['forget'])
  assert.equal(notices, [{ kind: 'error', message: LINKED_LETTER_GONE }])
})

Link('a list being read again after news: the letter is taken from it if there, else awaited, never said gone meanwhile', () => {
  const { actor, portal, notices } = start()
  actor.start()
  actor.send(seen(2, 'loaded', [12]))
  // The bell's notification: the list is read again as the link to the new letter is followed.
  actor.send({ type: 'link.follow', link: { documentId: 14, orderId: null } })
  actor.send(seen(2, 'refreshing', [12]))
  actor.send(seen(2, 'stale', [12]))
  assert.equal(portal, [])
  assert.equal(notices, [], 'not said to be gone while its list could not be read')
  actor.send(seen(2, 'refreshing', [12]))
  actor.send(seen(2, 'loaded', [14, 12]))
  assert.equal(portal, ['letter 14', 'forget'])
  // A letter already listed is opened at once, even while the list is read again.
  actor.send({ type: 'link.follow', link: { documentId: 12, orderId: null } })
  actor.send(seen(2, 'refreshing', [14, 12]))
  assert.equal(portal, ['letter 14', 'forget', 'letter 12', 'forget'])
})

Link('another order drops what was awaited for the old one and sends a phone back to the list', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send(seen(2, 'loaded', [12]))
  actor.send({ type: 'viewer.show' })
  actor.send({ type: 'letter.open', document: unreadA })
  await flush()
  assert.ok(actor.getSnapshot().hasTag('loadingFile'))
  actor.send(seen(3, 'loading'))
  assert.not.ok(actor.getSnapshot().context.phoneViewer)
  assert.ok(actor.getSnapshot().matches({ viewer: 'empty', reading: 'idle' }), 'the old order’s scan and read mark are dropped')
  deferreds.settle('loadFile', { output: scan })
  await flush()
  assert.is(actor.getSnapshot().context.file, null)
})

Link.run()

// The mailbox wired to portalData as src/wiring/mail.ts does: what the letter list ends with.
async function withPortal(documents: MailDocument[]) {
  const banque: Folder = { id: 5, name: 'Banque', domiciliationOrderId: 2, documentCount: 0 }
  const data = createActor(
    portalDataMachine.provide({
      actors: {
        load: fromPromise(async ({ input }) =>
          input.resource === 'documents' ? documents : input.resource === 'folders' ? [banque] : input.resource === 'card' ? null : [],
        ),
      },
    }),
    { input: { scope: { order: F.boulangerie, orders: [F.boulangerie] } } },
  ).start()
  await flush()
  const deferreds = new Deferreds()
  const mailbox = createActor(
    mailboxMachine.provide({
      actors: { loadFile: deferreds.actor(), updateDocument: deferreds.actor(), sendDocuments: deferreds.actor() },
      actions: {
        documentChanged: (_, { document }) => data.send({ type: 'document.changed', document }),
        readChanged: (_, { documentId, read }) => data.send({ type: 'document.read', documentId, read }),
      },
    }),
  ).start()
  const letter = (id: number) => data.getSnapshot().context.documents.find((d) => d.id === id)!
  const inBanque = () => data.getSnapshot().context.folders[0]!.documentCount
  return { mailbox, deferreds, letter, inBanque }
}

const Race = suite('mailbox and the letter list: a read mark and a move of the same letter, both under way')

Race('the read mark fails after the letter was filed: it is unread again, and stays in its folder', async () => {
  const { mailbox, deferreds, letter, inBanque } = await withPortal([unreadA])
  mailbox.send({ type: 'letter.open', document: unreadA })
  mailbox.send({ type: 'letter.move', document: { ...unreadA, read: true }, folderId: 5 })
  deferreds.settle('move', { output: { ...unreadA, read: true, folderId: 5 } })
  await flush()
  assert.equal([letter(12).folderId, inBanque()], [5, 1])
  deferreds.settle('markRead', { error: failure })
  await flush()
  assert.equal([letter(12).folderId, letter(12).read, inBanque()], [5, false, 1])
})

Race('a letter waiting for its read mark, filed meanwhile: its mark does not take it out of its folder', async () => {
  const { mailbox, deferreds, letter, inBanque } = await withPortal([unreadA, unreadC])
  mailbox.send({ type: 'letter.open', document: unreadA })
  mailbox.send({ type: 'letter.open', document: unreadC })
  mailbox.send({ type: 'letter.move', document: { ...unreadC, read: true }, folderId: 5 })
  deferreds.settle('move', { output: { ...unreadC, folderId: 5 } })
  await flush()
  deferreds.settle('markRead', { output: { ...unreadA, read: true } })
  await flush()
  assert.equal([letter(14).folderId, letter(14).read, inBanque()], [5, true, 1], 'its mark under way')
  deferreds.settle('markRead', { error: failure })
  await flush()
  assert.equal([letter(14).folderId, letter(14).read, inBanque()], [5, false, 1])
})

Race('the read mark answered after the move, from before it: the letter stays in its folder', async () => {
  const { mailbox, deferreds, letter, inBanque } = await withPortal([unreadA])
  mailbox.send({ type: 'letter.open', document: unreadA })
  mailbox.send({ type: 'letter.move', document: { ...unreadA, read: true }, folderId: 5 })
  deferreds.settle('move', { output: { ...unreadA, read: true, folderId: 5 } })
  await flush()
  deferreds.settle('markRead', { output: { ...unreadA, read: true } })
  await flush()
  assert.equal([letter(12).folderId, letter(12).read, inBanque()], [5, true, 1])
})

Race.run()
