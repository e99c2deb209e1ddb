import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { Share } from '../../../server/contract/people.ts'
import {
  collaboratorsMachine,
  INVITE_EMPTY,
  INVITE_NOTHING_NEW,
  inviteList,
  invalidAddresses,
  invitationsSent,
  SHARE_REMOVED,
  invitationJustSent,
} from '../../../src/machines/people/collaborators.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const julien: Share = {
  id: 1,
  email: 'associe@example.com',
  firstname: 'Julien',
  lastname: 'Moreau',
  status: 'active',
  createdAt: '2025-01-01T10:00:00.000Z',
  acceptedAt: '2025-01-02T10:00:00.000Z',
  invitationSentAt: null,
  invitationExpiresAt: null,
}
const invited = (id: number, email: string, sentAt = '2026-11-22T10:00:00.000Z'): Share => ({
  id,
  email,
  firstname: null,
  lastname: null,
  status: 'invitée',
  createdAt: '2026-11-22T10:00:00.000Z',
  acceptedAt: null,
  invitationSentAt: sentAt,
  invitationExpiresAt: new Date(Date.parse(sentAt) + 7 * 86_400_000).toISOString(),
})
// Invited long ago: its link has expired, the server sends a new one when asked again.
const cabinet = invited(2, 'cabinet.durand@example.com', '2025-01-02T10:00:00.000Z')
const cabinetAgain = invited(2, 'cabinet.durand@example.com', '2026-11-25T10:00:00.000Z')
const offline = new Error('Impossible de joindre le serveur.')
const input = { orderId: 2, ownEmail: 'demo@example.com' }

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = collaboratorsMachine.provide({
    actors: { loadShares: deferreds.actor(), invite: deferreds.actor(), removeShare: deferreds.actor() },
    actions: { notify: (_, n) => void notices.push(n) },
  })
  return { actor: createActor(machine, { input }), deferreds, notices }
}

const events = [
  { type: 'xstate.done.actor.loadShares', output: [julien, cabinet] },
  { type: 'xstate.error.actor.loadShares', error: offline },
  { type: 'collaborators.retry' },
  { type: 'invite.open' },
  { type: 'invite.change', text: 'comptable@cabinet.fr, pas-une-adresse' },
  { type: 'invite.change', text: 'Associe@example.com demo@example.com' },
  { type: 'invite.change', text: 'comptable@cabinet.fr\nCOMPTABLE@cabinet.fr; associe@example.com' },
  { type: 'invite.change', text: 'Cabinet.Durand@example.com' },
  { type: 'invite.submit' },
  { type: 'invite.cancel' },
  { type: 'xstate.done.actor.invite', output: [invited(5, 'comptable@cabinet.fr')] },
  { type: 'xstate.done.actor.invite', output: [cabinetAgain] },
  { type: 'invite.resend', share: cabinet },
  { type: 'invite.resend', share: julien },
  { type: 'xstate.error.actor.invite', error: offline },
  { type: 'share.remove', share: julien },
  { type: 'share.confirm' },
  { type: 'share.cancel' },
  { type: 'xstate.done.actor.removeShare', output: { message: 'ok' } },
  { type: 'xstate.error.actor.removeShare', error: offline },
] as const

const serializeState = (s: any) =>
  JSON.stringify([
    s.value,
    s.context.shares.map((x: Share) => [x.id, x.invitationSentAt]),
    s.context.selected?.id,
    s.context.draft,
    s.context.error,
  ])
