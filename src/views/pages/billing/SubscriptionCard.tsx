// One order's subscription on Mes abonnements: what it is, what it costs, when it renews, its options; for the owner,
// "Ajouter une option" and "Résilier" (a collaborator only reads it).
import type { Subscription } from '../../../../server/contract/billing.ts'
import type { Order } from '../../../../server/contract/session.ts'
import { formatDate, formatEuros } from '../../components/ui.tsx'
import { Muted } from '../../components/page.tsx'
import { inclTax, intervalLabel, nextDueDate, optionsOf, OWNER_ONLY, perPeriod, planOf, totalInclTax } from './labels.ts'
import { OptionDialog } from './OptionDialog.tsx'
import { Actions, Facts, OrderBlock } from './styles.ts'
import { TerminationForm } from './TerminationForm.tsx'

export function SubscriptionCard({ order, subscription, titled }: { order: Order; subscription: Subscription | null; titled: boolean }) {
  const plan = subscription && planOf(subscription)
  const headingId = `subscription-${order.id}`
  return (
    <OrderBlock aria-labelledby={headingId}>
      <h3 id={headingId}>{titled ? order.raisonSociale : `Abonnement de ${order.raisonSociale}`}</h3>
      {order.isShareOrder && <Muted>{OWNER_ONLY}</Muted>}
      {!subscription || !plan ? (
        <p>Aucun abonnement n’est associé à cette domiciliation pour le moment.</p>
      ) : (
        <>
          <Facts>
            <dt>Formule</dt>
            <dd>
              {plan.nickname} : {formatEuros(inclTax(plan.amount))} TTC {perPeriod(plan.interval)}
            </dd>
            <dt>Périodicité</dt>
            <dd>{intervalLabel(plan.interval)}</dd>
            <dt>Options</dt>
            <dd>
              {optionsOf(subscription).length === 0 ? (
                'Aucune option'
              ) : (
                <ul aria-label={`Options de ${order.raisonSociale}`}>
                  {optionsOf(subscription).map((option) => (
                    <li key={option.id}>
                      {option.nickname} : {formatEuros(inclTax(option.amount))} TTC
                    </li>
                  ))}
                </ul>
              )}
            </dd>
            <dt>Total</dt>
            <dd>
              {formatEuros(totalInclTax(subscription))} TTC {perPeriod(plan.interval)}
            </dd>
            <dt>Prochaine échéance</dt>
            <dd>
              <time dateTime={nextDueDate(subscription)}>{formatDate(nextDueDate(subscription))}</time>
            </dd>
          </Facts>
          {!order.isShareOrder && (
            <Actions>
              {order.contractId !== null && order.subscriptionId && (
                <OptionDialog
                  target={{ orderId: order.id, contractId: order.contractId, subscriptionId: order.subscriptionId }}
                  company={order.raisonSociale}
                />
              )}
            </Actions>
          )}
        </>
      )}
      {!order.isShareOrder && <TerminationForm orderId={order.id} company={order.raisonSociale} />}
    </OrderBlock>
  )
}
