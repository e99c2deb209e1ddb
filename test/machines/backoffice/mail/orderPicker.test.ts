import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { MailRoomOrder } from '../../../../server/contract/mail-backoffice.ts'
import { orderPickerMachine, TYPING_PAUSE_MS } from '../../../../src/backoffice/machines/mail/orderPicker.machine.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const lilas: MailRoomOrder = {
  id: 12,
  raisonSociale: 'Boulangerie des Lilas SAS',
  siren: '823 456 785',
  ownerName: 'Camille Martin',
  terminationDate: null,
  terminated: false,
}

function start() {
  const deferreds = new Deferreds()
  return { actor: createActor(orderPickerMachine.provide({ actors: { search: deferreds.actor() } })), deferreds }
}

const events = [
  { type: 'xstate.done.actor.search', output: [lilas] },
  { type: 'xstate.error.actor.search', error: down },
  { type: 'picker.retry' },
  { type: 'picker.search', query: ' lilas  ' },
  { type: 'xstate.after.pause.orderPicker.typing' },
] as const

const ModelBased = suite('back office, orderPicker: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(orderPickerMachine, { events, serializeState: (s: any) => JSON.stringify([s.value, s.context]) })
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), ['failed', 'loading', 'shown', 'typing'])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string })
    // Asked with what was typed, blanks folded; the first ones by name before anything is typed.
    const typed = steps.some((e) => e.type === 'picker.search')
    assert.is(snapshot.context.query, typed ? 'lilas' : '')
    // (A retry asks again what was asked last: nothing typed yet, the first ones by name.)
    const asked = steps.filter(
      (e) => e.type === 'xstate.init' || e.type === 'picker.retry' || e.type === 'xstate.after.pause.orderPicker.typing',
    )
    const typedBefore = (i: number) => steps.slice(0, steps.indexOf(asked[i]!)).some((e) => e.type === 'picker.search')
    for (const [i, s] of deferreds.started.entries()) assert.equal(s.input, { query: typedBefore(i) ? 'lilas' : '' })
    assert.is(snapshot.context.error, snapshot.matches('failed') ? down.message : null)
    actor.stop()
  })
}
ModelBased.run()

const Typing = suite('back office, orderPicker: a search asked once the typing pauses')
Typing('three keys in a row: one search, for the last text', async () => {
  const { actor, deferreds } = start()
  actor.start()
  deferreds.settle('search', { output: [] })
  await flush()
  for (const query of ['l', 'li', 'lil']) actor.send({ type: 'picker.search', query })
  await new Promise((resolve) => setTimeout(resolve, TYPING_PAUSE_MS + 50))
  assert.equal(
    deferreds.started.map((s) => s.input),
    [{ query: '' }, { query: 'lil' }],
  )
  actor.stop()
})
Typing.run()
