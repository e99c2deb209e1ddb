// The flows are built on first use (src/wiring/later.ts): the dashboard pays only for the flows it shows.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createBillingFlows } from '../../src/wiring/billing.ts'
import { createCompanyFlows } from '../../src/wiring/company.ts'
import { createFirstScreenFlows } from '../../src/wiring/first-screen.ts'
import type { WiringDeps } from '../../src/wiring/deps.ts'
import { built, later } from '../../src/wiring/later.ts'
import { createMailFlows } from '../../src/wiring/mail.ts'
import { createNotificationFlows } from '../../src/wiring/notifications.ts'
import { createPeopleFlows } from '../../src/wiring/people.ts'
import { createSessionFlows } from '../../src/wiring/session.ts'

const Later = suite('flows built on first use')

Later('an entry marked later is built at its first read, once; the others are kept as they are', () => {
  let builds = 0
  const plain = () => 'plain'
  const flows = built({ machine: later(() => ({ id: ++builds })), plain })
  assert.is(builds, 0)
  assert.is(flows.plain, plain)
  const first = flows.machine
  assert.is(builds, 1)
  assert.is(flows.machine, first)
  assert.is(builds, 1)
  assert.equal(Object.keys(flows), ['machine', 'plain'])
})

Later('the real flows, area by area: every entry is there, each machine the same object at each read', () => {
  const never = () => {
    throw new Error('not called while building')
  }
  const deps: WiringDeps = {
    api: new Proxy({}, { get: never }) as never,
    notify: never,
    navigate: never,
    toPortal: never,
    toSession: never,
    loadHostedCard: never,
  }
  const areas = [
    createFirstScreenFlows,
    createSessionFlows,
    createMailFlows,
    createBillingFlows,
    createPeopleFlows,
    createCompanyFlows,
    createNotificationFlows,
  ].map((create) => built(create(deps)) as Record<string, unknown>)
  const keys = areas.flatMap((area) => Object.keys(area))
  assert.ok(keys.length > 30, `${keys.length} flows`)
  for (const key of ['problemReport', 'mailbox', 'letterDeadlines', 'notifications', 'unpaidInvoices']) {
    const area = areas.find((a) => key in a)!
    const machine = area[key] as { id?: string; provide?: unknown }
    assert.type(machine.provide, 'function', key)
    assert.is(area[key], machine, key)
  }
})

Later.run()
