// A statechart built on first use. `createMachine` builds the machine's whole state tree at once (every state node,
// transition and action), and each module of src/machines does it at its top level: loading the flows built all ~38
// in one task, on the way to a signed-in page's first paint, where the dashboard uses a few of them, and those few are
// built again, with their implementations, by `provide` (src/wiring/later.ts). Issue 13.

const deferredMachines = new WeakSet<object>()
let builds = 0

/**
 * `build()`'s machine, built the first time anything reads it (`provide`, `createActor`, the tests, xstate/graph, the
 * diagrams): a stand-in that forwards every operation to it, `instanceof` included, so that the modules still export
 * their machine and its type.
 */
export function deferred<T extends object>(build: () => T): T {
  let machine: T | undefined
  const built = (): T => {
    if (!machine) {
      machine = build()
      builds++
    }
    return machine
  }
  const stand = new Proxy({} as T, {
    get: (_, key) => Reflect.get(built(), key),
    set: (_, key, value) => Reflect.set(built(), key, value),
    has: (_, key) => Reflect.has(built(), key),
    ownKeys: () => Reflect.ownKeys(built()),
    // Reported configurable: the stand-in's own (empty) target has none of these properties.
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(built(), key)
      return descriptor && { ...descriptor, configurable: true }
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(built(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(built(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(built()),
  })
  deferredMachines.add(stand)
  return stand
}

/** Whether a module's machine is such a stand-in (test/machines/deferred.test.ts checks every one). */
export const isDeferred = (machine: object) => deferredMachines.has(machine)

/** How many deferred machines have been built so far in this page or process. */
export const deferredBuilds = () => builds
