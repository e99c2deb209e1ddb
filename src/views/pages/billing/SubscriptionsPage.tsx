// /souscription/mes-abonnements: a card per order shown ('Tous': every order the user owns): the plan, its price including
// VAT, "Mensuel" or "Annuel", the next due date, the options held; the owner adds an option and requests termination,
// a collaborator reads it only.
import type { PageProps } from '../page.ts'
import { ListState, PageCard, useOrders, usePortal, useResource, useSelectedOrder } from '../../components/page.tsx'
import { ordersInScope } from './labels.ts'
import { SubscriptionCard } from './SubscriptionCard.tsx'

export default function SubscriptionsPage(_: PageProps) {
  const { startup, data } = usePortal()
  const order = useSelectedOrder(startup)
  const orders = ordersInScope(order, useOrders(startup))
  const { items, status, error } = useResource(data, 'subscriptions')
  const subscriptions = items ?? []
  return (
    <PageCard aria-labelledby="subscriptions-title">
      <h2 id="subscriptions-title">{orders.length > 1 ? 'Mes abonnements' : 'Mon abonnement'}</h2>
      <ListState
        status={status}
        error={error}
        label="vos abonnements"
        empty="Aucun abonnement pour le moment."
        isEmpty={orders.length === 0}
        onRetry={() => startup.send({ type: 'data.retry', resource: 'subscriptions' })}
      >
        {orders.map((o) => (
          <SubscriptionCard
            key={o.id}
            order={o}
            subscription={subscriptions.find((s) => s.orderId === o.id)?.subscription ?? null}
            titled={orders.length > 1}
          />
        ))}
      </ListState>
    </PageCard>
  )
}
