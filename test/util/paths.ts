// Model-based testing helpers: enumerate the shortest paths of a machine with xstate/graph (the
// done/error events of its invoked actors listed explicitly, the search bounded), keep those that
// add a state or a transition to what the paths kept visit (pathsToReplay), then replay each kept
// path on a real actor whose invoked actors are promises the test settles by hand.
import type { Test } from 'uvu'
import * as assert from 'uvu/assert'
import { type AnyActorLogic, type AnyActorRef, type AnyStateMachine, createActor, fromPromise, type SnapshotFrom } from 'xstate'
import { getAdjacencyMap, getShortestPaths, type StatePath } from 'xstate/graph'

/** Promise actors that wait until the test settles them, by invoke id. */
export class Deferreds {
  private pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void; input: unknown }[]>()
  /** Every start of a promise actor, in order: which id, with which input. */
  readonly started: { id: string; input: unknown }[] = []

  actor<T = unknown>() {
    return fromPromise<T, any>(({ input, self }) => {
      this.started.push({ id: self.id, input })
      return new Promise<T>((resolve, reject) => {
        const list = this.pending.get(self.id) ?? []
        list.push({ resolve: resolve as (v: unknown) => void, reject, input })
        this.pending.set(self.id, list)
      })
    })
  }

  /** Settles the newest pending call of this id: the one the running actor waits for. */
  settle(id: string, outcome: { output: unknown } | { error: unknown }) {
    const list = this.pending.get(id)
    const next = list?.pop()
    if (!next) throw new Error(`no pending call for the actor "${id}"`)
    if ('output' in outcome) next.resolve(outcome.output)
    else next.reject(outcome.error)
  }

  /** Settles a call that is no longer the newest (e.g. a stale answer). */
  settleAt(id: string, index: number, outcome: { output: unknown } | { error: unknown }) {
    const list = this.pending.get(id) ?? []
    const [call] = list.splice(index, 1)
    if (!call) throw new Error(`no pending call #${index} for the actor "${id}"`)
    if ('output' in outcome) call.resolve(outcome.output)
    else call.reject(outcome.error)
  }

  count(id: string) {
    return this.pending.get(id)?.length ?? 0
  }
}

/**
 * Lets settled promises reach the actor. A promise settled by hand reaches the actor through promise callbacks alone
 * (the promise actor's then, then the done or error event sent to its parent), all run before setImmediate's turn;
 * setTimeout(0) would wait a timer's millisecond at least, after every step of every path.
 */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve))

const DONE = 'xstate.done.actor.'
const ERROR = 'xstate.error.actor.'

/** Applies one graph step to a live actor: a done/error event settles the deferred, anything else is sent. */
export async function applyEvent(actor: AnyActorRef, deferreds: Deferreds, event: { type: string; output?: unknown; error?: unknown }) {
  if (event.type === 'xstate.init') return
  if (event.type.startsWith(DONE)) deferreds.settle(event.type.slice(DONE.length), { output: event.output })
  else if (event.type.startsWith(ERROR)) deferreds.settle(event.type.slice(ERROR.length), { error: event.error })
  else actor.send(event)
  await flush()
}

export type Path<M extends AnyActorLogic> = StatePath<SnapshotFrom<M>, any>

/** The ids of the actors the state nodes of a snapshot invoke. */
function runningActorIds(snapshot: any): Set<string> {
  return new Set((snapshot._nodes as { invoke: { id: string }[] }[]).flatMap((node) => node.invoke.map((i) => i.id)))
}

/** Every invoke id of a machine, in any state. */
function invokeIds(machine: any): Set<string> {
  const ids = new Set<string>()
  const walk = (node: any) => {
    for (const i of node.invoke) ids.add(i.id)
    for (const child of Object.values(node.states ?? {})) walk(child)
  }
  walk(machine.root)
  return ids
}

/**
 * A done or error event can only come from an actor that is running: an invoked one in that state,
 * or a spawned one (named in the machine's children).
 */
function onlyFromRunningActors(snapshot: any, event: { type: string }): boolean {
  const id = event.type.startsWith(DONE)
    ? event.type.slice(DONE.length)
    : event.type.startsWith(ERROR)
      ? event.type.slice(ERROR.length)
      : null
  if (id === null) return true
  if (invokeIds(snapshot.machine).has(id)) return runningActorIds(snapshot).has(id)
  const spawned = Object.values(snapshot.context ?? {}).some(
    (value: any) => value && typeof value === 'object' && value.id === id && typeof value.send === 'function',
  )
  return id in snapshot.children || spawned
}

