// /moyen-de-paiement: the card on file (brand, "•••• 4242", expiry, "Expire bientôt" within 60 days, "Expirée" once
// past), or "Aucune carte enregistrée"; "Remplacer ma carte" opens the local test provider's own card form. For an
// order, the card paying for its subscription; with 'Tous', the account's default card; a shared order's card is its
// owner's business.
import { isShown, Muted, PageCard, Toolbar, usePortal, useResource, useSelectedOrder, ListState, Badge } from '../../components/page.tsx'
import type { PageProps } from '../page.ts'
import { brandLabel, type CardExpiry, cardExpiry, expiryLabel, OWNER_ONLY } from './labels.ts'
import { Facts } from './styles.ts'
import { VisuallyHidden } from '../../components/ui.tsx'
import { TestCardForm } from './TestCardForm.tsx'

export default function PaymentMethodPage(_: PageProps) {
  const { startup, data } = usePortal()
  const order = useSelectedOrder(startup)
  const { items: card, status, error } = useResource(data, 'card')
  if (order?.isShareOrder) {
    return (
      <PageCard aria-labelledby="card-title">
        <h2 id="card-title">Moyen de paiement</h2>
        <p>
          La carte qui règle l’abonnement de {order.raisonSociale} est celle de son titulaire. <Muted>{OWNER_ONLY}</Muted>
        </p>
      </PageCard>
    )
  }
  return (
    <PageCard aria-labelledby="card-title">
      <Toolbar>
        <h2 id="card-title">Moyen de paiement</h2>
        {isShown(status) && <TestCardForm key={order?.id ?? 'all'} orderId={order?.id ?? null} hasCard={!!card} />}
      </Toolbar>
      <Muted>
        {order
          ? `La carte qui règle l’abonnement de ${order.raisonSociale}.`
          : 'La carte par défaut de votre compte, pour toutes vos domiciliations.'}
      </Muted>
      <ListState
        status={status}
        error={error}
        label="votre carte"
        empty="Aucune carte enregistrée."
        isEmpty={!card}
        onRetry={() => startup.send({ type: 'data.retry', resource: 'card' })}
      >
        {card && (
          <Facts aria-label="Carte enregistrée">
            <dt>Carte</dt>
            <dd>
              {brandLabel(card.brand)} <span aria-hidden="true">•••• {card.last4}</span>
              <VisuallyHidden>se terminant par {card.last4}</VisuallyHidden>
            </dd>
            <dt>Expiration</dt>
            <dd>
              {expiryLabel(card)} <ExpiryBadge expiry={cardExpiry(card, new Date())} />
            </dd>
          </Facts>
        )}
      </ListState>
    </PageCard>
  )
}

function ExpiryBadge({ expiry }: { expiry: CardExpiry }) {
  if (expiry === 'expired') return <Badge $tone="danger">Expirée</Badge>
  return expiry === 'soon' ? <Badge $tone="warning">Expire bientôt</Badge> : null
}
