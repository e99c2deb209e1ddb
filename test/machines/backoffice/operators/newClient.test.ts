import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { NewClient } from '../../../../server/contract/operators.ts'
import { SIREN_INVALID } from '../../../../server/contract/rules/company.ts'
import {
  checkNewClient,
  FIELD_MESSAGES,
  fieldOfRefusal,
  newClientBody,
  newClientMachine,
  type NewClientValues,
} from '../../../../src/backoffice/machines/operators/newClient.machine.ts'
import { created } from '../../../util/backoffice-clients.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string, code?: string) => Object.assign(new Error(message), { status, code })
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const taken = failure(
  409,
  'Une domiciliation existe déjà pour ce SIREN : Boulangerie des Lilas (commande n° 12). Ouvrez sa fiche plutôt que d’en créer une autre.',
  'CONFLICT',
)
const tooLate = failure(400, 'La date de début ne peut pas être à plus d’un an.', 'START_DATE')

const values: NewClientValues = {
  raisonSociale: ' Verger Nouveau ',
  siren: '732 829 320',
  legalForm: 'SAS',
  firstname: 'Alice',
  lastname: 'Durand',
  email: 'alice@example.com ',
  plan: 'domiciliation-mensuelle',
  options: ['reexpedition'],
  startDate: '2026-12-01',
  domiciliationAddress: '',
}
const wrongKey: NewClientValues = { ...values, siren: '732 829 321', legalForm: '' }

function start() {
  const deferreds = new Deferreds()
  const opened: NewClient[] = []
  const machine = newClientMachine.provide({
    actors: { create: deferreds.actor() },
    actions: { created: (_, { client }) => void opened.push(client) },
  })
  return { actor: createActor(machine), deferreds, opened }
}

const events = [
  { type: 'client.submit', values },
  { type: 'client.submit', values: wrongKey },
  { type: 'xstate.done.actor.create', output: created },
  { type: 'xstate.error.actor.create', error: taken },
  { type: 'xstate.error.actor.create', error: tooLate },
  { type: 'xstate.error.actor.create', error: down },
] as const

const ModelBased = suite('back office, newClient: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(newClientMachine, { events, serializeState: (s: any) => JSON.stringify([s.value, s.context]) })
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), ['created', 'editing', 'sending'])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, opened } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string; values?: NewClientValues; error?: Error })
    const last = steps.at(-1)
    // Only a complete form is sent, trimmed, once per press.
    assert.is(deferreds.started.length, steps.filter((e) => e.type === 'client.submit' && e.values === values).length)
    assert.ok(deferreds.started.every((s) => JSON.stringify(s.input) === JSON.stringify(newClientBody(values))))
    // What was typed last is kept, whatever happened.
    if (steps.some((e) => e.type === 'client.submit')) assert.equal(snapshot.context.values, steps.findLast((e) => e.values)!.values)
    if (last?.values === wrongKey) assert.equal(snapshot.context.fieldErrors, { siren: SIREN_INVALID, legalForm: FIELD_MESSAGES.legalForm })
    if (last?.error === taken) assert.equal([snapshot.context.fieldErrors, snapshot.context.error], [{ siren: taken.message }, null])
    if (last?.error === tooLate)
      assert.equal([snapshot.context.fieldErrors, snapshot.context.error], [{ startDate: tooLate.message }, null])
    if (last?.error === down) assert.equal([snapshot.context.fieldErrors, snapshot.context.error], [{}, down.message])
    assert.equal(opened, snapshot.matches('created') ? [created] : [])
    assert.is(snapshot.hasTag('busy'), snapshot.matches('sending'))
    actor.stop()
  })
}
ModelBased.run()

const Rules = suite('back office, newClient: the form’s rules')
Rules('the SIREN’s Luhn key checked here as on the server; every field said', () => {
  assert.equal(checkNewClient(values), {})
  assert.equal(checkNewClient({ ...values, siren: '000 000 000' }), { siren: SIREN_INVALID })
  assert.equal(Object.keys(checkNewClient({ ...values, raisonSociale: ' ', firstname: '', lastname: '', email: 'x@', startDate: '' })), [
    'raisonSociale',
    'firstname',
    'lastname',
    'email',
    'startDate',
  ])
})
Rules('the body: trimmed, an empty address left out, one given kept', () => {
  assert.equal(newClientBody(values), {
    raisonSociale: 'Verger Nouveau',
    siren: '732 829 320',
    legalForm: 'SAS',
    owner: { firstname: 'Alice', lastname: 'Durand', email: 'alice@example.com' },
    plan: 'domiciliation-mensuelle',
    options: ['reexpedition'],
    startDate: '2026-12-01',
  })
  assert.is(newClientBody({ ...values, domiciliationAddress: ' 5 rue Neuve ' }).domiciliationAddress, '5 rue Neuve')
})
Rules('a refusal of the server: at the field it names, else above the form', () => {
  assert.is(fieldOfRefusal(failure(400, SIREN_INVALID, 'SIREN_INVALID')), 'siren')
  assert.is(fieldOfRefusal(taken), 'siren')
  assert.is(fieldOfRefusal(tooLate), 'startDate')
  assert.is(fieldOfRefusal(failure(400, 'Indiquez l’adresse de domiciliation…', 'NO_ADDRESS')), 'domiciliationAddress')
  assert.is(
    fieldOfRefusal(failure(409, 'Un compte vient d’être créé avec cette adresse e-mail au même moment : réessayez.', 'CONFLICT')),
    'email',
  )
  assert.is(fieldOfRefusal(failure(400, 'Le champ « owner.lastname » ne peut pas être vide.', 'VALIDATION')), 'lastname')
  assert.is(fieldOfRefusal(failure(400, 'Le champ « plan » doit valoir …', 'VALIDATION')), null)
  assert.is(fieldOfRefusal(down), null)
})
Rules.run()