const ModelBased = suite('collaborators: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(collaboratorsMachine, { events, input, serializeState, limit: 20_000 })
ModelBased('the model reaches an invitation partly invalid, invitations sent and sent again, and a member removed', () => {
  assert.ok(
    paths.some((p) => p.state.context.error === invalidAddresses(['pas-une-adresse'])),
    'partly invalid',
  )
  assert.ok(
    paths.some((p) => p.state.context.shares.some((x) => x.id === 5)),
    'sent',
  )
  assert.ok(
    paths.some((p) => p.state.matches({ ready: { sendingInvites: 'fromRow' } })),
    'sent again from its row',
  )
  assert.ok(
    paths.some(
      (p) =>
        p.state.matches({ ready: { sendingInvites: 'fromForm' } }) && p.state.context.sending!.emails[0] === 'Cabinet.Durand@example.com',
    ),
    'typed again',
  )
  assert.ok(
    paths.some((p) => p.steps.some((s) => s.event.type === 'xstate.done.actor.removeShare')),
    'removed',
  )
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds } = start()
    await replay(actor, deferreds, path)
    for (const { id, input: sent } of deferreds.started) {
      // Only valid addresses are sent, each once: new ones or a pending invitation (a new link), never a member, never oneself.
      if (id === 'invite') {
        const { emails } = sent as { emails: string[] }
        const removed = path.steps.some((s) => s.event.type === 'xstate.done.actor.removeShare')
        assert.ok(
          emails.every(
            (e) =>
              ['comptable@cabinet.fr', cabinet.email].includes(e.toLowerCase()) || (removed && e.toLowerCase() === 'associe@example.com'),
          ),
          emails.join(),
        )
        assert.is(new Set(emails.map((e) => e.toLowerCase())).size, emails.length, 'each once')
      }
      if (id === 'removeShare') {
        assert.equal(sent, { orderId: 2, shareId: julien.id })
        assert.ok(
          path.steps.some((s) => s.event.type === 'share.confirm'),
          'removed only after a confirmation',
        )
      }
    }
    const { context } = actor.getSnapshot()
    const removed = path.steps.some((s) => s.event.type === 'xstate.done.actor.removeShare')
    if (path.steps.some((s) => s.event.type === 'xstate.done.actor.loadShares'))
      assert.is(
        context.shares.some((x) => x.id === julien.id),
        !removed,
      )
    const lastText = [...path.steps].reverse().find((s) => s.event.type === 'invite.change')?.event.text
    if (actor.getSnapshot().matches({ ready: 'inviting' }) && context.error === offline.message)
      assert.is(context.draft, lastText, 'what was typed stays')
    // A row's "Renvoyer l’invitation": that one pending address, without the form; a draft kept from the form stays.
    const last = path.steps.at(-1)!
    const fromRow = (s: any) => s.matches({ ready: { sendingInvites: 'fromRow' } })
    if (last.event.type === 'invite.resend') {
      if (last.event.share.id === julien.id) assert.not.ok(fromRow(last.state), 'a member is never sent again')
      if (fromRow(last.state)) {
        assert.equal(deferreds.started.at(-1), {
          id: 'invite',
          input: { orderId: 2, emails: [cabinet.email], dropped: 0, sentBefore: last.event.share.invitationSentAt },
        })
        assert.not.ok(actor.getSnapshot().hasTag('form'), 'no dialog')
      }
    }
    const before = path.steps.at(-2)?.state
    if (before && fromRow(before) && !fromRow(last.state)) assert.is(last.state.context.draft, before.context.draft, 'the draft stays')
    actor.stop()
  })
}
ModelBased.run()

const Examples = suite('collaborators: the list of addresses')

Examples('split on commas, spaces and new lines; invalid ones named; duplicates, members and oneself dropped', () => {
  assert.equal(inviteList('a@x.fr, b@x.fr\nc@x.fr; d@x.fr  e@x.fr', [], 'moi@x.fr'), {
    emails: ['a@x.fr', 'b@x.fr', 'c@x.fr', 'd@x.fr', 'e@x.fr'],
    dropped: 0,
  })
  assert.equal(inviteList('a@x.fr, nope, b@, c@x.fr', [], 'moi@x.fr'), { invalid: ['nope', 'b@'] })
  assert.equal(inviteList('A@x.fr a@x.fr ASSOCIE@example.com moi@x.fr', [julien], 'MOI@x.fr'), { emails: ['A@x.fr'], dropped: 3 })
  assert.is(invalidAddresses(['nope', 'b@']), 'Ces adresses ne sont pas valides : nope, b@. Corrigez-les puis réessayez.')
  assert.is(invitationsSent(2, 1), '2 invitations envoyées. Une adresse déjà présente a été ignorée.')
})

