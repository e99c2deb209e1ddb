import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { formalitiesMachine, formalityMoved } from '../../../../src/backoffice/machines/company/formalities.machine.ts'
import type { Notice } from '../../../../src/machines/shared.ts'
import { submission } from '../../../util/backoffice-company.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const outdated = failure(409, 'La demande est à l’étape « En cours » : elle ne peut qu’avancer (« Déposée au greffe », « Terminée »).')
const received = submission(3)
const finished = submission(5, { status: 'Terminée', completedAt: '2026-11-19T09:00:00.000Z' })
const started = { ...received, status: 'En cours' as const, startedAt: '2026-11-20T10:00:00.000Z' }

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = formalitiesMachine.provide({
    actors: { load: deferreds.actor(), move: deferreds.actor() },
    actions: { notify: (_, notice) => void notices.push(notice) },
  })
  return { actor: createActor(machine), deferreds, notices }
}

const events = [
  { type: 'xstate.done.actor.load', output: [received, finished] },
  { type: 'xstate.error.actor.load', error: down },
  { type: 'list.retry' },
  { type: 'formality.advance', id: 3 },
  { type: 'formality.advance', id: 5 },
  { type: 'xstate.done.actor.move', output: started },
  { type: 'xstate.error.actor.move', error: outdated },
  { type: 'xstate.error.actor.move', error: down },
] as const

const ModelBased = suite('back office, Formalités juridiques: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(formalitiesMachine, {
  events,
  serializeState: (s: any) =>
    JSON.stringify([s.value, s.context.submissions?.map((x: { status: string }) => x.status), s.context.moving, s.context.moveError]),
})
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), ['failed', 'list', 'loading', 'moving'])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, notices } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const last = path.steps.at(-1)?.event as { type: string; error?: Error } | undefined
    // One step forward only, from the step shown; a finished one is never sent.
    const moves = deferreds.started.filter((x) => x.id === 'move').map((x) => x.input)
    assert.equal(
      moves,
      [
        { id: 3, to: 'En cours' },
        { id: 3, to: 'Déposée au greffe' },
      ].slice(0, moves.length),
    )
    if (last?.type === 'xstate.done.actor.move') {
      assert.equal(snapshot.context.submissions, [started, finished])
      assert.equal(notices, [{ kind: 'success', message: formalityMoved(started) }])
    }
    // Moved meanwhile by someone else: the list is read again, the reason kept for that card.
    if (last?.error === outdated)
      assert.equal([snapshot.value, snapshot.context.moveError], ['loading', { id: 3, message: outdated.message }])
    if (last?.type === 'xstate.error.actor.move' && last.error === down)
      assert.equal([snapshot.value, snapshot.context.moveError], ['list', { id: 3, message: down.message }])
    assert.is(snapshot.hasTag('busy'), snapshot.matches('moving'))
    actor.stop()
  })
}
ModelBased.run()

const Rules = suite('back office, Formalités juridiques: the message')
Rules('the operator is told the new step', () => {
  assert.is(formalityMoved(started), 'Changement de dirigeant de Studio Nuage SAS : étape « En cours » ; le client est prévenu.')
})
Rules.run()
