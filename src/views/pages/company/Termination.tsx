// "Résilier ma domiciliation": termination is the billing area's flow, on Mes abonnements.
import { Link } from 'wouter'
import type { Order } from '../../../../server/contract/schemas.ts'
import { Muted } from '../../components/page.tsx'
import { Card } from '../../components/ui.tsx'

export function Termination({ order }: { order: Order }) {
  return (
    <Card aria-labelledby="termination-title">
      <h3 id="termination-title">Résilier ma domiciliation</h3>
      {order.isShareOrder ? (
        <Muted>Géré par le titulaire de la domiciliation.</Muted>
      ) : (
        <p>
          La résiliation se demande depuis votre abonnement, avec la date souhaitée :{' '}
          <Link href="/souscription/mes-abonnements">Résilier ma domiciliation</Link>.
        </p>
      )}
    </Card>
  )
}
