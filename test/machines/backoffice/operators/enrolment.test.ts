import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { type Enrolment, enrolmentMachine } from '../../../../src/backoffice/machines/operators/enrolment.machine.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string, code?: string) => Object.assign(new Error(message), { status, code })
const usedLink = failure(404, 'Ce lien d’inscription est invalide, a déjà servi ou a expiré : demandez-en un nouveau à un administrateur.')
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const badCode = failure(
  400,
  'Code incorrect : vérifiez que l’application d’authentification a bien enregistré la clé, puis saisissez le code affiché.',
  'BAD_CODE',
)
const weak = failure(400, 'Ce mot de passe est trop courant : choisissez-en un autre.')

const enrolment: Enrolment = {
  email: 'lea@example.com',
  name: 'Léa Fontaine',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauthUri: 'otpauth://totp/Domicilium:lea%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Domicilium',
  expiresAt: '2026-11-27T10:00:00.000Z',
}
const chosen = { password: 'trois mots au hasard', code: '123456' }

function start() {
  const deferreds = new Deferreds()
  return {
    actor: createActor(enrolmentMachine.provide({ actors: { load: deferreds.actor(), enrol: deferreds.actor() } }), {
      input: { token: 'tok_1' },
    }),
    deferreds,
  }
}

const events = [
  { type: 'xstate.done.actor.load', output: enrolment },
  { type: 'xstate.error.actor.load', error: usedLink },
  { type: 'xstate.error.actor.load', error: down },
  { type: 'enrolment.retry' },
  { type: 'enrolment.submit', ...chosen },
  { type: 'xstate.done.actor.enrol', output: { message: 'Votre compte opérateur est prêt.' } },
  { type: 'xstate.error.actor.enrol', error: badCode },
  { type: 'xstate.error.actor.enrol', error: weak },
  { type: 'xstate.error.actor.enrol', error: usedLink },
  { type: 'xstate.error.actor.enrol', error: down },
] as const

const ModelBased = suite('back office, enrolment: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(enrolmentMachine, {
  events,
  input: { token: 'tok_1' },
  serializeState: (s: any) => JSON.stringify([s.value, s.context]),
})
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), [
    'enrolled',
    'failed',
    'loading',
    'ready',
    'refused',
    'submitting',
  ])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string; error?: Error })
    const last = steps.at(-1)
    // The link is read once per try, then the password and code sent with it, once per submit; the password is not kept.
    assert.ok(deferreds.started.filter((s) => s.id === 'load').every((s) => JSON.stringify(s.input) === '{"token":"tok_1"}'))
    const sends = deferreds.started.filter((s) => s.id === 'enrol')
    assert.is(sends.length, steps.filter((e) => e.type === 'enrolment.submit').length)
    assert.ok(sends.every((s) => JSON.stringify(s.input) === JSON.stringify({ token: 'tok_1', ...chosen })))
    assert.not.match(JSON.stringify(snapshot.context), chosen.password)
    // What the page shows: the secret while the link holds, never once it is refused.
    if (snapshot.matches('ready') || snapshot.matches('submitting')) assert.equal(snapshot.context.enrolment, enrolment)
    if (snapshot.matches('refused')) assert.is(snapshot.context.enrolment, null)
    assert.is(snapshot.context.error, last?.error ? last.error.message : null)
    assert.is(snapshot.context.done, snapshot.matches('enrolled') ? 'Votre compte opérateur est prêt.' : null)
    assert.is(snapshot.hasTag('loading'), snapshot.matches('loading'))
    assert.is(snapshot.hasTag('busy'), snapshot.matches('submitting'))
    actor.stop()
  })
}
ModelBased.run()
