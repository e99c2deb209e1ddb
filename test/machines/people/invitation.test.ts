import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { InvitationInfo } from '../../../server/contract/people.ts'
import { type Accepted, accountProblems, invitationMachine, PASSWORD_MISSING } from '../../../src/machines/people/invitation.machine.ts'
import { PASSWORD_TOO_COMMON } from '../../../src/machines/passwordRule.ts'
import * as F from '../../util/fixtures.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const forNina: InvitationInfo = {
  email: 'nina@example.com',
  raisonSociale: 'Boulangerie des Lilas SAS',
  invitedBy: 'Camille Martin',
  hasAccount: false,
}
const forJulien: InvitationInfo = { ...forNina, email: 'associe@example.com', hasAccount: true }
/** As src/api's errors: the server's French message and its status. */
const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const expired = failure(410, 'Cette invitation a expiré. Demandez à Camille Martin de vous inviter à nouveau.')
const down = failure(503, 'Le service est momentanément indisponible : veuillez réessayer dans quelques instants.')
const wrongPassword = new Error('Identifiants incorrects')
const good = 'une phrase de passe'

function start(signedInEmail: string | null) {
  const deferreds = new Deferreds()
  const entered: Accepted[] = []
  let signOuts = 0
  const machine = invitationMachine.provide({
    actors: {
      loadInvitation: deferreds.actor(),
      accept: deferreds.actor(),
      signInAndAccept: deferreds.actor(),
      createAccount: deferreds.actor(),
    },
    actions: { enterPortal: (_, accepted) => void entered.push(accepted), signOut: () => void signOuts++ },
  })
  return { actor: createActor(machine, { input: { token: 'jeton', signedInEmail } }), deferreds, entered, signOuts: () => signOuts }
}

const events = [
  { type: 'xstate.done.actor.loadInvitation', output: forNina },
  { type: 'xstate.done.actor.loadInvitation', output: forJulien },
  { type: 'xstate.error.actor.loadInvitation', error: expired },
  { type: 'xstate.error.actor.loadInvitation', error: down },
  { type: 'invitation.retry' },
  { type: 'invitation.accept' },
  { type: 'invitation.signOut' },
  { type: 'invitation.change', draft: { firstname: 'Nina', lastname: 'Roussel', password: 'azerty123456', confirmation: 'azerty123456' } },
  { type: 'invitation.change', draft: { password: good, confirmation: good } },
  { type: 'invitation.signIn' },
  { type: 'invitation.create' },
  { type: 'xstate.done.actor.accept', output: { orderId: 2 } },
  { type: 'xstate.error.actor.accept', error: expired },
  { type: 'xstate.done.actor.signInAndAccept', output: { user: F.authUser, orderId: 2 } },
  { type: 'xstate.error.actor.signInAndAccept', error: wrongPassword },
  { type: 'xstate.done.actor.createAccount', output: { user: F.authUser, orderId: 2 } },
  { type: 'xstate.error.actor.createAccount', error: expired },
] as const

const serializeState = (s: any) =>
  JSON.stringify([
    s.value,
    s.context.invitation?.email,
    s.context.signedInEmail,
    s.context.draft,
    Object.keys(s.context.problems),
    s.context.error,
  ])
const ModelBased = suite('invitation: shortest paths covering every state and transition, replayed')
for (const signedInEmail of [null, 'associe@example.com', 'demo@example.com']) {
  const paths = shortestPaths(invitationMachine, { events, input: { token: 'jeton', signedInEmail }, serializeState, limit: 20_000 })
  ModelBased(
    `signed in as ${signedInEmail ?? 'nobody'}: the model reaches acceptance, the expired link and the service unavailable`,
    () => {
      assert.ok(
        paths.some((p) => p.state.value === 'accepted'),
        'accepted',
      )
      assert.ok(
        paths.some((p) => p.state.value === 'refused' && p.state.context.error === expired.message),
        'expired',
      )
      assert.ok(
        paths.some((p) => p.state.value === 'unavailable' && p.state.context.error === down.message),
        'unavailable',
      )
    },
  )
  for (const path of pathsToReplay(paths, ModelBased)) {
    ModelBased(`${signedInEmail ?? 'nobody'}: ${describePath(path)}`, async () => {
      const { actor, deferreds, entered, signOuts } = start(signedInEmail)
      await replay(actor, deferreds, path)
      const snapshot = actor.getSnapshot()
      const invitation = path.steps.find((s) => s.event.type === 'xstate.done.actor.loadInvitation')?.event.output as
        | InvitationInfo
        | undefined
      for (const { id, input } of deferreds.started) {
        // Accepting as oneself only for the invited address; a new account only under the rule.
        if (id === 'accept') assert.is(snapshot.context.signedInEmail, invitation!.email)
        if (id === 'createAccount') {
          assert.equal(input, { token: 'jeton', firstname: 'Nina', lastname: 'Roussel', password: good })
          assert.not.ok(invitation!.hasAccount)
        }
        if (id === 'signInAndAccept')
          assert.equal(input, { token: 'jeton', email: 'associe@example.com', password: (input as { password: string }).password })
      }
      // A link refused (410, 404) is never read again; the service unavailable, on request only.
      const retries = path.steps.filter(
        (s, i) => s.event.type === 'invitation.retry' && i > 0 && path.steps[i - 1]!.state.matches('unavailable'),
      ).length
      assert.is(deferreds.started.filter((s) => s.id === 'loadInvitation').length, 1 + retries)
      const lastLoadError = path.steps.findLast((s) => s.event.type === 'xstate.error.actor.loadInvitation')?.event as
        | { error?: Error }
        | undefined
      if (snapshot.matches('refused')) assert.is(lastLoadError?.error, expired)
      if (snapshot.matches('unavailable')) assert.is(lastLoadError?.error, down)
      // Into the portal exactly once, and only when the server agreed.
      assert.is(entered.length, snapshot.matches('accepted') ? 1 : 0)
      if (entered[0]) assert.is(entered[0].orderId, 2)
      // Signed in as someone else: nothing is accepted before signing out.
      if (signedInEmail && invitation && signedInEmail !== invitation.email && deferreds.started.some((s) => s.id !== 'loadInvitation'))
        assert.ok(signOuts() > 0)
      actor.stop()
    })
  }
}
ModelBased.run()

