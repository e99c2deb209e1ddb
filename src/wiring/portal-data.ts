// Which calls load what of the portal's data (spec §4): share endpoints for a shared order, every
// order for 'Tous', the user's own invoices plus the shared ones filtered by the selected order.
import type { MailDocument } from '../../server/contract/mail.ts'
import type { Order } from '../../server/contract/session.ts'
import type { LoadInput, OrderSubscription, PortalData, Resource, Scope } from '../machines/session/portalData.machine.ts'
import type { FirstScreenApi } from './api.ts'

type Loader<R extends Resource> = (scope: Scope, signal: AbortSignal) => Promise<PortalData[R]>

const newestFirst = <T>(items: T[], date: (item: T) => string) => [...items].sort((a, b) => date(b).localeCompare(date(a)))
const ownOrders = (scope: Scope) => scope.orders.filter((o) => !o.isShareOrder)
const hasShared = (scope: Scope) => scope.orders.some((o) => o.isShareOrder)

/** An order's own list or its share variant; for 'Tous', both, merged. */
async function ownAndShared<T>(
  scope: Scope,
  own: (orderId?: number) => Promise<T[]>,
  shared: (orderId?: number) => Promise<T[]>,
): Promise<T[]> {
  const { order } = scope
  if (order) return order.isShareOrder ? shared(order.id) : own(order.id)
  const [mine, theirs] = await Promise.all([ownOrders(scope).length > 0 ? own() : [], hasShared(scope) ? shared() : []])
  return [...mine, ...theirs]
}

export function createLoaders(api: FirstScreenApi): (input: LoadInput, signal: AbortSignal) => Promise<PortalData[Resource]> {
  const loaders: { [R in Resource]: Loader<R> } = {
    // Collaborators do not see the owner's card.
    card: async ({ order }, signal) =>
      order ? (order.isShareOrder ? null : api.getPaymentMethod(order.id, { signal })) : api.getCreditCard({ signal }),
    documents: async ({ order }, signal) =>
      newestFirst<MailDocument>(await api.getDocuments(order ? { orderId: order.id } : {}, { signal }), (d) => d.receivedAt),
    // 'Tous': the orders the user owns; one order, shared or not (a collaborator sees it read-only, billing).
    subscriptions: async (scope, signal) => {
      const orders = scope.order ? [scope.order] : ownOrders(scope)
      const withSubscription = orders.filter((o): o is Order & { subscriptionId: string } => !!o.subscriptionId)
      return Promise.all(
        withSubscription.map(
          async (o): Promise<OrderSubscription> => ({
            orderId: o.id,
            subscription: await api.getSubscriptionInformations(o.id, o.subscriptionId, { signal }),
          }),
        ),
      )
    },
    packages: async (scope, signal) =>
      newestFirst(
        await ownAndShared(
          scope,
          (orderId) => api.getPackages({ orderId }, { signal }),
          (orderId) => api.getSharePackages({ orderId }, { signal }),
        ),
        (p) => p.receivedAt,
      ),
    courierRequests: async (scope, signal) =>
      newestFirst(
        await ownAndShared(
          scope,
          (orderId) => api.getCourierRequests({ orderId }, { signal }),
          (orderId) => api.getShareCourierRequests({ orderId }, { signal }),
        ),
        (r) => r.createdAt,
      ),
    folders: async (scope, signal) => {
      const shared = async (orderId?: number) =>
        (await api.getShareFolders({ signal })).filter((f) => orderId === undefined || f.domiciliationOrderId === orderId)
      return ownAndShared(scope, (orderId) => api.getFolders({ domiciliationOrderId: orderId }, { signal }), shared)
    },
    // Spec §4: the user's own invoices plus the shared ones, filtered by the selected order.
    invoices: async ({ order }, signal) => {
      const [own, shared] = await Promise.all([api.getInvoices({}, { signal }), api.getShareInvoices({}, { signal })])
      return newestFirst(
        [...own, ...shared].filter((i) => !order || i.domId === order.id),
        (i) => i.date,
      )
    },
    calendarInvoices: async ({ order }, signal) =>
      (await api.getCalendarInvoices({ signal })).filter((i) => !order || i.domId === order.id),
  }
  return (input, signal) => (loaders[input.resource] as Loader<Resource>)(input.scope, signal)
}
