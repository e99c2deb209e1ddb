// /operateur/clients/:id: an order's page (company, owner, collaborators, representatives, status, subscription,
// invoices, documents) and its timeline, 50 entries a page (clientOrder machine: each half fails on its own).
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import type { ClientOrder } from '../../../../../server/contract/operators.ts'
import { ErrorState, formatDate, formatEuros, Spinner } from '../../../../views/components/ui.tsx'
import { color } from '../../../../views/theme.ts'
import { useBackOffice } from '../../context.tsx'
import { formatDateTime, Muted, Panel, TableBox } from './admin.styles.ts'
import { TimelineSection } from './TimelineSection.tsx'

const Columns = styled('div')`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr));
  gap: 0 1.5rem;
`

export const Facts = styled('dl')`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 0.35rem 1rem;
  margin: 0;
  dt { color: ${color.muted}; }
  dd { margin: 0; overflow-wrap: anywhere; }
`

const INTERVALS = { month: 'mois', year: 'an' } as const

function Company({ order }: { order: ClientOrder }) {
  return (
    <Panel aria-labelledby="societe">
      <h2 id="societe">Société</h2>
      <Facts>
        <dt>Raison sociale</dt>
        <dd>{order.raisonSociale}</dd>
        <dt>SIREN</dt>
        <dd>{order.siren ?? '—'}</dd>
        <dt>Forme juridique</dt>
        <dd>{order.legalForm ?? '—'}</dd>
        <dt>Statut</dt>
        <dd>{order.status}</dd>
        <dt>Commande</dt>
        <dd>
          n° {order.id}, du {formatDate(order.orderDate)}
        </dd>
        <dt>Début</dt>
        <dd>{order.startsOn ? formatDate(`${order.startsOn}T12:00:00Z`) : '—'}</dd>
        <dt>Domiciliée au</dt>
        <dd>{order.domiciliationAddress}</dd>
        <dt>Réexpédition</dt>
        <dd>{order.forwardingAddress ?? 'Aucune adresse de réexpédition'}</dd>
        <dt>En ce moment</dt>
        <dd>
          {order.counts.letters} courrier{order.counts.letters > 1 ? 's' : ''}, {order.counts.packagesWaiting} colis à retirer,{' '}
          {order.counts.pendingCourierRequests} demande{order.counts.pendingCourierRequests > 1 ? 's' : ''} en attente
        </dd>
      </Facts>
    </Panel>
  )
}

