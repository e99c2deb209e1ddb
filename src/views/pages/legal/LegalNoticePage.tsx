// /mentions-legales: who publishes the portal and who hosts it (loi n° 2004-575 du 21 juin 2004, LCEN, art. 6), and the
// prefectural approval of a domiciliation business (Code de commerce, L123-11-3). Public, bare layout.
import { LEGAL_PAGES } from '../../../../server/contract/rules/legal.ts'
import { LegalPage } from './LegalPage.tsx'
import { formatSiren } from './particulars.ts'

const PAGE = LEGAL_PAGES[0]

export default function LegalNoticePage() {
  return (
    <LegalPage title={PAGE.title} path={PAGE.path}>
      {(p) => (
        <>
          <p>
            Conformément à l’article 6 de la loi n° 2004-575 du 21 juin 2004 pour la confiance dans l’économie numérique, voici les
            informations relatives à l’éditeur et à l’hébergeur de l’espace client {p.brandName}.
          </p>
          <h2>Éditeur</h2>
          <dl>
            <dt>Dénomination sociale</dt>
            <dd>{p.name}</dd>
            <dt>Forme juridique</dt>
            <dd>
              {p.legalForm}
              {p.shareCapital ? `, au capital de ${p.shareCapital}` : ''}
            </dd>
            <dt>Numéro SIREN</dt>
            <dd>
              {formatSiren(p.siren)}
              {p.rcsCity ? ` (RCS ${p.rcsCity})` : ''}
            </dd>
            <dt>Siège social</dt>
            <dd>{p.address}</dd>
            <dt>Téléphone</dt>
            <dd>{p.phone}</dd>
            <dt>Adresse e-mail</dt>
            <dd>
              <a href={`mailto:${p.contactEmail}`}>{p.contactEmail}</a>
            </dd>
            <dt>Directeur ou directrice de la publication</dt>
            <dd>{p.publicationDirector}</dd>
          </dl>
          <h2>Agrément préfectoral</h2>
          <p>
            {p.name} exerce l’activité d’entreprise de domiciliation sous l’agrément préfectoral n° <strong>{p.prefectureApproval}</strong>,
            délivré en application de l’article L123-11-3 du Code de commerce.
          </p>
          <h2>Hébergeur</h2>
          <dl>
            <dt>Nom</dt>
            <dd>{p.hostName}</dd>
            <dt>Adresse</dt>
            <dd>{p.hostAddress}</dd>
            <dt>Téléphone</dt>
            <dd>{p.hostPhone}</dd>
          </dl>
          <h2>Propriété intellectuelle</h2>
          <p>
            Les textes, la marque {p.brandName}, les logos et la présentation de l’espace client appartiennent à {p.name} ou font l’objet
            d’une licence. Toute reproduction sans autorisation préalable est interdite, sauf dans les limites prévues par le Code de la
            propriété intellectuelle. Les documents déposés dans votre espace (courriers numérisés, pièces justificatives) restent les
            vôtres.
          </p>
          <h2>Données personnelles</h2>
          <p>
            La manière dont nous traitons vos données et les droits dont vous disposez sont décrits dans notre{' '}
            <a href={LEGAL_PAGES[1].path}>{LEGAL_PAGES[1].title.toLowerCase()}</a>.
          </p>
        </>
      )}
    </LegalPage>
  )
}