const Examples = suite('invitation: examples')

Examples('the service unavailable while reading the link: « Réessayer » reads it again, and the invitation shows', async () => {
  const { actor, deferreds } = start(null)
  actor.start()
  deferreds.settle('loadInvitation', { error: down })
  await flush()
  assert.equal([actor.getSnapshot().value, actor.getSnapshot().context.error], ['unavailable', down.message])
  actor.send({ type: 'invitation.retry' })
  assert.equal([actor.getSnapshot().value, actor.getSnapshot().context.error], ['loading', null])
  deferreds.settle('loadInvitation', { output: forNina })
  await flush()
  assert.is(actor.getSnapshot().value, 'accountForm')
})

Examples('a new address: first name, last name and a password under the rule, then into the portal on the order', async () => {
  const { actor, deferreds, entered } = start(null)
  actor.start()
  deferreds.settle('loadInvitation', { output: forNina })
  await flush()
  assert.ok(actor.getSnapshot().matches('accountForm'))
  actor.send({ type: 'invitation.create' })
  assert.equal(Object.keys(actor.getSnapshot().context.problems), ['firstname', 'lastname', 'password'])
  actor.send({
    type: 'invitation.change',
    draft: { firstname: 'Nina', lastname: 'Roussel', password: 'azerty123456', confirmation: 'azerty123456' },
  })
  actor.send({ type: 'invitation.create' })
  assert.equal(actor.getSnapshot().context.problems, { password: PASSWORD_TOO_COMMON })
  actor.send({ type: 'invitation.change', draft: { password: good, confirmation: good } })
  actor.send({ type: 'invitation.create' })
  await flush()
  deferreds.settle('createAccount', { output: { user: F.authUser, orderId: 2 } })
  await flush()
  assert.equal(entered, [{ user: F.authUser, orderId: 2 }])
})

Examples('an existing account not signed in: its password, then accepted; a wrong password keeps the form', async () => {
  const { actor, deferreds, entered } = start(null)
  actor.start()
  deferreds.settle('loadInvitation', { output: forJulien })
  await flush()
  actor.send({ type: 'invitation.signIn' })
  assert.equal(actor.getSnapshot().context.problems, { password: PASSWORD_MISSING })
  actor.send({ type: 'invitation.change', draft: { password: 'faux' } })
  actor.send({ type: 'invitation.signIn' })
  await flush()
  deferreds.settle('signInAndAccept', { error: wrongPassword })
  await flush()
  assert.equal([actor.getSnapshot().value, actor.getSnapshot().context.error], ['signInForm', wrongPassword.message])
  actor.send({ type: 'invitation.change', draft: { password: 'Demo1234!' } })
  actor.send({ type: 'invitation.signIn' })
  await flush()
  deferreds.settle('signInAndAccept', { output: { user: F.authUser, orderId: 2 } })
  await flush()
  assert.equal(entered, [{ user: F.authUser, orderId: 2 }])
})

Examples('signed in as the invited account: "Accepter", then into the portal as is', async () => {
  const { actor, deferreds, entered } = start('ASSOCIE@example.com')
  actor.start()
  deferreds.settle('loadInvitation', { output: forJulien })
  await flush()
  assert.ok(actor.getSnapshot().matches('confirming'))
  actor.send({ type: 'invitation.accept' })
  await flush()
  deferreds.settle('accept', { output: { orderId: 2 } })
  await flush()
  assert.equal(entered, [{ user: null, orderId: 2 }])
})

Examples('rule: the same fields as on every password screen', () => {
  assert.equal(accountProblems({ firstname: 'A', lastname: 'B', password: good, confirmation: good }), {})
})

Examples.run()
