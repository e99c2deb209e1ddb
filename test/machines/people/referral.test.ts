import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { REFERRAL_INVALID, referralMachine } from '../../../src/machines/people/referral.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const limited = new Error('Vous avez déjà envoyé plusieurs recommandations : réessayez dans une heure.')

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = referralMachine.provide({
    actors: { sendReferral: deferreds.actor() },
    actions: { notify: (_, n) => void notices.push(n) },
  })
  return { actor: createActor(machine), deferreds, notices }
}

const events = [
  { type: 'referral.change', email: 'ami' },
  { type: 'referral.change', email: ' ami@example.com ' },
  { type: 'referral.submit' },
  { type: 'xstate.done.actor.sendReferral', output: { message: 'Votre recommandation a été envoyée à ami@example.com.' } },
  { type: 'xstate.error.actor.sendReferral', error: limited },
] as const

const ModelBased = suite('referral: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(referralMachine, { events })
ModelBased('the model reaches the refusal of an invalid address and of the limit', () => {
  assert.ok(paths.some((p) => p.state.context.error === REFERRAL_INVALID))
  assert.ok(paths.some((p) => p.state.context.error === limited.message && p.state.context.email === ' ami@example.com '))
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, notices } = start()
    await replay(actor, deferreds, path)
    for (const { input } of deferreds.started) assert.equal(input, { email: 'ami@example.com' })
    assert.is(notices.length, path.steps.filter((s) => s.event.type === 'xstate.done.actor.sendReferral').length)
    actor.stop()
  })
}
ModelBased.run()
