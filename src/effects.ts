// The effects behind the statecharts' actors: which calls load what (spec §4), and reading a file.
import type { MailDocument, Order } from '../server/contract/schemas.ts'
import { getCalendarInvoices, getInvoices, getShareInvoices } from './api/invoices.ts'
import {
  getCourierRequests, getDocuments, getFolders, getPackages, getShareCourierRequests, getShareFolders, getSharePackages,
} from './api/mail.ts'
import { getCreditCard, getPaymentMethod, getSubscriptionInformations } from './api/subscription.ts'
import type { LoadInput, OrderSubscription, PortalData, Resource, Scope } from './machines/portalData.machine.ts'

type Loader<R extends Resource> = (scope: Scope, signal: AbortSignal) => Promise<PortalData[R]>

const newestFirst = <T>(items: T[], date: (item: T) => string) => [...items].sort((a, b) => date(b).localeCompare(date(a)))
const ownOrders = (scope: Scope) => scope.orders.filter((o) => !o.isShareOrder)
const hasShared = (scope: Scope) => scope.orders.some((o) => o.isShareOrder)

/** An order's own list or its share variant; for 'Tous', both, merged. */
async function ownAndShared<T>(scope: Scope, own: (orderId?: number) => Promise<T[]>, shared: (orderId?: number) => Promise<T[]>): Promise<T[]> {
  const { order } = scope
  if (order) return order.isShareOrder ? shared(order.id) : own(order.id)
  const [mine, theirs] = await Promise.all([ownOrders(scope).length > 0 ? own() : [], hasShared(scope) ? shared() : []])
  return [...mine, ...theirs]
}

export const loaders: { [R in Resource]: Loader<R> } = {
  // Collaborators do not see the owner's card.
  card: async ({ order }, signal) => (order ? (order.isShareOrder ? null : getPaymentMethod(order.id, { signal })) : getCreditCard({ signal })),
  documents: async ({ order }, signal) => newestFirst<MailDocument>(await getDocuments(order ? { orderId: order.id } : {}, { signal }), (d) => d.receivedAt),
  subscriptions: async (scope, signal) => {
    const orders = scope.order ? [scope.order] : ownOrders(scope)
    const withSubscription = orders.filter((o): o is Order & { subscriptionId: string } => !o.isShareOrder && !!o.subscriptionId)
    return Promise.all(
      withSubscription.map(async (o): Promise<OrderSubscription> => ({ orderId: o.id, subscription: await getSubscriptionInformations(o.id, o.subscriptionId, { signal }) })),
    )
  },
  packages: async (scope, signal) =>
    newestFirst(await ownAndShared(scope, (orderId) => getPackages({ orderId }, { signal }), (orderId) => getSharePackages({ orderId }, { signal })), (p) => p.receivedAt),
  courierRequests: async (scope, signal) =>
    newestFirst(
      await ownAndShared(scope, (orderId) => getCourierRequests({ orderId }, { signal }), (orderId) => getShareCourierRequests({ orderId }, { signal })),
      (r) => r.createdAt,
    ),
  folders: async (scope, signal) => {
    const shared = async (orderId?: number) => (await getShareFolders({ signal })).filter((f) => orderId === undefined || f.domiciliationOrderId === orderId)
    return ownAndShared(scope, (orderId) => getFolders({ domiciliationOrderId: orderId }, { signal }), shared)
  },
  // Spec §4: the user's own invoices plus the shared ones, filtered by the selected order.
  invoices: async ({ order }, signal) => {
    const [own, shared] = await Promise.all([getInvoices({}, { signal }), getShareInvoices({}, { signal })])
    return newestFirst([...own, ...shared].filter((i) => !order || i.domId === order.id), (i) => i.date)
  },
  calendarInvoices: async ({ order }, signal) => (await getCalendarInvoices({ signal })).filter((i) => !order || i.domId === order.id),
}

export function loadResource(input: LoadInput, signal: AbortSignal): Promise<PortalData[Resource]> {
  return (loaders[input.resource] as Loader<Resource>)(input.scope, signal)
}

/** A chosen file as a data URL (the Kbis is sent that way, spec §3). */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(new Error('Le fichier n’a pas pu être lu. Choisissez-le à nouveau.'))
    reader.readAsDataURL(file)
  })
}

const DEXT_EMAIL_KEY = 'dextEmail'

/** The accounting inbox address of the last export that went through (kept in this browser). */
export function readDextEmail(): string | null {
  try {
    return localStorage.getItem(DEXT_EMAIL_KEY)
  } catch {
    return null
  }
}

export function writeDextEmail(email: string): void {
  try {
    localStorage.setItem(DEXT_EMAIL_KEY, email)
  } catch {
    // Private browsing: the address is simply not kept.
  }
}
