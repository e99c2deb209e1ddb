// The owner-only pages of an order (collaborators, representatives): they need one order of the
// user's own to be selected; 'Tous' or a shared order say what to do instead.
import type { ReactNode } from 'react'
import type { Order } from '../../../../server/contract/session.ts'
import { PageCard, useSelectedOrder, usePortal } from '../../components/page.tsx'

export function OwnOrderGate({ title, what, children }: { title: string; what: string; children: (order: Order) => ReactNode }) {
  const { startup } = usePortal()
  const order = useSelectedOrder(startup)
  if (order && !order.isShareOrder) return <>{children(order)}</>
  return (
    <PageCard aria-labelledby="gate-title">
      <h2 id="gate-title">{title}</h2>
      <p>
        {order
          ? `${order.raisonSociale} est partagée avec vous : seul son titulaire peut gérer ${what}.`
          : `Choisissez une domiciliation dans le sélecteur « Domiciliation » pour gérer ${what}.`}
      </p>
    </PageCard>
  )
}