/** Every shortest path of a machine, and a path through each transition they leave out; the search bounded so it cannot run away. */
export function shortestPaths<M extends AnyStateMachine>(
  machine: M,
  options: {
    events: readonly { type: string; [k: string]: unknown }[]
    input?: unknown
    limit?: number
    serializeState?: (s: SnapshotFrom<M>) => string
  },
): Path<M>[] {
  const traversal = {
    events: options.events as any,
    filterEvents: onlyFromRunningActors as any,
    input: options.input as any,
    limit: options.limit ?? 2000,
    serializeState:
      (options.serializeState as any) ?? ((s: any) => JSON.stringify({ value: s.value, context: s.context, status: s.status })),
  }
  const shortest = getShortestPaths(machine as AnyStateMachine, traversal) as Path<M>[]
  // Every transition too: the graph's edges that no shortest path takes (a transition into a state reached sooner
  // another way: a successful login, where an invitation reaches the same state in one step), each as the shortest
  // path to its source and that one step more. MODEL_TRANSITIONS=0: the shortest paths alone (to compare).
  if (process.env.MODEL_TRANSITIONS === '0') return shortest
  const covered = coverageOf(shortest).listed
  const toState = new Map(shortest.map((path) => [traversal.serializeState(path.state), path]))
  const extra: Path<M>[] = []
  for (const [source, { state, transitions }] of Object.entries(getAdjacencyMap(machine as AnyStateMachine, traversal))) {
    const to = toState.get(source)
    if (!to) continue
    for (const { event, state: next } of Object.values(transitions) as { event: any; state: any }[]) {
      // An event the state ignores (nothing of it changes) is no transition.
      if (traversal.serializeState(next) === source) continue
      const edge = listedTransition(state, event, next)
      if (covered.has(edge)) continue
      covered.add(edge)
      extra.push({ ...to, state: next, steps: [...to.steps, { event, state: next }], weight: to.steps.length + 1 } as Path<M>)
    }
  }
  return [...shortest, ...extra]
}

export function describePath(path: { steps: { event: { type: string } }[] }): string {
  return path.steps.map((s) => s.event.type.replace(DONE, 'done:').replace(ERROR, 'error:')).join(' → ') || '(initial)'
}

/** Replays a path on a live actor, checking after each step that it is where the graph said. */
export async function replay(actor: AnyActorRef, deferreds: Deferreds, path: { steps: { event: any; state: any }[] }): Promise<void> {
  actor.start()
  await flush()
  for (const [i, step] of path.steps.entries()) {
    await applyEvent(actor, deferreds, step.event)
    const snapshot = actor.getSnapshot()
    assert.equal(snapshot.value, step.state.value, `step ${i + 1} (${step.event.type}) of ${describePath(path)}`)
  }
}

/** A path as xstate/graph gives it: each step an event and the snapshot it led to, the first 'xstate.init'. */
type Walk = { steps: { event: { type: string }; state: any }[] }

/** An event as a suite lists it: its type with what it carries (an actor's output or error, what was typed). */
const listedEvent = (event: object) =>
  JSON.stringify(event, (_, value) => (value instanceof Error ? { ...value, message: value.message } : value))

/** A transition as source state, the event as listed, and target state (Coverage's `listed`). */
const listedTransition = (source: { value: unknown }, event: object, target: { value: unknown }) =>
  `${JSON.stringify(source.value)} ${listedEvent(event)} → ${JSON.stringify(target.value)}`

/**
 * What some paths visit: the state nodes, and the transitions as source state, event type and target state. The
 * transitions are also told apart by the event as listed: a suite lists an actor's outputs or errors, or a form's
 * values, one by one because the machine answers each its own way (a refusal or a failure of the service, an order
 * known or not), and each is to be replayed.
 */
class Coverage {
  readonly states = new Set<string>()
  readonly transitions = new Set<string>()
  readonly listed = new Set<string>()

  /** Adds what the path visits; true when it visits something not visited yet. */
  add(path: Walk): boolean {
    const before = this.states.size + this.transitions.size + this.listed.size
    for (const [i, { event, state }] of path.steps.entries()) {
      for (const node of state._nodes as { id: string; parent?: unknown }[]) if (node.parent) this.states.add(node.id)
      if (i === 0) continue
      const [source, target] = [JSON.stringify(path.steps[i - 1]!.state.value), JSON.stringify(state.value)]
      this.transitions.add(`${source} ${event.type} → ${target}`)
      this.listed.add(listedTransition(path.steps[i - 1]!.state, event, state))
    }
    return this.states.size + this.transitions.size + this.listed.size > before
  }
}

