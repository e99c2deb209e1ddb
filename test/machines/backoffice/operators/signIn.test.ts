import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { OperatorSession } from '../../../../src/backoffice/machines/operators/operatorSession.machine.ts'
import { signInMachine, TICKET_EXPIRED_CODE } from '../../../../src/backoffice/machines/operators/signIn.machine.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

/** As the back office's client's errors: the server's French message, its status and code (0: not reached). */
const failure = (status: number, message: string, code?: string) => Object.assign(new Error(message), { status, code })
const badPassword = failure(401, 'Adresse e-mail ou mot de passe incorrect.', 'BAD_CREDENTIALS')
const tooMany = failure(429, 'Trop d’essais de mot de passe pour ce compte opérateur : réessayez dans 15 minutes.')
const offline = failure(0, 'Impossible de joindre le serveur. Vérifiez votre connexion internet puis réessayez.')
const badCode = failure(
  401,
  'Code incorrect : saisissez le code à 6 chiffres affiché par votre application d’authentification.',
  'BAD_CODE',
)
const replayed = failure(401, 'Ce code a déjà servi : attendez le suivant dans votre application d’authentification.', 'CODE_REPLAYED')
const expired = failure(
  401,
  'Votre connexion a expiré : saisissez à nouveau votre adresse e-mail et votre mot de passe.',
  TICKET_EXPIRED_CODE,
)
const keyRefused = failure(
  401,
  'La clé d’accès n’a pas pu être vérifiée. Recommencez, ou saisissez le code de votre application d’authentification.',
  'PASSKEY_REFUSED',
)
/** The browser's prompt cancelled: the wiring's French words, no status. */
const cancelled = new Error('La connexion avec une clé d’accès a été annulée. Vous pouvez aussi saisir le code de votre application.')
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')

const session: OperatorSession = {
  token: 'op_tok',
  operator: { id: 1, email: 'operateur@example.com', name: 'Inès Garnier', roles: ['admin'] },
}
const credentials = { email: 'operateur@example.com', password: 'Demo1234!' }

function start() {
  const deferreds = new Deferreds()
  const opened: OperatorSession[] = []
  const machine = signInMachine.provide({
    actors: { checkPassword: deferreds.actor(), checkCode: deferreds.actor(), checkPasskey: deferreds.actor() },
    actions: { signedIn: (_, { session }) => void opened.push(session) },
  })
  return { actor: createActor(machine), deferreds, opened }
}

const events = [
  { type: 'signIn.password', ...credentials },
  { type: 'xstate.done.actor.checkPassword', output: { ticket: 'tk_1', expiresAt: '2026-11-20T10:05:00.000Z' } },
  { type: 'xstate.error.actor.checkPassword', error: badPassword },
  { type: 'xstate.error.actor.checkPassword', error: tooMany },
  { type: 'xstate.error.actor.checkPassword', error: offline },
  { type: 'signIn.code', code: '123456' },
  { type: 'signIn.restart' },
  { type: 'xstate.done.actor.checkCode', output: session },
  { type: 'xstate.error.actor.checkCode', error: badCode },
  { type: 'xstate.error.actor.checkCode', error: replayed },
  { type: 'xstate.error.actor.checkCode', error: expired },
  { type: 'xstate.error.actor.checkCode', error: down },
  { type: 'signIn.passkey' },
  { type: 'xstate.done.actor.checkPasskey', output: session },
  { type: 'xstate.error.actor.checkPasskey', error: keyRefused },
  { type: 'xstate.error.actor.checkPasskey', error: cancelled },
  { type: 'xstate.error.actor.checkPasskey', error: expired },
  { type: 'xstate.error.actor.checkPasskey', error: down },
] as const
// A prompt cancelled is no refusal of the server's: the same step can be tried again as it is.
const serviceFailures: unknown[] = [tooMany, offline, down, cancelled]

