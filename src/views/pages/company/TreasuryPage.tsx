// /suivi-comptable/tresorerie: the bank partners, each a card with its offer and "Ça m'intéresse"
// (:set-qonto / :set-shine), then "Demande envoyée", also after a reload (the order's flags).
import { styled } from 'goober'
import type { Partner } from '../../../machines/company/partnerInterest.machine.ts'
import { Muted, PageCard, usePortal, useSelectedOrder } from '../../components/page.tsx'
import { Card } from '../../components/ui.tsx'
import { mq } from '../../theme.ts'
import type { PageProps } from '../page.ts'
import { ChooseCompany } from './ChooseCompany.tsx'
import { InterestButton } from './InterestButton.tsx'

const banks: { partner: Exclude<Partner, 'expert-comptable'>; name: string; tagline: string; offer: string[] }[] = [
  {
    partner: 'qonto',
    name: 'Qonto',
    tagline: 'Le compte professionnel en ligne des PME et des indépendants.',
    offer: [
      'Compte courant avec IBAN français',
      'Cartes Mastercard physiques et virtuelles',
      'Dépôt de capital en ligne pour une création',
      'Accès dédié pour votre expert-comptable',
    ],
  },
  {
    partner: 'shine',
    name: 'Shine',
    tagline: 'Le compte pro pensé pour les indépendants et les petites sociétés.',
    offer: [
      'Compte professionnel avec IBAN français',
      'Carte Mastercard et paiements mobiles',
      'Devis et factures depuis l’application',
      'Justificatifs rapprochés de chaque dépense',
    ],
  },
]

const Grid = styled('div')`
  display: grid;
  gap: 1rem;
  ${mq.desktop} { grid-template-columns: repeat(2, 1fr); }
  h3 { margin: 0 0 0.25rem; font-size: 1.2rem; }
  ul { margin: 0.75rem 0 1rem; padding-left: 1.2rem; }
  li { margin: 0.25rem 0; }
`

export default function TreasuryPage({ route }: PageProps) {
  const { startup } = usePortal()
  const order = useSelectedOrder(startup)
  if (!order)
    return <ChooseCompany startup={startup} title={route.title} why="Nos partenaires bancaires ouvrent un compte pour une société." />
  return (
    <PageCard aria-labelledby="treasury-title">
      <h2 id="treasury-title">Nos partenaires bancaires</h2>
      <p>
        Un compte professionnel pour <strong>{order.raisonSociale}</strong> : dites-nous lequel vous intéresse, le partenaire vous contacte.
        {order.isShareOrder && (
          <>
            {' '}
            <Muted>Géré par le titulaire de la domiciliation.</Muted>
          </>
        )}
      </p>
      <Grid>
        {banks.map((bank) => (
          <Card key={bank.partner} aria-labelledby={`bank-${bank.partner}`}>
            <h3 id={`bank-${bank.partner}`}>{bank.name}</h3>
            <Muted id={`bank-${bank.partner}-tagline`}>{bank.tagline}</Muted>
            <ul aria-label={`L’offre ${bank.name}`}>
              {bank.offer.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <InterestButton
              key={order.id}
              order={order}
              partner={bank.partner}
              label="Ça m'intéresse"
              name={`Ça m'intéresse : ${bank.name}`}
            />
          </Card>
        ))}
      </Grid>
    </PageCard>
  )
}
