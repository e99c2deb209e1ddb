import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { clientSearchMachine, normalQuery } from '../../../../src/backoffice/machines/operators/clientSearch.machine.ts'
import { boulangerie, searchPage } from '../../../util/backoffice-clients.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const first = searchPage([boulangerie], { total: 45 })
const second = searchPage([boulangerie], { total: 45, page: 2 })

function start() {
  const deferreds = new Deferreds()
  const machine = clientSearchMachine.provide({ actors: { search: deferreds.actor() } })
  return { actor: createActor(machine, { input: {} }), deferreds }
}

const events = [
  { type: 'xstate.done.actor.search', output: first },
  { type: 'xstate.done.actor.search', output: second },
  { type: 'xstate.error.actor.search', error: down },
  { type: 'search.retry' },
  { type: 'search.submit', query: '  Julien \u00a0Moreau ' },
  { type: 'search.page', page: 2 },
] as const

const ModelBased = suite('back office, clientSearch: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(clientSearchMachine, {
  events,
  input: {},
  serializeState: (s: any) => JSON.stringify([s.value, s.context.query, s.context.page, s.context.result?.page ?? null, s.context.error]),
})
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), ['failed', 'loaded', 'loading'])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string; query?: string; page?: number; output?: unknown })
    // Each search asks for what was typed, blanks folded, and a new search starts at page 1.
    const searched = steps.some((e) => e.type === 'search.submit')
    const lastSubmit = steps.findLastIndex((e) => e.type === 'search.submit')
    const lastPage = steps.findLastIndex((e) => e.type === 'search.page')
    assert.is(snapshot.context.query, searched ? 'Julien Moreau' : '')
    assert.is(snapshot.context.page, lastPage > lastSubmit ? 2 : 1)
    const asked = deferreds.started.at(-1)!.input as { query: string; page: number }
    assert.equal(asked, { query: snapshot.context.query, page: snapshot.context.page })
    // The results shown stay while the next ones load; a failure keeps them too and says why.
    const lastDone = steps.findLast((e) => e.type === 'xstate.done.actor.search')
    assert.equal(snapshot.context.result, lastDone?.output ?? null)
    assert.is(snapshot.context.error, snapshot.matches('failed') ? down.message : null)
    assert.is(snapshot.hasTag('loading'), snapshot.matches('loading'))
    actor.stop()
  })
}
ModelBased.run()

const Query = suite('back office, clientSearch: the query')
Query('blanks folded (no-break spaces too), the ends trimmed; an initial query from the address', () => {
  assert.is(normalQuery(' 823\u202f456  785 '), '823 456 785')
  const actor = createActor(clientSearchMachine.provide({ actors: { search: new Deferreds().actor() } }), {
    input: { query: ' Lilas ', page: 3 },
  }).start()
  assert.equal([actor.getSnapshot().context.query, actor.getSnapshot().context.page], ['Lilas', 3])
  actor.stop()
})
Query.run()
