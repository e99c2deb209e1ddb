import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { Contract } from '../../../server/contract/session.ts'
import {
  ADDRESS_CITY_MISSING,
  ADDRESS_POSTCODE_FRENCH,
  ADDRESS_SAVED,
  ADDRESS_STREET_MISSING,
  addressProblems,
  forwardingAddressMachine,
} from '../../../src/machines/billing/forwardingAddress.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import * as F from '../../util/fixtures.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const contract: Contract = {
  ...F.contracts[1]!,
  adressePostaleExpedition: '27 rue des Lilas',
  codePostaleExpedition: '75019',
  villePostaleExpedition: 'Paris',
  paysPostaleExpedition: 'France',
}
const lyon = { adressePostaleExpedition: '3 place du Marché', codePostaleExpedition: '69002', villePostaleExpedition: 'Lyon' }
const saved: Contract = { ...contract, ...lyon }

function start() {
  const deferreds = new Deferreds()
  const changed: Contract[] = []
  const notices: Notice[] = []
  const machine = forwardingAddressMachine.provide({
    actors: { saveAddress: deferreds.actor() },
    actions: { contractChanged: (_, { contract: c }) => void changed.push(c), notify: (_, n) => void notices.push(n) },
  })
  return { actor: createActor(machine, { input: { contract } }), deferreds, changed, notices }
}

const events = [
  { type: 'address.edit' },
  { type: 'address.change', draft: lyon },
  { type: 'address.change', draft: { codePostaleExpedition: '6900' } },
  { type: 'address.submit' },
  { type: 'address.cancel' },
  { type: 'xstate.done.actor.saveAddress', output: saved },
  {
    type: 'xstate.error.actor.saveAddress',
    error: new Error('Votre adresse de réexpédition n’a pas été enregistrée : vérifiez-la puis réessayez.'),
  },
] as const

const ModelBased = suite('forwardingAddress: shortest paths covering every state and transition, replayed')
for (const path of pathsToReplay(shortestPaths(forwardingAddressMachine, { events, input: { contract } }), ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, changed } = start()
    await replay(actor, deferreds, path)
    // Only a valid address is sent (a French postcode of five digits); the page shows what the server saved.
    for (const { input } of deferreds.started) {
      const { address } = input as { address: { codePostaleExpedition: string } }
      assert.match(address.codePostaleExpedition, /^\d{5}$/)
    }
    const steps = path.steps.map((s) => s.event.type)
    assert.equal(changed, steps.includes('xstate.done.actor.saveAddress') ? [saved] : [])
    if (actor.getSnapshot().matches('viewing')) assert.equal(actor.getSnapshot().context.contract, changed.at(-1) ?? contract)
    actor.stop()
  })
}
ModelBased.run()

const Address = suite('forwardingAddress: examples')

Address('the rules: street, postcode (5 digits in France), city, country', () => {
  const draft = {
    adressePostaleExpedition: ' ',
    adresseComplementPostaleExpedition: '',
    codePostaleExpedition: '750',
    villePostaleExpedition: '',
    paysPostaleExpedition: 'france',
  }
  assert.equal(addressProblems(draft), {
    adressePostaleExpedition: ADDRESS_STREET_MISSING,
    codePostaleExpedition: ADDRESS_POSTCODE_FRENCH,
    villePostaleExpedition: ADDRESS_CITY_MISSING,
  })
  assert.equal(
    addressProblems({
      ...draft,
      adressePostaleExpedition: 'Rue de la Loi 16',
      codePostaleExpedition: '1000',
      villePostaleExpedition: 'Bruxelles',
      paysPostaleExpedition: 'Belgique',
    }),
    {},
  )
})

Address('saved: the five fields sent, the saved address shown and told to the portal', async () => {
  const { actor, deferreds, changed, notices } = start()
  actor.start()
  actor.send({ type: 'address.edit' })
  actor.send({ type: 'address.change', draft: { ...lyon, adresseComplementPostaleExpedition: '  ' } })
  actor.send({ type: 'address.submit' })
  await flush()
  assert.equal(deferreds.started[0]!.input, {
    contractId: contract.id,
    address: { ...lyon, adresseComplementPostaleExpedition: null, paysPostaleExpedition: 'France' },
  })
  deferreds.settle('saveAddress', { output: saved })
  await flush()
  assert.equal(actor.getSnapshot().context.contract, saved)
  assert.equal(changed, [saved])
  assert.equal(notices, [{ kind: 'success', message: ADDRESS_SAVED }])
})

Address('invalid: the field says why, nothing is sent; a failed save keeps what was typed', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'address.edit' })
  actor.send({ type: 'address.change', draft: { codePostaleExpedition: '6900' } })
  actor.send({ type: 'address.submit' })
  assert.equal(actor.getSnapshot().context.fieldErrors, { codePostaleExpedition: ADDRESS_POSTCODE_FRENCH })
  assert.equal(deferreds.started, [])
  actor.send({ type: 'address.change', draft: { codePostaleExpedition: '69002' } })
  actor.send({ type: 'address.submit' })
  await flush()
  deferreds.settle('saveAddress', { error: new Error('Le service est momentanément indisponible.') })
  await flush()
  assert.ok(actor.getSnapshot().matches('editing'))
  assert.is(actor.getSnapshot().context.draft.codePostaleExpedition, '69002')
  assert.is(actor.getSnapshot().context.error, 'Le service est momentanément indisponible.')
})

Address.run()
