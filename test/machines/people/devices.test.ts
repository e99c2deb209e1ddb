import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { Session } from '../../../server/contract/people.ts'
import { devicesMachine } from '../../../src/machines/people/devices.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const here: Session = {
  id: 1,
  device: 'Chrome sur Linux',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastUsedAt: '2026-11-22T10:00:00.000Z',
  current: true,
}
const phone: Session = {
  id: 2,
  device: 'Safari sur iOS',
  createdAt: '2026-11-02T10:00:00.000Z',
  lastUsedAt: '2026-11-21T10:00:00.000Z',
  current: false,
}
const offline = new Error('Impossible de joindre le serveur.')

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = devicesMachine.provide({
    actors: { loadSessions: deferreds.actor(), signOutOthers: deferreds.actor() },
    actions: { notify: (_, n) => void notices.push(n) },
  })
  return { actor: createActor(machine), deferreds, notices }
}

const events = [
  { type: 'xstate.done.actor.loadSessions', output: [here, phone] },
  { type: 'xstate.error.actor.loadSessions', error: offline },
  { type: 'devices.retry' },
  { type: 'devices.signOutOthers' },
  { type: 'xstate.done.actor.signOutOthers', output: { signedOut: 1, message: 'L’autre appareil a été déconnecté.' } },
  { type: 'xstate.error.actor.signOutOthers', error: offline },
] as const

const ModelBased = suite('devices: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(devicesMachine, { events })
ModelBased('the model signs the other devices out', () => {
  assert.ok(paths.some((p) => p.state.value === 'ready' && p.state.context.sessions.length === 1))
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, notices } = start()
    await replay(actor, deferreds, path)
    const { context } = actor.getSnapshot()
    // This device always stays; the others go only once the server signed them out.
    if (context.sessions.length) assert.ok(context.sessions.some((s) => s.current))
    const out = path.steps.some((s) => s.event.type === 'xstate.done.actor.signOutOthers')
    assert.is(
      context.sessions.some((s) => !s.current),
      !out && context.sessions.length > 0,
    )
    assert.is(notices.length, out ? 1 : 0)
    actor.stop()
  })
}
ModelBased.run()
