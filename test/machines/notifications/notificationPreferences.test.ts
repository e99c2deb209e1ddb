// notifications: one order's e-mail choice, and a letter's history: the shortest paths covering every state
// and transition.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { letterHistoryMachine } from '../../../src/machines/mail/letterHistory.machine.ts'
import {
  notificationPreferencesMachine,
  PREFERENCE_SAVE_FAILED,
  PREFERENCE_SAVED,
} from '../../../src/machines/notifications/notificationPreferences.machine.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const failure = new Error('')

const Preferences = suite('notificationPreferences: shortest paths covering every state and transition, replayed')
const prefEvents = [
  { type: 'xstate.done.actor.loadPreference', output: { email: 'each' } },
  { type: 'xstate.error.actor.loadPreference', error: failure },
  { type: 'preference.retry' },
  { type: 'preference.choose', email: 'digest' },
  { type: 'preference.choose', email: 'each' },
  { type: 'xstate.done.actor.savePreference', output: { email: 'digest' } },
  { type: 'xstate.error.actor.savePreference', error: failure },
] as const
for (const path of pathsToReplay(
  shortestPaths(notificationPreferencesMachine, { events: prefEvents, input: { orderId: 2 } }),
  Preferences,
)) {
  Preferences(describePath(path), async () => {
    const deferreds = new Deferreds()
    const actor = createActor(
      notificationPreferencesMachine.provide({ actors: { loadPreference: deferreds.actor(), savePreference: deferreds.actor() } }),
      { input: { orderId: 2 } },
    )
    await replay(actor, deferreds, path)
    const { context } = actor.getSnapshot()
    // Outside a save, what is shown is what the server has; a choice equal to it is never sent.
    if (!actor.getSnapshot().matches('saving')) assert.is(context.email, context.saved)
    for (const s of deferreds.started.filter((x) => x.id === 'savePreference')) assert.equal((s.input as { orderId: number }).orderId, 2)
    const last = path.steps.at(-1)?.event.type ?? ''
    if (last === 'xstate.error.actor.savePreference') assert.is(context.error, PREFERENCE_SAVE_FAILED)
    if (last === 'xstate.done.actor.savePreference') assert.is(context.message, PREFERENCE_SAVED)
    actor.stop()
  })
}
Preferences.run()

const History = suite('letterHistory: shortest paths covering every state and transition, replayed')
const events = [
  {
    type: 'xstate.done.actor.loadHistory',
    output: { events: [{ kind: 'received', at: '2026-11-20T08:00:00.000Z', actor: null, detail: null }] },
  },
  { type: 'xstate.error.actor.loadHistory', error: failure },
  { type: 'history.retry' },
  { type: 'history.reload' },
] as const
for (const path of pathsToReplay(shortestPaths(letterHistoryMachine, { events, input: { documentId: 7 } }), History)) {
  History(describePath(path), async () => {
    const deferreds = new Deferreds()
    const actor = createActor(letterHistoryMachine.provide({ actors: { loadHistory: deferreds.actor() } }), { input: { documentId: 7 } })
    await replay(actor, deferreds, path)
    for (const s of deferreds.started) assert.equal(s.input, { documentId: 7 })
    assert.is(actor.getSnapshot().context.error !== null, actor.getSnapshot().matches('failed'))
    actor.stop()
  })
}
History.run()
