// /conditions-generales: the general terms of use of the customer portal, which complete each domiciliation contract.
// Public, bare layout.
import { LEGAL_PAGES } from '../../../../server/contract/rules/legal.ts'
import { LegalPage } from './LegalPage.tsx'
import { formatSiren } from './particulars.ts'

const PAGE = LEGAL_PAGES[2]

export default function TermsPage() {
  return (
    <LegalPage title={PAGE.title} path={PAGE.path}>
      {(p) => (
        <>
          <h2>1. Objet</h2>
          <p>
            Les présentes conditions générales régissent l’utilisation de l’espace client {p.brandName}, édité par {p.name}, {p.legalForm},
            SIREN {formatSiren(p.siren)}, dont le siège est situé {p.address}, entreprise de domiciliation agréée sous le n°{' '}
            {p.prefectureApproval}. Elles complètent le contrat de domiciliation conclu entre {p.name} et l’entreprise domiciliée ; en cas
            de contradiction, le contrat de domiciliation prévaut.
          </p>
          <h2>2. Accès à l’espace client</h2>
          <p>
            L’espace client est réservé aux dirigeants des entreprises domiciliées et aux personnes qu’ils ont invitées à partager leur
            domiciliation. Vos identifiants sont personnels et confidentiels : vous êtes responsable de leur conservation et devez nous
            signaler sans délai toute utilisation dont vous n’êtes pas l’auteur. Nous pouvons suspendre un accès en cas d’usage frauduleux
            ou contraire aux présentes conditions.
          </p>
          <h2>3. Services proposés</h2>
          <p>
            L’espace client permet notamment de consulter le courrier reçu et numérisé, de demander sa réexpédition ou son envoi par e-mail,
            de suivre les colis, de gérer les abonnements, les factures et le moyen de paiement, de transmettre les pièces justificatives
            exigées par la réglementation et d’obtenir l’attestation de domiciliation. Le détail et le prix des services souscrits figurent
            dans le contrat de domiciliation et dans la rubrique « Souscription ».
          </p>
          <h2>4. Obligations de l’entreprise domiciliée</h2>
          <p>
            Conformément à l’article R123-168 du Code de commerce, l’entreprise domiciliée s’engage à utiliser effectivement et
            exclusivement l’adresse comme siège ou établissement, à nous informer de toute modification concernant son activité, sa forme
            juridique, son objet, le nom et l’adresse de ses dirigeants, et à nous remettre les pièces justificatives demandées. Elle
            s’engage à ne déposer dans l’espace client que des documents exacts et dont elle a le droit de disposer.
          </p>
          <h2>5. Prix, facturation et paiement</h2>
          <p>
            Les prix sont indiqués hors taxes et toutes taxes comprises lors de la souscription. Les abonnements sont payables d’avance par
            carte bancaire ; le paiement est traité par notre prestataire Stripe : nous ne voyons ni ne conservons les données de votre
            carte. Les factures sont mises à disposition dans l’espace client. En cas de retard de paiement, des pénalités au taux prévu par
            le contrat et l’indemnité forfaitaire de 40 € pour frais de recouvrement (article L441-10 du Code de commerce) sont exigibles.
          </p>
          <h2>6. Durée et résiliation</h2>
          <p>
            La durée du contrat de domiciliation, son renouvellement et le préavis de résiliation sont fixés par le contrat. La résiliation
            peut être demandée depuis l’espace client. À la fin du contrat, l’entreprise doit transférer son siège et nous en informer ;
            nous en avisons le greffe comme la loi nous y oblige.
          </p>
          <h2>7. Disponibilité et responsabilité</h2>
          <p>
            Nous mettons tout en œuvre pour que l’espace client soit accessible en permanence, sauf interruptions pour maintenance ou cas de
            force majeure. La numérisation d’un courrier ne remplace pas l’original, que nous conservons ou réexpédions selon vos
            instructions. Notre responsabilité ne saurait être engagée pour un dommage résultant d’une utilisation de l’espace client
            contraire aux présentes conditions ou d’identifiants mal protégés.
          </p>
          <h2>8. Données personnelles</h2>
          <p>
            Les traitements de données personnelles liés à l’espace client sont décrits dans notre{' '}
            <a href={LEGAL_PAGES[1].path}>{LEGAL_PAGES[1].title.toLowerCase()}</a>.
          </p>
          <h2>9. Modification des conditions</h2>
          <p>
            Nous pouvons faire évoluer ces conditions ; la version applicable est celle publiée sur cette page. Toute modification
            substantielle vous est notifiée par e-mail au moins un mois avant son entrée en vigueur.
          </p>
          <h2>10. Droit applicable et litiges</h2>
          <p>
            Les présentes conditions sont soumises au droit français. En cas de différend, les parties rechercheront d’abord une solution
            amiable en écrivant à <a href={`mailto:${p.contactEmail}`}>{p.contactEmail}</a> ; à défaut, le litige sera porté devant les
            juridictions compétentes dans le ressort du siège de {p.name}, sous réserve des règles d’ordre public contraires.
          </p>
        </>
      )}
    </LegalPage>
  )
}
