// The bell: the notifications of the user's orders, unread first, kept live by the
// server's stream; opening one marks it read and goes to its link; "Tout marquer comme lu". The stream
// is followed from the newest notification listed (its Last-Event-ID), so what arrived between the
// list and the stream is sent first. A stream that drops is followed again after a growing pause, the
// list read again first (what came meanwhile, and what was read elsewhere); a first list that cannot be
// read is asked again after the same pause. A stream whose place a newer one took (a few per account, on
// every tab and device) waits until its page is looked at again, then does the same: had it come back after
// the pause, it would take the oldest's place in turn, and the tabs would push each other out in a loop.
// Read marks asked while another is saved are saved after it.
import { assign, fromCallback, fromPromise, setup } from 'xstate'
import type { NotificationList, PortalNotification } from '../../../server/contract/notifications.ts'
import { failureOf } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const LOAD_FAILED = 'Vos notifications n’ont pas pu être chargées.'
export const READ_FAILED = 'La notification n’a pas pu être marquée comme lue.'
export const READ_ALL_FAILED = 'Les notifications n’ont pas pu être marquées comme lues.'

/**
 * The pause before following the stream again, or reading a first list that failed again: 1 s, 2 s, 4 s… up to 30 s (the wiring spreads
 * each at random: spreadDelay).
 */
export const reconnectDelay = (attempt: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1))

export interface NotificationsContext {
  notifications: PortalNotification[]
  unread: number
  /** The list could not be read (with "Réessayer"). */
  error: string | null
  /** A read mark could not be saved. */
  actionError: string | null
  /** Drops of the stream, or failed first lists, in a row (for the pause). */
  attempt: number
  /** The notifications opened whose read mark is still to be saved, in the order opened: the first is being saved. */
  pendingMarks: number[]
  /** "Tout marquer comme lu" asked while a read mark was saved: saved once the marks opened before it are. */
  readAllAsked: boolean
}

export type NotificationsEvent =
  | { type: 'notification.open'; id: number }
  | { type: 'notification.readAll' }
  | { type: 'list.retry' }
  /** From the stream actor. */
  | { type: 'live.open' }
  | { type: 'live.notification'; notification: PortalNotification }
  | { type: 'live.lost' }
  /** The server ended the stream for a newer one of the same person (a few per account at most). */
  | { type: 'live.replaced' }

const MAX = 50

/** Unread first, newest first (as the server lists them). */
const sorted = (list: PortalNotification[]) =>
  [...list].sort((a, b) => Number(a.read) - Number(b.read) || b.createdAt.localeCompare(a.createdAt) || b.id - a.id)

/** The newest notification known: the stream starts after it. */
export const lastIdOf = (list: PortalNotification[]) => list.reduce((max, n) => Math.max(max, n.id), 0)

const withNew = (list: PortalNotification[], n: PortalNotification) => sorted([n, ...list.filter((o) => o.id !== n.id)]).slice(0, MAX)

/** A list from the server, with the notifications opened whose read mark is not saved yet still read (and not counted). */
const withPendingMarks = (answer: NotificationList, pendingMarks: number[]) => ({
  notifications: sorted(answer.notifications.map((n) => (pendingMarks.includes(n.id) ? { ...n, read: true } : n))),
  unread: Math.max(0, answer.unread - answer.notifications.filter((n) => pendingMarks.includes(n.id) && !n.read).length),
})

const linkOf = (context: NotificationsContext, id: number) => ({ link: context.notifications.find((n) => n.id === id)!.link })

