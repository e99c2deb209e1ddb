// /formalites-juridique (its special layout, without the header): the catalogue of legal
// formalities for the chosen company. The order checks decide what can be ordered now and say why
// not otherwise; "Commander" records a request followed in /formalites.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { Link } from 'wouter'
import type { Order } from '../../../../server/contract/session.ts'
import { ORDER_OWNER_ONLY, refusalFor } from '../../../machines/company/formalityOrder.machine.ts'
import { type StartupRef, useFlows } from '../../app-context.tsx'
import { PageCard, Toolbar, useOrders, usePortal, useSelectedOrder } from '../../components/page.tsx'
import { Alert, ErrorState, Field, Spinner } from '../../components/ui.tsx'
import { mq } from '../../theme.ts'
import type { PageProps } from '../page.ts'
import { catalogue } from './catalogue.ts'
import { FormalityCard } from './FormalityCard.tsx'
import { LegalLayout } from './LegalLayout.tsx'
import { OrderFormalityModal } from './OrderFormalityModal.tsx'

const Grid = styled('div')`
  display: grid;
  gap: 1rem;
  ${mq.desktop} { grid-template-columns: repeat(3, 1fr); }
`

/** The page has no header: the company is chosen here (the same choice as the header's picker). */
function CompanyPicker({ startup, order }: { startup: StartupRef; order: Order | null }) {
  const orders = useOrders(startup)
  if (orders.length === 1 && order) return null
  return (
    <Field id="formalites-societe" label="Société concernée">
      <select
        id="formalites-societe"
        value={order?.id ?? ''}
        onChange={(e) => e.target.value && startup.send({ type: 'order.select', orderId: Number(e.target.value) })}
      >
        {!order && <option value="">Choisissez une société…</option>}
        {orders.map((o) => (
          <option key={o.id} value={o.id}>
            {o.raisonSociale}
          </option>
        ))}
      </select>
    </Field>
  )
}

function Catalogue({ order }: { order: Order }) {
  const flows = useFlows('company')
  const actor = useActorRef(flows.formalityOrder, { input: { orderId: order.id, isShareOrder: order.isShareOrder } })
  const checks = useSelector(actor, (s) => s.context.checks)
  const checking = useSelector(actor, (s) => s.hasTag('loading'))
  const failed = useSelector(actor, (s) => s.matches('checkFailed'))
  const error = useSelector(actor, (s) => (s.matches('ready') ? s.context.error : null))
  const modal = useSelector(actor, (s) => s.hasTag('modal'))
  return (
    <>
      {checking && <Spinner label="Vérification de votre dossier…" />}
      {failed && <ErrorState message={actor.getSnapshot().context.error!} onRetry={() => actor.send({ type: 'checks.retry' })} />}
      {order.isShareOrder && (
        <Alert $kind="info" role="note">
          {ORDER_OWNER_ONLY} Vous pouvez consulter le catalogue et suivre les demandes dans « Formalités ».
        </Alert>
      )}
      {error && !order.isShareOrder && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
      <Grid>
        {catalogue.map((formality) => (
          <FormalityCard
            key={formality.kind}
            formality={formality}
            refusal={checks ? refusalFor(formality.kind, checks) : undefined}
            canOrder={!order.isShareOrder}
            onOrder={() => actor.send({ type: 'formality.choose', kind: formality.kind })}
          />
        ))}
      </Grid>
      {modal && <OrderFormalityModal actor={actor} company={order.raisonSociale} />}
    </>
  )
}

export default function LegalCataloguePage(_: PageProps) {
  const { startup } = usePortal()
  const order = useSelectedOrder(startup)
  return (
    <LegalLayout>
      <PageCard aria-labelledby="catalogue-title">
        <Toolbar>
          <h2 id="catalogue-title">Nos formalités</h2>
          <Link href="/formalites">Suivre mes formalités</Link>
        </Toolbar>
        <CompanyPicker startup={startup} order={order} />
        {order ? (
          <Catalogue key={order.id} order={order} />
        ) : (
          <>
            <p>Choisissez la société concernée pour savoir ce qui peut être commandé dès maintenant.</p>
            <Grid>
              {catalogue.map((formality) => (
                <FormalityCard key={formality.kind} formality={formality} refusal={undefined} canOrder={false} onOrder={() => {}} />
              ))}
            </Grid>
          </>
        )}
      </PageCard>
    </LegalLayout>
  )
}
