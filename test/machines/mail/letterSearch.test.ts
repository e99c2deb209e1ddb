import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { DocumentSearchResult } from '../../../server/contract/mail.ts'
import { isRemoteQuery, letterSearchMachine, SEARCH_FAILED } from '../../../src/machines/mail/letterSearch.machine.ts'
import { letter } from '../../util/fixtures.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const found = (id: number, word: string): DocumentSearchResult => ({
  document: letter(id),
  rank: 0.5,
  excerpt: [
    { text: 'Avis de ', match: false },
    { text: word, match: true },
  ],
})
const loyer = [found(12, 'loyer')]
const failure = new Error('La recherche dans vos courriers n’a pas abouti.')

function start(orderId: number | null = 2) {
  const deferreds = new Deferreds()
  const machine = letterSearchMachine.provide({ actors: { pause: deferreds.actor(), searchLetters: deferreds.actor() } })
  return { actor: createActor(machine, { input: { orderId } }), deferreds }
}

const searches = (deferreds: Deferreds) =>
  deferreds.started.filter((s) => s.id === 'searchLetters').map((s) => s.input as { q: string; orderId: number | null })

const events = [
  { type: 'query.change', query: 'lo' },
  { type: 'query.change', query: 'loyer' },
  { type: 'query.change', query: ' loyer ' },
  { type: 'query.change', query: 'impôts' },
  { type: 'query.change', query: '' },
  { type: 'order.change', orderId: 3 },
  { type: 'search.retry' },
  { type: 'xstate.done.actor.pause' },
  { type: 'xstate.done.actor.searchLetters', output: loyer },
  { type: 'xstate.done.actor.searchLetters', output: [] },
  { type: 'xstate.error.actor.searchLetters', error: failure },
] as const

const ModelBased = suite('letterSearch: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(letterSearchMachine, { events, input: { orderId: 2 } })
ModelBased('the model reaches every state', () => {
  const reached = new Set(paths.map((p) => String(p.state.value)))
  for (const state of ['local', 'waiting', 'searching', 'found', 'failed']) assert.ok(reached.has(state), state)
  assert.ok(paths.length > 20, `${paths.length} paths`)
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const { query, results, answered, error, orderId } = snapshot.context
    // The server is asked only with three characters at least, for the order shown, after a pause, a retry or an order switch.
    for (const search of searches(deferreds)) {
      assert.ok(isRemoteQuery(search.q) && search.q === search.q.trim(), search.q)
      assert.ok(search.orderId === 2 || search.orderId === 3)
    }
    const triggers = path.steps.filter((s) => ['xstate.done.actor.pause', 'search.retry', 'order.change'].includes(s.event.type)).length
    assert.ok(searches(deferreds).length <= triggers, 'no search without a pause, a retry or an order switch')
    // Under three characters: the local filter, nothing from the server.
    assert.is(snapshot.hasTag('remote'), isRemoteQuery(query))
    if (snapshot.matches('local')) assert.equal([results, answered, error], [[], null, null])
    // Results shown answer the query typed, never an older one.
    if (snapshot.matches('found')) assert.is(answered, query)
    if (snapshot.matches('failed')) assert.equal([error, results], [SEARCH_FAILED, []])
    assert.is(orderId, path.steps.some((s) => s.event.type === 'order.change') ? 3 : 2)
    actor.stop()
  })
}
ModelBased.run()

const Search = suite('letterSearch: examples')

Search('typing while a search is under way drops its answer', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'query.change', query: 'loy' })
  await flush()
  deferreds.settle('pause', { output: undefined })
  await flush()
  assert.ok(actor.getSnapshot().matches('searching'))
  actor.send({ type: 'query.change', query: 'loyer' })
  await flush()
  assert.ok(actor.getSnapshot().matches('waiting'))
  // The answer to "loy" comes late: it is ignored.
  deferreds.settleAt('searchLetters', 0, { output: [found(99, 'loy')] })
  await flush()
  assert.ok(actor.getSnapshot().matches('waiting'))
  assert.equal(actor.getSnapshot().context.results, [])
  deferreds.settle('pause', { output: undefined })
  await flush()
  deferreds.settle('searchLetters', { output: loyer })
  await flush()
  assert.ok(actor.getSnapshot().matches('found'))
  assert.equal(actor.getSnapshot().context.results, loyer)
  assert.equal(searches(deferreds), [
    { q: 'loy', orderId: 2 },
    { q: 'loyer', orderId: 2 },
  ])
})

Search('each key restarts the pause: one search for a word typed quickly', async () => {
  const { actor, deferreds } = start(null)
  actor.start()
  for (const query of ['l', 'lo', 'loy', 'loye', 'loyer']) {
    actor.send({ type: 'query.change', query })
    await flush()
  }
  assert.is(deferreds.started.filter((s) => s.id === 'pause').length, 3, 'a pause from three characters, restarted by each key')
  deferreds.settle('pause', { output: undefined })
  await flush()
  assert.equal(searches(deferreds), [{ q: 'loyer', orderId: null }])
})

Search('a failure says so; Réessayer asks again for the same words', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'query.change', query: 'impôts' })
  await flush()
  deferreds.settle('pause', { output: undefined })
  await flush()
  deferreds.settle('searchLetters', { error: new Error('Le serveur ne répond pas.') })
  await flush()
  assert.ok(actor.getSnapshot().matches('failed'))
  assert.is(
    actor.getSnapshot().context.error,
    'La recherche dans vos courriers n’a pas abouti. Le serveur ne répond pas.',
    'what failed, then why',
  )
  actor.send({ type: 'search.retry' })
  await flush()
  assert.equal(searches(deferreds), [
    { q: 'impôts', orderId: 2 },
    { q: 'impôts', orderId: 2 },
  ])
  deferreds.settle('searchLetters', { output: [] })
  await flush()
  assert.ok(actor.getSnapshot().matches('found'))
  assert.is(actor.getSnapshot().context.error, null)
})

/** Started, "loyer" typed, the pause over and its results in. */
async function foundLoyer() {
  const started = start()
  started.actor.start()
  started.actor.send({ type: 'query.change', query: 'loyer' })
  await flush()
  started.deferreds.settle('pause', { output: undefined })
  await flush()
  started.deferreds.settle('searchLetters', { output: loyer })
  await flush()
  return started
}

Search('back under three characters: the local filter, the results gone', async () => {
  const { actor } = await foundLoyer()
  actor.send({ type: 'query.change', query: 'lo' })
  await flush()
  assert.ok(actor.getSnapshot().matches('local'))
  assert.equal(actor.getSnapshot().context.results, [])
})

Search('another order searches again at once, without a pause', async () => {
  const { actor, deferreds } = await foundLoyer()
  actor.send({ type: 'order.change', orderId: null })
  await flush()
  assert.ok(actor.getSnapshot().matches('searching'))
  assert.equal(searches(deferreds).at(-1), { q: 'loyer', orderId: null })
  assert.equal(actor.getSnapshot().context.results, [], 'the other order’s results are not shown meanwhile')
})

Search.run()