export const notificationsMachine = deferred(() => {
  const notificationsSetup = setup({
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
      /**
       * Follows the live stream from after the given notification: sends live.open, live.notification…, and live.lost when it ends or
       * breaks.
       */
      stream: fromCallback<NotificationsEvent, { after: number }>(() => {
        throw new Error('notifications: stream is not provided')
      }),
      /** The pause before following again (a timer in the wiring). */
      pause: fromPromise<void, { ms: number }>(async () => {
        throw new Error('notifications: pause is not provided')
      }),
      /** Resolves when the person looks at the page again (the wiring: the tab shown, focused, touched or typed in). */
      pageShown: fromPromise<void>(async () => {
        throw new Error('notifications: pageShown is not provided')
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
      isListed: ({ context, event }) =>
        event.type === 'live.notification' && context.notifications.some((n) => n.id === event.notification.id),
      isUnread: ({ context, event }) =>
        event.type === 'notification.open' && context.notifications.some((n) => n.id === event.id && !n.read),
      isKnown: ({ context, event }) => event.type === 'notification.open' && context.notifications.some((n) => n.id === event.id),
      hasPendingMark: ({ context }) => context.pendingMarks.length > 0,
      readAllAsked: ({ context }) => context.readAllAsked,
      readAllNotAsked: ({ context }) => !context.readAllAsked,
    },
  })

  /**
   * The growing pause (reconnectDelay of the failures in a row), then `then`: before following the stream again, or reading a first list
   * that failed again.
   */
  const backOff = (then: 'loading' | 'catchingUp') =>
    notificationsSetup.createStateConfig({
      invoke: {
        id: 'pause',
        src: 'pause',
        input: ({ context }) => ({ ms: reconnectDelay(context.attempt) }),
        onDone: then,
        onError: then,
      },
    })

  return notificationsSetup.createMachine({
    id: 'notifications',
    context: { notifications: [], unread: 0, error: null, actionError: null, attempt: 0, pendingMarks: [], readAllAsked: false },
    initial: 'loading',
    states: {
      loading: {
        invoke: {
          id: 'loadNotifications',
          src: 'loadNotifications',
          onDone: {
            target: 'ready',
            actions: [
              assign({ notifications: ({ event }) => event.output.notifications, unread: ({ event }) => event.output.unread, error: null }),
              // After a failed first list, its unread ones may have come while the bell could not say so (the
              // portal's lists read before them): the portal is told of them as news. A first list read at once is none.
              {
                type: 'arrived',
                params: ({ context, event }) => ({
                  notifications: context.attempt > 0 ? event.output.notifications.filter((n) => !n.read) : [],
                }),
              },
            ],
          },
          onError: {
            target: 'failed',
            actions: assign({ error: ({ event }) => failureOf(LOAD_FAILED, event.error), attempt: ({ context }) => context.attempt + 1 }),
          },
        },
      },
      // Asked again by itself after the pause (no stream runs yet, so nothing else would), or at once with "Réessayer".
      failed: {
        ...backOff('loading'),
        exit: assign({ error: null }),
        on: { 'list.retry': { target: 'loading' } },
      },
      ready: {
        type: 'parallel',
        on: {
          // Sent twice (read back and live), or sent again: listed once, counted once, told once.
          'live.notification': [
            // Read or not as the bell has it: the copy sent again may predate a read mark.
            {
              guard: 'isListed',
              actions: assign({
                notifications: ({ context, event }) =>
                  withNew(context.notifications, {
                    ...event.notification,
                    read: context.notifications.find((n) => n.id === event.notification.id)!.read,
                  }),
              }),
            },
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
                  'live.replaced': { target: 'replaced' },
                },
              },
              waiting: backOff('catchingUp'),
              // Another tab or device follows now; this one follows again once looked at (the list read again first).
              replaced: {
                invoke: { id: 'pageShown', src: 'pageShown', onDone: 'catchingUp', onError: 'catchingUp' },
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
                      {
                        type: 'arrived',
                        params: ({ context, event }) => ({
                          notifications: event.output.notifications.filter((n) => !context.notifications.some((o) => o.id === n.id)),
                        }),
                      },
                      assign(({ context, event }) => withPendingMarks(event.output, context.pendingMarks)),
                    ],
                  },
                  onError: { target: 'waiting', actions: assign({ attempt: ({ context }) => context.attempt + 1 }) },
                },
              },
            },
          },
          marks: {
            initial: 'idle',
            on: {
              // Whatever is being saved: go there at once; an unread one is read now, its mark saved after those under way.
              'notification.open': [
                {
                  guard: 'isUnread',
                  actions: [
                    assign(({ context, event }) => ({
                      notifications: sorted(context.notifications.map((n) => (n.id === event.id ? { ...n, read: true } : n))),
                      unread: Math.max(0, context.unread - 1),
                      actionError: null,
                      pendingMarks: [...context.pendingMarks, event.id],
                    })),
                    { type: 'navigate', params: ({ context, event }) => linkOf(context, event.id) },
                  ],
                },
                { guard: 'isKnown', actions: { type: 'navigate', params: ({ context, event }) => linkOf(context, event.id) } },
              ],
            },
            states: {
              // Nothing left to save: the marks asked meanwhile go first, in turn, then "Tout marquer comme lu".
              idle: {
                always: [
                  { guard: 'hasPendingMark', target: 'marking' },
                  { guard: 'readAllAsked', target: 'markingAll' },
                ],
                on: { 'notification.readAll': { target: 'markingAll', actions: assign({ actionError: null }) } },
              },
              marking: {
                invoke: {
                  id: 'markRead',
                  src: 'markRead',
                  input: ({ context }) => ({ id: context.pendingMarks[0]! }),
                  // The server's count, less the marks still to be saved (already taken off here).
                  onDone: {
                    target: 'idle',
                    actions: assign(({ context, event }) => ({
                      unread: Math.max(0, event.output.unread - (context.pendingMarks.length - 1)),
                      pendingMarks: context.pendingMarks.slice(1),
                    })),
                  },
                  onError: {
                    target: 'idle',
                    // Put back: the notification is still unread on the server.
                    actions: assign(({ context, event }) => {
                      const [failed] = context.pendingMarks
                      return {
                        notifications: sorted(context.notifications.map((n) => (n.id === failed ? { ...n, read: false } : n))),
                        // A list read again meanwhile may already show it unread.
                        unread: context.unread + (context.notifications.some((n) => n.id === failed && n.read) ? 1 : 0),
                        actionError: failureOf(READ_FAILED, event.error),
                        pendingMarks: context.pendingMarks.slice(1),
                      }
                    }),
                  },
                },
                on: {
                  'notification.readAll': { guard: 'readAllNotAsked', actions: assign({ readAllAsked: true, actionError: null }) },
                },
              },
              markingAll: {
                entry: assign({ readAllAsked: false }),
                invoke: {
                  id: 'markAllRead',
                  src: 'markAllRead',
                  onDone: {
                    target: 'idle',
                    actions: assign(({ context, event }) => ({
                      notifications: context.notifications.map((n) => ({ ...n, read: true })),
                      unread: Math.max(0, event.output.unread - context.pendingMarks.length),
                    })),
                  },
                  onError: { target: 'idle', actions: assign({ actionError: ({ event }) => failureOf(READ_ALL_FAILED, event.error) }) },
                },
              },
            },
          },
        },
      },
    },
  })
})
