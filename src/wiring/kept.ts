// Work a page starts that must outlive the page: an accounting export sends its batches one after the other, and the
// customer who goes to another page meanwhile expects it to go on and to hear how it ended. Such an actor is kept here
// for the signed-in person (the session actor and its user's token) instead of living and dying with the page: the
// page takes the kept one when it mounts (its progress, or its result not seen yet), and when it ends while no page
// shows it, `endedUnseen` tells the customer (a toast). A sign-out, an expired session, or another person signing in
// stops it: their batches are not sent, and nobody else ever sees it. Imported by the pages that use it only (their
// own chunk), never by the flows.
import { type ActorRefFrom, type AnyActorLogic, type AnyActorRef, createActor, type InputFrom, type SnapshotFrom } from 'xstate'
import type { SessionRef } from '../machines/session/session.machine.ts'

export interface KeptLogic<L extends AnyActorLogic> {
  logic: L
  /** The actor is at work: it is kept when its page goes. */
  running: (snapshot: SnapshotFrom<L>) => boolean
  /** It stopped working while no page showed it: tell the customer how it ended; its result waits for the page. */
  endedUnseen: (snapshot: SnapshotFrom<L>) => void
}

interface Slot {
  actor: AnyActorRef
  /** The token of the person it works for. */
  token: string | null
  /** How many mounted pages show it. */
  pages: number
  /** At work (`running`), as of its last snapshot. */
  working: boolean
  /** Left by its last page, neither working nor with an unseen result: the next page starts a fresh one. */
  over: boolean
}

export interface Keeper {
  /** The actor kept under `key` for the person signed in now, or a new one started with `input`. */
  take: <L extends AnyActorLogic>(key: string, kept: KeptLogic<L>, input: InputFrom<L>) => ActorRefFrom<L>
  /** A page shows `actor` from now on; call the returned function when it goes. */
  attach: (key: string, actor: AnyActorRef) => () => void
}

const tokenOf = (session: SessionRef) => session.getSnapshot().context.user?.apiToken ?? null

function createKeeper(session: SessionRef): Keeper {
  const slots = new Map<string, Slot>()
  const drop = (key: string) => {
    slots.get(key)?.actor.stop()
    slots.delete(key)
  }
  // Whoever is signed in now: what worked for someone else stops (a sign-out, an expiry, another person).
  session.subscribe({
    next: () => {
      const token = tokenOf(session)
      for (const [key, slot] of slots) if (slot.token !== token) drop(key)
    },
    complete: () => [...slots.keys()].forEach(drop),
  })
  return {
    take: (key, { logic, running, endedUnseen }, input) => {
      const token = tokenOf(session)
      const kept = slots.get(key)
      if (kept && !kept.over && kept.token === token) return kept.actor as ActorRefFrom<typeof logic>
      drop(key)
      const slot: Slot = { actor: createActor(logic, { input }), token, pages: 0, working: false, over: false }
      slot.actor.subscribe((snapshot) => {
        const working = running(snapshot)
        if (slot.working && !working && slot.pages === 0) endedUnseen(snapshot)
        slot.working = working
      })
      slots.set(key, slot)
      slot.actor.start()
      return slot.actor as ActorRefFrom<typeof logic>
    },
    attach: (key, actor) => {
      const slot = slots.get(key)
      if (slot?.actor !== actor) return () => {}
      slot.pages++
      slot.over = false
      return () => {
        slot.pages--
        // Its result was on screen, or nothing was sent: coming back starts afresh, as on any page. (Stopped when the
        // next one is taken, not now: the same page may mount again at once, as React's StrictMode does.)
        if (slot.pages === 0 && !slot.working) slot.over = true
      }
    },
  }
}

const keepers = new WeakMap<SessionRef, Keeper>()

/** The keeper of this session (one per session actor: a test's app, a browser tab). */
export function keeperOf(session: SessionRef): Keeper {
  let keeper = keepers.get(session)
  if (!keeper) keepers.set(session, (keeper = createKeeper(session)))
  return keeper
}
