// /souscription/attestation-contrats: for each order shown that the user owns, the domiciliation certificate (made by the
// server on request, with its verification page), the contract, and the mail-forwarding address.
import { useSelector } from '@xstate/react'
import type { StartupContext } from '../../../machines/session/startup.machine.ts'
import type { PageProps } from '../page.ts'
import { Muted, PageCard, useOrders, usePortal, useSelectedOrder } from '../../components/page.tsx'
import { ordersInScope, OWNER_ONLY } from './labels.ts'
import { OrderDocuments } from './OrderDocuments.tsx'

export default function CertificatePage(_: PageProps) {
  const { startup } = usePortal()
  const order = useSelectedOrder(startup)
  const orders = ordersInScope(order, useOrders(startup))
  const contracts = useSelector(startup, (s) => (s.context as StartupContext).contracts)
  return (
    <PageCard aria-labelledby="certificate-title">
      <h2 id="certificate-title">Attestation et contrats</h2>
      {order?.isShareOrder ? (
        <p>
          Les attestations et contrats de {order.raisonSociale} sont délivrés à son titulaire. <Muted>{OWNER_ONLY}</Muted>
        </p>
      ) : orders.length === 0 ? (
        <p>Aucune domiciliation à votre nom pour le moment.</p>
      ) : (
        orders.map((o) => (
          <OrderDocuments
            key={o.id}
            order={o}
            contract={contracts.find((c) => c.domiciliationOrderId === o.id) ?? null}
            titled={orders.length > 1}
          />
        ))
      )}
    </PageCard>
  )
}