const ModelBased = suite('back office, signIn: shortest paths covering every state and transition, replayed')
const serializeState = (s: any) => JSON.stringify([s.value, s.context])
const paths = shortestPaths(signInMachine, { events, serializeState })
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), [
    'checkingCode',
    'checkingPasskey',
    'checkingPassword',
    'code',
    'password',
    'signedIn',
  ])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, opened } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string; error?: Error })
    // The password goes from the event to the call, once per submit, and is never kept.
    const passwordSubmits = steps.filter((e) => e.type === 'signIn.password').length
    const started = (id: string) => deferreds.started.filter((s) => s.id === id)
    assert.is(started('checkPassword').length, passwordSubmits)
    assert.ok(started('checkPassword').every((s) => JSON.stringify(s.input) === JSON.stringify(credentials)))
    assert.not.match(JSON.stringify(snapshot.context), credentials.password)
    // Each code is sent with the ticket of the password step it follows.
    assert.is(started('checkCode').length, steps.filter((e) => e.type === 'signIn.code').length)
    assert.ok(started('checkCode').every((s) => JSON.stringify(s.input) === JSON.stringify({ ticket: 'tk_1', code: '123456' })))
    // Each passkey prompt is for the ticket of the password step it follows.
    assert.is(started('checkPasskey').length, steps.filter((e) => e.type === 'signIn.passkey').length)
    assert.ok(started('checkPasskey').every((s) => JSON.stringify(s.input) === JSON.stringify({ ticket: 'tk_1' })))
    // The session is handed on once, only when the code or the key opened it.
    assert.equal(opened, snapshot.matches('signedIn') ? [session] : [])
    assert.is(
      snapshot.hasTag('busy'),
      snapshot.matches('checkingPassword') || snapshot.matches('checkingCode') || snapshot.matches('checkingPasskey'),
    )
    // The server's French reason is shown after a failure, until the next try or the restart.
    const last = steps.at(-1)
    assert.is(snapshot.context.error, last?.error ? last.error.message : null)
    assert.is(snapshot.context.unavailable, !!last?.error && serviceFailures.includes(last.error))
    // A ticket that no longer opens the code step leads back to the password, which asks for a new one.
    if (last?.error === expired) assert.ok(snapshot.matches('password'))
    if (snapshot.matches('code') || snapshot.matches('checkingCode') || snapshot.matches('checkingPasskey'))
      assert.is(snapshot.context.ticket, 'tk_1')
    if (snapshot.matches('password')) assert.is(snapshot.context.ticket, null)
    if (passwordSubmits) assert.is(snapshot.context.email, credentials.email)
    actor.stop()
  })
}
ModelBased.run()

const Examples = suite('back office, signIn: examples')

Examples('a second submit while the password is checked is not sent', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'signIn.password', ...credentials })
  actor.send({ type: 'signIn.password', email: 'autre@example.com', password: 'x' })
  assert.is(deferreds.started.length, 1)
  assert.is(actor.getSnapshot().context.email, credentials.email)
})

Examples('a key refused or its prompt cancelled keeps the code step, where the code can still be typed', async () => {
  const { actor, deferreds, opened } = start()
  actor.start()
  actor.send({ type: 'signIn.password', ...credentials })
  deferreds.settle('checkPassword', { output: { ticket: 'tk_1', expiresAt: '2026-11-20T10:05:00.000Z' } })
  await new Promise((r) => setTimeout(r, 0))
  actor.send({ type: 'signIn.passkey' })
  assert.ok(actor.getSnapshot().matches('checkingPasskey'))
  deferreds.settle('checkPasskey', { error: cancelled })
  await new Promise((r) => setTimeout(r, 0))
  assert.ok(actor.getSnapshot().matches('code'))
  assert.is(actor.getSnapshot().context.error, cancelled.message)
  actor.send({ type: 'signIn.code', code: '123456' })
  deferreds.settle('checkCode', { output: session })
  await new Promise((r) => setTimeout(r, 0))
  assert.equal(opened, [session])
})

Examples.run()