const coverageOf = (paths: readonly Walk[]) => {
  const coverage = new Coverage()
  for (const path of paths) coverage.add(path)
  return coverage
}

/** Per machine: how many shortest paths and how many replayed, and what each set visits. */
const coverageByMachine = new Map<
  string,
  { nodes: number; paths: number; replayed: number; all: Coverage; kept: Coverage; every: boolean }
>()

/**
 * The shortest paths worth replaying: longest first, each that visits a state node or a transition (with its event as
 * listed) that no path kept before it visits. A long path takes many transitions in one replay and ends after the
 * longest history, which is where the checks a suite makes at the end of a path find the most to check. `every` keeps
 * all the paths, for a suite whose checks are meant for every state the graph tells apart; so does MODEL_PATHS=all,
 * which gives the count before trimming. Adds to the suite a test that the paths replayed visit every state and
 * transition that all the shortest paths visit, so that no trimming loses any.
 */
export function pathsToReplay<P extends Walk>(paths: P[], test: Test, options: { every?: boolean } = {}): P[] {
  const covering = new Coverage()
  const kept = new Set([...paths].sort((a, b) => b.steps.length - a.steps.length).filter((path) => covering.add(path)))
  const replayed = options.every || process.env.MODEL_PATHS === 'all' ? paths : paths.filter((path) => kept.has(path))
  const all = coverageOf(paths)
  const visited = coverageOf(replayed)
  test(`the ${replayed.length} paths replayed visit every state and transition of the ${paths.length} shortest paths`, () => {
    assert.equal([...visited.states].sort(), [...all.states].sort(), 'states')
    assert.equal([...visited.transitions].sort(), [...all.transitions].sort(), 'transitions')
    assert.equal([...visited.listed].sort(), [...all.listed].sort(), 'transitions, each event as listed')
  })
  const machine = paths[0]?.steps[0]?.state.machine
  if (machine) {
    const entry = coverageByMachine.get(machine.id) ?? {
      nodes: stateNodeCount(machine.root),
      paths: 0,
      replayed: 0,
      all: new Coverage(),
      kept: new Coverage(),
      every: false,
    }
    entry.paths += paths.length
    entry.replayed += replayed.length
    for (const path of paths) entry.all.add(path)
    for (const path of replayed) entry.kept.add(path)
    entry.every ||= options.every === true
    coverageByMachine.set(machine.id, entry)
  }
  return replayed
}

/** The state nodes of a machine, its root left out. */
function stateNodeCount(node: any): number {
  return Object.values(node.states ?? {}).reduce((count: number, child) => count + 1 + stateNodeCount(child), 0)
}

/** Per machine, then in all: paths, states, transitions and those told apart by event, each as all → replayed. */
function coverageSummary(): string {
  const rows = [...coverageByMachine]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, e]) => ({
      name: `${id}${e.every ? ' (every path)' : ''}`,
      counts: [
        e.paths,
        e.replayed,
        e.all.states.size,
        e.kept.states.size,
        e.nodes,
        e.all.transitions.size,
        e.kept.transitions.size,
        e.all.listed.size,
        e.kept.listed.size,
      ],
    }))
  const total = rows.reduce((sum, row) => sum.map((n, i) => n + row.counts[i]!), [0, 0, 0, 0, 0, 0, 0, 0, 0])
  const cells = [
    ['machine', 'paths', 'states (in the machine)', 'transitions', 'each event as listed'],
    ...[...rows, { name: `total (${rows.length} machines)`, counts: total }].map(({ name, counts: [p, r, s, k, n, t, v, l, m] }) => [
      name,
      `${p} → ${r}`,
      `${s} → ${k} (${n})`,
      `${t} → ${v}`,
      `${l} → ${m}`,
    ]),
  ]
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)))
  return cells.map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('   ')).join('\n')
}

// Printed only when every test passed: only then did each path counted replay to its end.
process.on('exit', (code) => {
  if (code !== 0 || !coverageByMachine.size) return
  const replayed =
    process.env.MODEL_PATHS === 'all'
      ? 'every shortest path replayed (MODEL_PATHS=all)'
      : 'all the paths (the shortest, and one through each transition they leave out) → the paths replayed'
  process.stdout.write(`\nModel-based coverage, ${replayed}:\n${coverageSummary()}\n`)
})

export { createActor }
