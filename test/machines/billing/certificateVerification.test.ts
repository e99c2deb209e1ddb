import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { certificateVerificationMachine } from '../../../src/machines/billing/certificateVerification.machine.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const valid = { status: 'valid', raisonSociale: 'Boulangerie des Lilas SAS', issuedAt: '2026-11-23T10:00:00.000Z' }
const status = (n: number, message: string) => Object.assign(new Error(message), { status: n })

function start() {
  const deferreds = new Deferreds()
  const machine = certificateVerificationMachine.provide({ actors: { verify: deferreds.actor() } })
  return { actor: createActor(machine, { input: { code: 'K7QM-2XPA-9D4F' } }), deferreds }
}

const events = [
  { type: 'verification.retry' },
  { type: 'xstate.done.actor.verify', output: valid },
  { type: 'xstate.done.actor.verify', output: { status: 'revoked' } },
  { type: 'xstate.error.actor.verify', error: status(404, 'Aucune attestation ne correspond à ce code.') },
  { type: 'xstate.error.actor.verify', error: status(429, 'Trop de tentatives : veuillez patienter une minute avant de réessayer.') },
] as const

const ModelBased = suite('certificateVerification: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(certificateVerificationMachine, { events, input: { code: 'K7QM-2XPA-9D4F' } })
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), ['checking', 'failed', 'revoked', 'unknown', 'valid'])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds } = start()
    await replay(actor, deferreds, path)
    // The company shows only for a valid certificate.
    const snapshot = actor.getSnapshot()
    assert.is(snapshot.context.valid !== null, snapshot.matches('valid'))
    for (const { input } of deferreds.started) assert.equal(input, { code: 'K7QM-2XPA-9D4F' })
    actor.stop()
  })
}
ModelBased.run()

const Verification = suite('certificateVerification: examples')

Verification('a malformed code is unknown too', async () => {
  const { actor, deferreds } = start()
  actor.start()
  await flush()
  deferreds.settle('verify', { error: status(400, 'Le champ « code » n’a pas le format attendu.') })
  await flush()
  assert.ok(actor.getSnapshot().matches('unknown'))
})

Verification.run()
