// Model-based testing helpers: enumerate the shortest paths of a machine with xstate/graph (the
// done/error events of its invoked actors listed explicitly, the search bounded), then replay each
// path on a real actor whose invoked actors are promises the test settles by hand.
import * as assert from 'uvu/assert'
import { type AnyActorLogic, type AnyActorRef, type AnyStateMachine, createActor, fromPromise, type SnapshotFrom } from 'xstate'
import { getShortestPaths, type StatePath } from 'xstate/graph'

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

/** Lets settled promises reach the actor. */
export const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

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
  const id = event.type.startsWith(DONE) ? event.type.slice(DONE.length) : event.type.startsWith(ERROR) ? event.type.slice(ERROR.length) : null
  if (id === null) return true
  if (invokeIds(snapshot.machine).has(id)) return runningActorIds(snapshot).has(id)
  const spawned = Object.values(snapshot.context ?? {}).some((value: any) => value && typeof value === 'object' && value.id === id && typeof value.send === 'function')
  return id in snapshot.children || spawned
}

/** Every shortest path of a machine, the search bounded so it cannot run away. */
export function shortestPaths<M extends AnyStateMachine>(
  machine: M,
  options: { events: readonly { type: string; [k: string]: unknown }[]; input?: unknown; limit?: number; serializeState?: (s: SnapshotFrom<M>) => string },
): Path<M>[] {
  return getShortestPaths(machine as AnyStateMachine, {
    events: options.events as any,
    filterEvents: onlyFromRunningActors as any,
    input: options.input as any,
    limit: options.limit ?? 2000,
    serializeState: (options.serializeState as any) ?? ((s: any) => JSON.stringify({ value: s.value, context: s.context, status: s.status })),
  }) as Path<M>[]
}

export function describePath(path: { steps: { event: { type: string } }[] }): string {
  return path.steps.map((s) => s.event.type.replace(DONE, 'done:').replace(ERROR, 'error:')).join(' → ') || '(initial)'
}

/** Replays a path on a live actor, checking after each step that it is where the graph said. */
export async function replay(
  actor: AnyActorRef,
  deferreds: Deferreds,
  path: { steps: { event: any; state: any }[] },
): Promise<void> {
  actor.start()
  await flush()
  for (const [i, step] of path.steps.entries()) {
    await applyEvent(actor, deferreds, step.event)
    const snapshot = actor.getSnapshot()
    assert.equal(snapshot.value, step.state.value, `step ${i + 1} (${step.event.type}) of ${describePath(path)}`)
  }
}

export { createActor }
