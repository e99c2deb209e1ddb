// "Résilier ma domiciliation": the billing area's termination flow itself (its form and statechart,
// as on Mes abonnements), for the owner; a collaborator is told it is the owner's.
import type { Order } from '../../../../server/contract/session.ts'
import { Muted } from '../../components/page.tsx'
import { Card } from '../../components/ui.tsx'
import { TerminationForm } from '../billing/TerminationForm.tsx'

export function Termination({ order }: { order: Order }) {
  return (
    <Card aria-labelledby="termination-title">
      <h3 id="termination-title">Résilier ma domiciliation</h3>
      {order.isShareOrder ? (
        <Muted>Géré par le titulaire de la domiciliation.</Muted>
      ) : (
        <>
          <p>La demande part à nos équipes avec la date souhaitée, au plus tôt la fin de la période en cours de votre abonnement.</p>
          <TerminationForm key={order.id} orderId={order.id} company={order.raisonSociale} />
        </>
      )}
    </Card>
  )
}
