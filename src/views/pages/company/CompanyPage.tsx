// /gestion-de-mon-entreprise: the company card, the accountant offer (want-comptable), the way to
// the people and the formalities of the company, and the termination of the domiciliation.
import { styled } from 'goober'
import { Link } from 'wouter'
import type { Order } from '../../../../server/contract/session.ts'
import { Muted, PageCard, usePortal, useSelectedOrder } from '../../components/page.tsx'
import { Card, formatDate } from '../../components/ui.tsx'
import { color, mq } from '../../theme.ts'
import type { PageProps } from '../page.ts'
import { ChooseCompany } from './ChooseCompany.tsx'
import { InterestButton } from './InterestButton.tsx'
import { Termination } from './Termination.tsx'

const Grid = styled('div')`
  display: grid;
  gap: 1rem;
  ${mq.desktop} { grid-template-columns: repeat(2, 1fr); }
  h3 { margin: 0 0 0.5rem; font-size: 1.15rem; }
  ul { margin: 0; padding-left: 1.2rem; }
  li { margin: 0.35rem 0; }
`

const Facts = styled('dl')`
  display: grid;
  grid-template-columns: 1fr;
  margin: 0;
  dt { color: ${color.muted}; margin-top: 0.5rem; }
  dd { margin: 0; font-weight: 600; overflow-wrap: break-word; }
  ${mq.desktop} {
    grid-template-columns: 11rem 1fr;
    gap: 0.4rem 1rem;
    dt { margin-top: 0; }
  }
`

/** "823 456 789", however it was typed. */
export const formatSiren = (siren: string) => {
  const digits = siren.replace(/\D/g, '')
  return digits.length === 9 ? digits.replace(/(\d{3})(\d{3})(\d{3})/, '$1 $2 $3') : siren
}

function CompanyCard({ order }: { order: Order }) {
  return (
    <Card aria-labelledby="company-card-title">
      <h3 id="company-card-title">{order.raisonSociale}</h3>
      <Facts>
        <dt>SIREN</dt>
        <dd>{order.siren ? formatSiren(order.siren) : 'En cours d’immatriculation'}</dd>
        <dt>Forme juridique</dt>
        <dd>{order.legalForm ?? '—'}</dd>
        <dt>Adresse de domiciliation</dt>
        <dd>{order.domiciliationAddress}</dd>
        <dt>Statut</dt>
        <dd>{order.status}</dd>
        <dt>Client depuis le</dt>
        <dd>
          <time dateTime={order.orderDate}>{formatDate(order.orderDate)}</time>
        </dd>
      </Facts>
    </Card>
  )
}

export default function CompanyPage({ route }: PageProps) {
  const { startup } = usePortal()
  const order = useSelectedOrder(startup)
  if (!order) return <ChooseCompany startup={startup} title={route.title} why="Cette page présente une société et ses démarches." />
  return (
    <PageCard aria-labelledby="company-title">
      <h2 id="company-title">Ma société</h2>
      <Grid>
        <CompanyCard order={order} />
        <Card aria-labelledby="accountant-title">
          <h3 id="accountant-title">Un expert-comptable pour votre société</h3>
          <p>Comptabilité, bilan, déclarations fiscales : un cabinet partenaire vous propose un devis adapté à {order.raisonSociale}.</p>
          <InterestButton key={order.id} order={order} partner="expert-comptable" label="Je veux être contacté par un expert-comptable" />
        </Card>
        <Card aria-labelledby="company-links-title">
          <h3 id="company-links-title">Gérer ma société</h3>
          <ul>
            {!order.isShareOrder && (
              <li>
                <Link href="/mes-collaborateurs">Mes collaborateurs</Link> <Muted>: qui consulte le courrier avec vous</Muted>
              </li>
            )}
            <li>
              <Link href="/mes-representants">Mes représentants</Link> <Muted>: qui peut retirer le courrier et les colis</Muted>
            </li>
            <li>
              <Link href="/mes-reunions">Mes réunions</Link> <Muted>: vos réservations de salle</Muted>
            </li>
            <li>
              <Link href="/formalites">Mes formalités</Link> <Muted>: vos demandes et leur avancement</Muted>
            </li>
            <li>
              <Link href="/formalites-juridique">Formalités juridiques</Link> <Muted>: transfert, modification, dissolution…</Muted>
            </li>
          </ul>
        </Card>
        <Termination order={order} />
      </Grid>
    </PageCard>
  )
}
