// notifications: the bell's flow with its real effects: the calls, the live stream
// (fetch + a stream reader, the token in its header), the pause before following it again, the
// navigation to what a notification is about, and the news told to the portal (its lists read again when something arrives).
import { fromCallback, fromPromise } from 'xstate'
import { letterHistoryMachine } from '../machines/mail/letterHistory.machine.ts'
import { myConversationsMachine } from '../machines/notifications/myConversations.machine.ts'
import { notificationPreferencesMachine } from '../machines/notifications/notificationPreferences.machine.ts'
import { notificationsMachine, type NotificationsEvent } from '../machines/notifications/notifications.machine.ts'
import type { WiringDeps } from './deps.ts'
import { later } from './later.ts'
import { pause } from './pause.ts'

/**
 * The wait before following the stream again: between half and all of the flow's delay, at random. A server that
 * restarts, or that lost its LISTEN connection, ends every open stream at once; spread out, the browsers do not all
 * come back in the same second.
 */
export const spreadDelay = (ms: number, random: () => number = Math.random) => Math.round(ms / 2 + (random() * ms) / 2)

/**
 * Resolves at the next sign that the person looks at this page: the tab shown again, the window focused, a touch, a
 * click or a key. A tab in the background never resolves it, so it never takes back a place another tab holds.
 */
export const pageShown = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const kinds = ['focus', 'pointerdown', 'keydown'] as const
    const stop = () => {
      document.removeEventListener('visibilitychange', onVisibility)
      for (const kind of kinds) window.removeEventListener(kind, shown, true)
    }
    const shown = () => {
      stop()
      resolve()
    }
    const onVisibility = () => {
      if (document.visibilityState === 'visible') shown()
    }
    document.addEventListener('visibilitychange', onVisibility)
    for (const kind of kinds) window.addEventListener(kind, shown, true)
    // Called off with the state that waits: the listeners go.
    signal.addEventListener('abort', stop, { once: true })
  })

export function createNotificationFlows({ api, navigate, notify, toPortal }: WiringDeps) {
  return {
    notifications: later(() =>
      notificationsMachine.provide({
        actors: {
          loadNotifications: fromPromise(({ signal }) => api.getNotifications({ signal })),
          markRead: fromPromise(({ input, signal }) => api.readNotification(input.id, { signal })),
          markAllRead: fromPromise(({ signal }) => api.readAllNotifications({ signal })),
          stream: fromCallback<NotificationsEvent, { after: number }>(({ input, sendBack }) => {
            const controller = new AbortController()
            let replaced = false
            const lost = () => {
              if (!controller.signal.aborted) sendBack({ type: replaced ? 'live.replaced' : 'live.lost' })
            }
            api
              .followNotifications(
                {
                  onOpen: () => sendBack({ type: 'live.open' }),
                  onNotification: (notification) => sendBack({ type: 'live.notification', notification }),
                  onReplaced: () => {
                    replaced = true
                  },
                },
                { after: input.after, signal: controller.signal },
              )
              .then(lost, lost)
            return () => controller.abort()
          }),
          pause: fromPromise<void, { ms: number }>(({ input, signal }) => pause(spreadDelay(input.ms), signal)),
          pageShown: fromPromise<void>(({ signal }) => pageShown(signal)),
        },
        actions: {
          navigate: (_, { link }) => navigate(link),
          // Once per kind: five letters found after a drop read the letters again once.
          arrived: (_, { notifications }) => {
            for (const kind of new Set(notifications.map((n) => n.kind))) toPortal({ type: 'news.arrived', kind })
          },
        },
      }),
    ),
    letterHistory: later(() =>
      letterHistoryMachine.provide({
        actors: { loadHistory: fromPromise(({ input, signal }) => api.getLetterHistory(input.documentId, { signal })) },
      }),
    ),
    myConversations: later(() =>
      myConversationsMachine.provide({
        actors: {
          loadConversations: fromPromise(({ input, signal }) => api.getConversations(input.orderId, { signal })),
          loadConversation: fromPromise(({ input, signal }) => api.getConversation(input.id, { signal })),
          answer: fromPromise(({ input: { id, message }, signal }) => api.answerConversation(id, { message }, { signal })),
        },
        actions: { notify: (_, notice) => notify(notice) },
      }),
    ),
    notificationPreferences: later(() =>
      notificationPreferencesMachine.provide({
        actors: {
          loadPreference: fromPromise(({ input, signal }) => api.getNotificationPreferences(input.orderId, { signal })),
          savePreference: fromPromise(({ input: { orderId, email }, signal }) =>
            api.updateNotificationPreferences(orderId, { email }, { signal }),
          ),
        },
      }),
    ),
  }
}
