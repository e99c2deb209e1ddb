import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import {
  TERMINATION_MESSAGES,
  terminationProblem,
  terminationsMachine,
} from '../../../../src/backoffice/machines/billing/terminations.machine.ts'
import type { Notice } from '../../../../src/machines/shared.ts'
import { acceptedTermination, termination } from '../../../util/backoffice-terminations.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const TODAY = '2026-11-21'
const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const message = 'Bonjour, pouvez-vous nous dire où réexpédier le courrier après la fin ?'
const contacted = termination(3, { conversationId: 77 })

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const opened: (number | null)[] = []
  const machine = terminationsMachine.provide({
    actors: { load: deferreds.actor(), send: deferreds.actor() },
    actions: {
      notify: (_, notice) => void notices.push(notice),
      openConversation: (_, { conversationId }) => void opened.push(conversationId),
    },
  })
  return { actor: createActor(machine, { input: { today: TODAY } }), deferreds, notices, opened }
}

const events = [
  { type: 'xstate.done.actor.load', output: [termination(3), acceptedTermination(4, '2026-12-15')] },
  { type: 'xstate.error.actor.load', error: down },
  { type: 'list.retry' },
  { type: 'termination.open', id: 3, kind: 'accept' },
  { type: 'termination.open', id: 3, kind: 'contact' },
  { type: 'termination.open', id: 4, kind: 'accept' },
  { type: 'termination.cancel' },
  { type: 'termination.send', action: { kind: 'accept', endDate: '2026-12-31' } },
  { type: 'termination.send', action: { kind: 'accept', endDate: '2026-11-01' } },
  { type: 'termination.send', action: { kind: 'contact', message } },
  { type: 'termination.send', action: { kind: 'contact', message: '  ' } },
  { type: 'xstate.done.actor.send', output: acceptedTermination(3, '2026-12-31') },
  { type: 'xstate.done.actor.send', output: contacted },
  { type: 'xstate.error.actor.send', error: down },
] as const

const Rules = suite('back office, Résiliations: the form’s rules, the server’s words')
Rules('an end date: a day, not past, not beyond two years (or the customer’s later day)', () => {
  const request = termination(3)
  assert.is(terminationProblem({ kind: 'accept', endDate: '' }, request, TODAY), TERMINATION_MESSAGES.endDate)
  assert.is(terminationProblem({ kind: 'accept', endDate: '2026-02-30' }, request, TODAY), TERMINATION_MESSAGES.endDate)
  assert.is(terminationProblem({ kind: 'accept', endDate: '2026-11-20' }, request, TODAY), TERMINATION_MESSAGES.pastEndDate)
  assert.is(terminationProblem({ kind: 'accept', endDate: TODAY }, request, TODAY), null)
  assert.is(terminationProblem({ kind: 'accept', endDate: '2028-11-21' }, request, TODAY), null)
  assert.is(
    terminationProblem({ kind: 'accept', endDate: '2028-11-22' }, request, TODAY),
    'La date de fin ne peut pas dépasser le 21 novembre 2028.',
  )
  assert.is(terminationProblem({ kind: 'contact', message: ' \n' }, request, TODAY), TERMINATION_MESSAGES.message)
})
Rules.run()

const ModelBased = suite('back office, Résiliations: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(terminationsMachine, {
  events,
  input: { today: TODAY },
  serializeState: (s: any) =>
    JSON.stringify([
      s.value,
      s.context.terminations?.map((t: any) => [t.state, t.conversationId]) ?? null,
      s.context.open,
      s.context.problem,
      s.context.sendError,
      s.context.action?.kind ?? null,
    ]),
})
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), ['failed', 'form', 'list', 'loading', 'sending'])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, notices, opened } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const last = path.steps.at(-1)?.event as { type: string; error?: Error } | undefined
    const sent = deferreds.started.filter((x) => x.id === 'send').at(-1)?.input as { action: { kind: string } } | undefined
    // Only a valid form is sent, and only for a request still open to it: an accepted one is never accepted again.
    for (const s of deferreds.started.filter((x) => x.id === 'send')) {
      const { id, action } = s.input as { id: number; action: { kind: string; endDate?: string; message?: string } }
      assert.is(id, 3)
      assert.ok(action.kind === 'accept' ? action.endDate === '2026-12-31' : action.message === message, JSON.stringify(action))
    }
    if (snapshot.matches('form')) assert.is(snapshot.context.open!.id, 3)
    // Contacted: the conversation opened is where the operator goes; accepted: the card says the end date.
    if (last?.type === 'xstate.done.actor.send') {
      assert.is(snapshot.value, 'list')
      if (sent!.action.kind === 'contact') {
        assert.is(opened.length, 1)
        assert.is(notices.at(-1)!.message, 'Message envoyé à Résiliation 3 SARL : la conversation est ouverte dans Messages.')
      } else {
        assert.equal(opened, [])
        assert.is(notices.at(-1)!.message, 'Résiliation de Résiliation 3 SARL acceptée : la domiciliation prend fin le 31 décembre 2026.')
      }
    }
    // Refused: the form stays as typed, the reason shown.
    if (last?.type === 'xstate.error.actor.send')
      assert.equal([snapshot.value, snapshot.context.sendError, snapshot.context.action !== null], ['form', down.message, true])
    assert.is(snapshot.hasTag('busy'), snapshot.matches('sending'))
    actor.stop()
  })
}
ModelBased.run()
