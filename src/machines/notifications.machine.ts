// The bell (issue 14): the notifications of the user's orders, unread first, kept live by the
// server's stream; opening one marks it read and goes to its link; "Tout marquer comme lu". The stream
// is followed from the newest notification listed (its Last-Event-ID), so what arrived between the
// list and the stream is sent first. A stream that drops is followed again after a growing pause, the
// list read again first (what came meanwhile, and what was read elsewhere).
import { assign, fromCallback, fromPromise, setup } from 'xstate'
import type { NotificationList, PortalNotification } from '../../server/contract/schemas.ts'
import { messageOf } from './shared.ts'
import { deferred } from './deferred.ts'

export const LOAD_FAILED = 'Vos notifications n’ont pas pu être chargées.'
export const READ_FAILED = 'La notification n’a pas pu être marquée comme lue. Réessayez.'
export const READ_ALL_FAILED = 'Les notifications n’ont pas pu être marquées comme lues. Réessayez.'

/** The pause before following the stream again: 1 s, 2 s, 4 s… up to 30 s (the wiring spreads each at random: spreadDelay). */
export const reconnectDelay = (attempt: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1))

export interface NotificationsContext {
  notifications: PortalNotification[]
  unread: number
  /** The list could not be read (with "Réessayer"). */
  error: string | null
  /** A read mark could not be saved. */
  actionError: string | null
  /** Drops of the stream in a row (for the pause). */
  attempt: number
  /** The notification whose read mark is being saved. */
  marking: number | null
}

export type NotificationsEvent =
  | { type: 'notification.open'; id: number }
  | { type: 'notification.readAll' }
  | { type: 'list.retry' }
  /** From the stream actor. */
  | { type: 'live.open' }
  | { type: 'live.notification'; notification: PortalNotification }
  | { type: 'live.lost' }

const MAX = 50

/** Unread first, newest first (as the server lists them). */
const sorted = (list: PortalNotification[]) => [...list].sort((a, b) => Number(a.read) - Number(b.read) || b.createdAt.localeCompare(a.createdAt) || b.id - a.id)

/** The newest notification known: the stream starts after it. */
export const lastIdOf = (list: PortalNotification[]) => list.reduce((max, n) => Math.max(max, n.id), 0)

const withNew = (list: PortalNotification[], n: PortalNotification) => sorted([n, ...list.filter((o) => o.id !== n.id)]).slice(0, MAX)