function People({ order }: { order: ClientOrder }) {
  const { owner } = order
  return (
    <Panel aria-labelledby="personnes">
      <h2 id="personnes">Personnes</h2>
      <h3>Titulaire</h3>
      <Facts>
        <dt>Nom</dt>
        <dd>
          {owner.firstname} {owner.lastname}
        </dd>
        <dt>E-mail</dt>
        <dd>
          {owner.email} <Muted>{owner.emailVerified ? '(vérifiée)' : '(pas encore vérifiée)'}</Muted>
        </dd>
        <dt>Téléphone</dt>
        <dd>{owner.phone ?? '—'}</dd>
        <dt>Compte créé</dt>
        <dd>{formatDate(owner.createdAt)}</dd>
      </Facts>
      <h3>Collaborateurs</h3>
      {order.collaborators.length === 0 ? (
        <p>Aucun collaborateur.</p>
      ) : (
        <ul>
          {order.collaborators.map((c) => (
            <li key={c.shareId}>
              {c.name ? `${c.name} · ` : ''}
              {c.email} <Muted>({c.state === 'active' ? 'actif' : 'invitation en attente'})</Muted>
            </li>
          ))}
        </ul>
      )}
      <h3>Représentants (mandataires)</h3>
      {order.representatives.length === 0 ? (
        <p>Aucun représentant.</p>
      ) : (
        <ul>
          {order.representatives.map((r) => (
            <li key={r.id}>
              {r.firstname} {r.lastname} · {r.email} · {r.phone}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  )
}

function Subscription({ order }: { order: ClientOrder }) {
  const sub = order.subscription
  return (
    <Panel aria-labelledby="abonnement">
      <h2 id="abonnement">Abonnement</h2>
      {order.subscriptionUnavailable && <p role="status">Le prestataire de paiement ne répond pas : l’abonnement n’a pas pu être lu.</p>}
      {!sub && !order.subscriptionUnavailable && <p>Aucun abonnement.</p>}
      {sub && (
        <>
          <p>
            {sub.status === 'active' ? 'Actif' : sub.status}, période en cours jusqu’au {formatDate(sub.currentPeriodEnd)}
            {sub.cancelAtPeriodEnd ? ' (arrêt à la fin de la période)' : ''}.
          </p>
          <ul>
            {sub.items.map((item) => (
              <li key={item.planId}>
                {item.label} : {formatEuros(item.amountCents)} HT par {INTERVALS[item.interval]}
              </li>
            ))}
          </ul>
        </>
      )}
      {order.termination && (
        <p>
          Résiliation demandée le {formatDate(order.termination.requestedAt)} pour le {formatDate(`${order.termination.date}T12:00:00Z`)} :{' '}
          {order.termination.reason}
          {order.termination.comment ? ` (${order.termination.comment})` : ''}
        </p>
      )}
    </Panel>
  )
}

function Invoices({ order }: { order: ClientOrder }) {
  return (
    <Panel aria-labelledby="factures">
      <h2 id="factures">Factures</h2>
      {order.invoices.length === 0 ? (
        <p>Aucune facture.</p>
      ) : (
        <TableBox>
          <table>
            <thead>
              <tr>
                <th scope="col">N°</th>
                <th scope="col">Date</th>
                <th scope="col">HT</th>
                <th scope="col">TTC</th>
                <th scope="col">Réglée</th>
              </tr>
            </thead>
            <tbody>
              {order.invoices.map((i) => (
                <tr key={i.id}>
                  <td>{i.number}</td>
                  <td>{formatDate(i.date)}</td>
                  <td>{formatEuros(i.amountExclTaxCents)}</td>
                  <td>{formatEuros(i.amountInclTaxCents)}</td>
                  <td>{i.paidAt ? `le ${formatDate(i.paidAt)}` : 'À payer'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
      {order.creditNotes.length > 0 && (
        <>
          <h3>Avoirs</h3>
          <ul>
            {order.creditNotes.map((c) => (
              <li key={c.id}>
                {c.number} du {formatDate(c.date)} : {formatEuros(c.amountInclTaxCents)} TTC
              </li>
            ))}
          </ul>
        </>
      )}
    </Panel>
  )
}

function Documents({ order }: { order: ClientOrder }) {
  const { kbis, identity } = order.documents
  return (
    <Panel aria-labelledby="documents">
      <h2 id="documents">Documents</h2>
      <Facts>
        <dt>Kbis</dt>
        <dd>
          {!kbis.filed
            ? 'Pas encore déposé'
            : kbis.validatedAt
              ? `Validé le ${formatDate(kbis.validatedAt)}`
              : `Déposé${kbis.filedAt ? ` le ${formatDateTime(kbis.filedAt)}` : ''}, à vérifier`}
        </dd>
        <dt>Pièces d’identité</dt>
        <dd>
          {identity.required.length === 0
            ? 'Aucune demandée'
            : identity.validatedAt
              ? `Complètes le ${formatDate(identity.validatedAt)}`
              : `Demandées : ${identity.required.map((r) => r.label).join(', ')}`}
        </dd>
      </Facts>
      {identity.uploaded.length > 0 && (
        <ul>
          {identity.uploaded.map((d) => (
            <li key={d.id}>
              {d.label} : {d.fileName} <Muted>({formatDateTime(d.uploadedAt)})</Muted>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  )
}

export default function ClientOrderPage({ orderId }: { orderId: number }) {
  const page = useActorRef(useBackOffice().flows.clientOrder, { input: { orderId } })
  const order = useSelector(page, (s) => s.context.order)
  const failed = useSelector(page, (s) => s.matches({ order: 'failed' }))
  const error = useSelector(page, (s) => s.context.error)
  return (
    <>
      {failed && <ErrorState message={error!} onRetry={() => page.send({ type: 'order.retry' })} />}
      {!order && !failed && <Spinner label="Chargement de la domiciliation…" />}
      {order && (
        <>
          <h2>
            {order.raisonSociale} <Muted>· commande n° {order.id}</Muted>
          </h2>
          <Columns>
            <div>
              <Company order={order} />
              <Documents order={order} />
            </div>
            <div>
              <People order={order} />
              <Subscription order={order} />
            </div>
          </Columns>
          <Invoices order={order} />
        </>
      )}
      <TimelineSection page={page} />
    </>
  )
}
