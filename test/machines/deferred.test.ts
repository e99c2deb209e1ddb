// Statecharts built on first use (src/machines/deferred.ts): loading a machine's module builds nothing, and
// the stand-in is the machine for xstate (actors, provide, instanceof, xstate/graph) once something reads it.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor, createMachine, StateMachine } from 'xstate'
import { getShortestPaths } from 'xstate/graph'
import { deferred, deferredBuilds, isDeferred } from '../../src/machines/deferred.ts'

const Deferred = suite('deferred machines')

const toggle = () =>
  createMachine(
    {
      id: 'toggle',
      initial: 'off',
      context: { flips: 0 },
      states: {
        off: { on: { FLIP: { target: 'on', actions: 'count' } } },
        on: { on: { FLIP: { target: 'off', actions: 'count' } } },
      },
    },
    { actions: { count: () => {} } },
  )

Deferred('built once, on the first read, and then the machine itself for xstate', () => {
  let builds = 0
  const machine = deferred(() => {
    builds++
    return toggle()
  })
  assert.is(builds, 0, 'nothing built by deferred()')
  assert.ok(isDeferred(machine))
  assert.is(machine.id, 'toggle')
  assert.is(builds, 1)
  assert.ok(machine instanceof StateMachine)
  const actor = createActor(machine).start()
  actor.send({ type: 'FLIP' })
  assert.is(actor.getSnapshot().value, 'on')
  actor.stop()
  let counted = 0
  const provided = createActor(machine.provide({ actions: { count: () => void counted++ } })).start()
  provided.send({ type: 'FLIP' })
  provided.send({ type: 'FLIP' })
  assert.is(counted, 2)
  assert.is(getShortestPaths(machine, { events: [{ type: 'FLIP' }] }).length, 2)
  assert.ok('provide' in machine)
  assert.ok(Object.keys(machine).includes('root'))
  assert.is(builds, 1, 'built once')
})

Deferred(
  'every module of src/machines and src/backoffice/machines exports its machine deferred, and loading the modules builds none',
  async () => {
    const files = ['machines', 'backoffice/machines'].flatMap((dir) =>
      readdirSync(join(import.meta.dirname, '../../src', dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.machine.ts'))
        .map((file) => `${dir}/${file}`),
    )
    assert.ok(files.length >= 46, `${files.length} machine files`)
    for (const file of files) {
      const before = deferredBuilds()
      // A fresh instance of the module (the query), whose top level runs now.
      const module = (await import(`../../src/${file}?deferred-test`)) as Record<string, unknown>
      assert.is(deferredBuilds(), before, `${file} built a machine as it loaded`)
      const machines = Object.entries(module).filter(([name]) => name.endsWith('Machine'))
      assert.ok(machines.length >= 1, `${file} exports a machine`)
      for (const [name, machine] of machines) {
        assert.ok(isDeferred(machine as object), `${file}: ${name} is built as the module loads`)
        assert.ok(machine instanceof StateMachine, `${file}: ${name} is a machine once read`)
      }
    }
  },
)

Deferred.run()