export const notificationsMachine = deferred(() => setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent,
  },
  actors: {
    loadNotifications: fromPromise<NotificationList>(async () => {
      throw new Error('notifications: loadNotifications is not provided')
    }),
    markRead: fromPromise<{ unread: number }, { id: number }>(async () => {
      throw new Error('notifications: markRead is not provided')
    }),
    markAllRead: fromPromise<{ unread: number }>(async () => {
      throw new Error('notifications: markAllRead is not provided')
    }),
    /** Follows the live stream from after the given notification: sends live.open, live.notification…, and live.lost when it ends or breaks. */
    stream: fromCallback<NotificationsEvent, { after: number }>(() => {
      throw new Error('notifications: stream is not provided')
    }),
    /** The pause before following again (a timer in the wiring). */
    pause: fromPromise<void, { ms: number }>(async () => {
      throw new Error('notifications: pause is not provided')
    }),
  },
  actions: {
    /** Goes to the notification's page (the wiring navigates). */
    navigate: (_, _params: { link: string }) => {},
    /**
     * Something new arrived: live, or found by the list read again after the stream dropped. The portal reads
     * the lists they belong to again (so their links find them). A notification already listed is no news.
     */
    arrived: (_, _params: { notifications: PortalNotification[] }) => {},
  },
  guards: {
    isListed: ({ context, event }) => event.type === 'live.notification' && context.notifications.some((n) => n.id === event.notification.id),
    isUnread: ({ context, event }) => event.type === 'notification.open' && context.notifications.some((n) => n.id === event.id && !n.read),
    isKnown: ({ context, event }) => event.type === 'notification.open' && context.notifications.some((n) => n.id === event.id),
  },
}).createMachine({
  id: 'notifications',
  context: { notifications: [], unread: 0, error: null, actionError: null, attempt: 0, marking: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadNotifications',
        src: 'loadNotifications',
        onDone: { target: 'ready', actions: assign({ notifications: ({ event }) => event.output.notifications, unread: ({ event }) => event.output.unread, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error, LOAD_FAILED) }) },
      },
    },
    failed: {
      on: { 'list.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
    ready: {
      type: 'parallel',
      on: {
        // Sent twice (read back and live), or sent again: listed once, counted once, told once.
        'live.notification': [
          { guard: 'isListed', actions: assign({ notifications: ({ context, event }) => withNew(context.notifications, event.notification) }) },
          {
            actions: [
              assign({
                notifications: ({ context, event }) => withNew(context.notifications, event.notification),
                unread: ({ context, event }) => context.unread + (event.notification.read ? 0 : 1),
              }),
              { type: 'arrived', params: ({ event }) => ({ notifications: [event.notification] }) },
            ],
          },
        ],
      },
      states: {
        live: {
          initial: 'following',
          states: {
            following: {
              invoke: { id: 'stream', src: 'stream', input: ({ context }) => ({ after: lastIdOf(context.notifications) }) },
              on: {
                'live.open': { actions: assign({ attempt: 0 }) },
                'live.lost': { target: 'waiting', actions: assign({ attempt: ({ context }) => context.attempt + 1 }) },
              },
            },
            waiting: {
              invoke: {
                id: 'pause',
                src: 'pause',
                input: ({ context }) => ({ ms: reconnectDelay(context.attempt) }),
                onDone: 'catchingUp',
                onError: 'catchingUp',
              },
            },
            // What arrived while the stream was down: the list read again, then followed again.
            catchingUp: {
              invoke: {
                id: 'reloadNotifications',
                src: 'loadNotifications',
                onDone: {
                  target: 'following',
                  actions: [
                    // What the list holds that the bell did not: it came while the stream was down (told before the list is replaced).
                    { type: 'arrived', params: ({ context, event }) => ({ notifications: event.output.notifications.filter((n) => !context.notifications.some((o) => o.id === n.id)) }) },
                    assign({ notifications: ({ event }) => event.output.notifications, unread: ({ event }) => event.output.unread }),
                  ],
                },
                onError: { target: 'waiting', actions: assign({ attempt: ({ context }) => context.attempt + 1 }) },
              },
            },
          },
        },
        marks: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'notification.open': [
                  {
                    guard: 'isUnread',
                    target: 'marking',
                    actions: [
                      assign(({ context, event }) => ({
                        notifications: context.notifications.map((n) => (n.id === event.id ? { ...n, read: true } : n)),
                        unread: Math.max(0, context.unread - 1),
                        actionError: null,
                        marking: event.id,
                      })),
                      { type: 'navigate', params: ({ context, event }) => ({ link: context.notifications.find((n) => n.id === event.id)!.link }) },
                    ],
                  },
                  { guard: 'isKnown', actions: { type: 'navigate', params: ({ context, event }) => ({ link: context.notifications.find((n) => n.id === event.id)!.link }) } },
                ],
                'notification.readAll': { target: 'markingAll', actions: assign({ actionError: null }) },
              },
            },
            marking: {
              invoke: {
                id: 'markRead',
                src: 'markRead',
                input: ({ context }) => ({ id: context.marking! }),
                onDone: { target: 'idle', actions: assign({ unread: ({ event }) => event.output.unread, marking: null }) },
                onError: {
                  target: 'idle',
                  // Put back: the notification is still unread on the server.
                  actions: assign(({ context, event }) => ({
                    notifications: sorted(context.notifications.map((n) => (n.id === context.marking ? { ...n, read: false } : n))),
                    // A list read again meanwhile may already show it unread.
                    unread: context.unread + (context.notifications.some((n) => n.id === context.marking && n.read) ? 1 : 0),
                    actionError: messageOf(event.error, READ_FAILED),
                    marking: null,
                  })),
                },
              },
              on: {
                'notification.open': { guard: 'isKnown', actions: { type: 'navigate', params: ({ context, event }) => ({ link: context.notifications.find((n) => n.id === event.id)!.link }) } },
              },
            },
            markingAll: {
              invoke: {
                id: 'markAllRead',
                src: 'markAllRead',
                onDone: { target: 'idle', actions: assign({ notifications: ({ context }) => context.notifications.map((n) => ({ ...n, read: true })), unread: ({ event }) => event.output.unread }) },
                onError: { target: 'idle', actions: assign({ actionError: ({ event }) => messageOf(event.error, READ_ALL_FAILED) }) },
              },
            },
          },
        },
      },
    },
  },
}))