Examples('an empty or all-known list is refused before any call; sending replaces the draft by the new invitations', async () => {
  const { actor, deferreds, notices } = start()
  actor.start()
  deferreds.settle('loadShares', { output: [julien] })
  await flush()
  actor.send({ type: 'invite.open' })
  actor.send({ type: 'invite.submit' })
  assert.is(actor.getSnapshot().context.error, INVITE_EMPTY)
  actor.send({ type: 'invite.change', text: 'associe@example.com' })
  actor.send({ type: 'invite.submit' })
  assert.is(actor.getSnapshot().context.error, INVITE_NOTHING_NEW)
  actor.send({ type: 'invite.change', text: 'a@cabinet.fr, b@cabinet.fr, associe@example.com' })
  actor.send({ type: 'invite.submit' })
  await flush()
  assert.equal(deferreds.started.at(-1)!.input, { orderId: 2, emails: ['a@cabinet.fr', 'b@cabinet.fr'], dropped: 1 })
  deferreds.settle('invite', { output: [invited(7, 'a@cabinet.fr'), invited(8, 'b@cabinet.fr')] })
  await flush()
  assert.equal(
    actor.getSnapshot().context.shares.map((s) => s.id),
    [1, 7, 8],
  )
  assert.is(actor.getSnapshot().context.draft, '')
  assert.equal(notices, [{ kind: 'success', message: invitationsSent(2, 1) }])
  actor.send({ type: 'share.remove', share: julien })
  actor.send({ type: 'share.confirm' })
  await flush()
  deferreds.settle('removeShare', { output: { message: 'ok' } })
  await flush()
  assert.equal(notices.at(-1), { kind: 'success', message: SHARE_REMOVED })
})

Examples('a pending invitation typed again, or "Renvoyer l’invitation" on its row, is sent again; its row keeps its place', async () => {
  const { actor, deferreds, notices } = start()
  actor.start()
  deferreds.settle('loadShares', { output: [cabinet, julien] })
  await flush()
  assert.equal(inviteList('cabinet.durand@example.com associe@example.com', [cabinet, julien], input.ownEmail), {
    emails: ['cabinet.durand@example.com'],
    dropped: 1,
  })
  actor.send({ type: 'invite.open' })
  actor.send({ type: 'invite.change', text: 'Cabinet.Durand@example.com' })
  actor.send({ type: 'invite.submit' })
  await flush()
  assert.is(actor.getSnapshot().context.error, null)
  assert.equal(deferreds.started.at(-1), { id: 'invite', input: { orderId: 2, emails: ['Cabinet.Durand@example.com'], dropped: 0 } })
  deferreds.settle('invite', { output: [cabinetAgain] })
  await flush()
  assert.equal(actor.getSnapshot().context.shares, [cabinetAgain, julien])
  assert.equal(notices.at(-1), { kind: 'success', message: 'Invitation envoyée.' })
  // From the row: no dialog, the same call with that one address; a failure is told in a toast.
  actor.send({ type: 'invite.resend', share: cabinetAgain })
  await flush()
  assert.ok(actor.getSnapshot().matches({ ready: { sendingInvites: 'fromRow' } }))
  assert.not.ok(actor.getSnapshot().hasTag('form'))
  assert.equal(deferreds.started.at(-1), {
    id: 'invite',
    input: { orderId: 2, emails: ['cabinet.durand@example.com'], dropped: 0, sentBefore: cabinetAgain.invitationSentAt },
  })
  deferreds.settle('invite', { error: offline })
  await flush()
  assert.ok(actor.getSnapshot().matches({ ready: 'idle' }))
  assert.equal(notices.at(-1), { kind: 'error', message: offline.message })
  actor.send({ type: 'invite.resend', share: julien })
  assert.ok(actor.getSnapshot().matches({ ready: 'idle' }), 'an active member is not invited again')
  // Sent again: "Invitation envoyée."; the server sent nothing (a link left less than a minute ago): said so.
  actor.send({ type: 'invite.resend', share: cabinetAgain })
  await flush()
  const resent = invited(2, 'cabinet.durand@example.com', '2026-11-27T10:00:00.000Z')
  deferreds.settle('invite', { output: [resent] })
  await flush()
  assert.equal(notices.at(-1), { kind: 'success', message: 'Invitation envoyée.' })
  actor.send({ type: 'invite.resend', share: resent })
  await flush()
  deferreds.settle('invite', { output: [resent] })
  await flush()
  assert.equal(notices.at(-1), { kind: 'info', message: invitationJustSent('cabinet.durand@example.com') })
  assert.equal(
    actor.getSnapshot().context.shares.find((s) => s.id === resent.id),
    resent,
  )
})

Examples.run()
