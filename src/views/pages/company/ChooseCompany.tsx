// 'Tous' on a page about one company: say so, and offer each company as a clear choice (the same
// choice as the header's picker, so the rest of the portal follows).
import type { Order } from '../../../../server/contract/session.ts'
import type { StartupRef } from '../../app-context.tsx'
import { Muted, PageCard, Row, Rows, useOrders } from '../../components/page.tsx'
import { Button } from '../../components/ui.tsx'

export function ChooseCompany({
  startup,
  title,
  why,
  only = () => true,
}: {
  startup: StartupRef
  title: string
  /** What the page needs a company for. */
  why: string
  only?: (order: Order) => boolean
}) {
  const orders = useOrders(startup).filter(only)
  // This choice gives way to the company's page: the focus goes first to the page's content (Shell's <main>, which
  // stays), not to <body> with the button pressed.
  const choose = (orderId: number) => {
    document.getElementById('contenu')?.focus()
    startup.send({ type: 'order.select', orderId })
  }
  return (
    <PageCard aria-labelledby="choose-company-title">
      <h2 id="choose-company-title">{title}</h2>
      <p>{why} Choisissez la société :</p>
      <Rows aria-label="Sociétés">
        {orders.map((o) => (
          <Row key={o.id}>
            <div>
              <strong>{o.raisonSociale}</strong>
              <div>
                <Muted>
                  {[o.legalForm, o.siren && `SIREN ${o.siren}`, o.isShareOrder && 'partagée avec vous'].filter(Boolean).join(' · ')}
                </Muted>
              </div>
            </div>
            <Button type="button" $variant="secondary" onClick={() => choose(o.id)} aria-label={`Choisir ${o.raisonSociale}`}>
              Choisir
            </Button>
          </Row>
        ))}
      </Rows>
    </PageCard>
  )
}
