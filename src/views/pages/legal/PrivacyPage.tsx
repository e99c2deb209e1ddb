// /politique-de-confidentialite: the information owed to every person whose data the portal holds (RGPD art. 13): who
// is responsible, each purpose with its legal basis and retention, the recipients (the payment provider and the host
// among them), the rights and how to use them, the CNIL. Public, bare layout.
import { LEGAL_PAGES } from '../../../../server/contract/rules/legal.ts'
import { LegalPage } from './LegalPage.tsx'
import { formatSiren } from './particulars.ts'

const PAGE = LEGAL_PAGES[1]

/** Each purpose, its legal basis (RGPD art. 6) and how long its data is kept. */
const purposes: { purpose: string; basis: string; retention: string }[] = [
  {
    purpose: 'Créer et gérer votre compte, vous identifier et sécuriser l’accès à votre espace',
    basis: 'Exécution du contrat (art. 6.1.b du RGPD)',
    retention:
      'Pendant la durée de la relation contractuelle. Une session de connexion expire au bout de 30 jours ; les compteurs de tentatives de connexion sont effacés dès la fin de leur fenêtre.',
  },
  {
    purpose: 'Domicilier votre entreprise : recevoir, numériser, mettre à votre disposition et réexpédier votre courrier et vos colis',
    basis: 'Exécution du contrat de domiciliation (art. 6.1.b du RGPD)',
    retention:
      'Pendant la durée du contrat, puis douze mois après sa fin, pour vous laisser le temps de récupérer vos courriers ; un e-mail vous prévient un mois avant leur suppression, qui se fait alors d’elle-même.',
  },
  {
    purpose:
      'Vérifier l’identité du dirigeant et de l’entreprise domiciliée, tenir le dossier de domiciliation et répondre aux demandes des autorités',
    basis:
      'Obligation légale (art. 6.1.c du RGPD) : articles L123-11-2 et R123-168 du Code de commerce, articles L561-5 et suivants du Code monétaire et financier',
    retention: 'Cinq ans après la fin de la relation (article L561-12 du Code monétaire et financier).',
  },
  {
    purpose: 'Facturer nos services, encaisser les paiements et tenir notre comptabilité',
    basis: 'Exécution du contrat et obligation légale (art. 6.1.b et 6.1.c du RGPD)',
    retention: 'Factures et pièces comptables : dix ans à compter de la clôture de l’exercice (article L123-22 du Code de commerce).',
  },
  {
    purpose: 'Vous prévenir par e-mail (nouveau courrier, échéances, sécurité de votre compte) selon vos préférences',
    basis:
      'Exécution du contrat (art. 6.1.b du RGPD) ; pour les e-mails de sécurité, notre intérêt légitime à protéger votre compte (art. 6.1.f)',
    retention: 'Vos choix de notification sont conservés tant que votre compte existe.',
  },
  {
    purpose: 'Répondre à vos messages et signalements, et garder la trace des actions de nos opérateurs sur votre dossier',
    basis: 'Exécution du contrat et intérêt légitime à pouvoir rendre compte de nos interventions (art. 6.1.b et 6.1.f du RGPD)',
    retention:
      'Pendant la durée de la relation contractuelle, puis le temps de la prescription applicable (cinq ans en matière commerciale).',
  },
]

export default function PrivacyPage() {
  return (
    <LegalPage title={PAGE.title} path={PAGE.path}>
      {(p) => (
        <>
          <p>
            Cette politique vous informe, conformément à l’article 13 du règlement (UE) 2016/679 (RGPD) et à la loi n° 78-17 du 6 janvier
            1978 dite « Informatique et Libertés », de la manière dont {p.name} traite les données personnelles des utilisateurs de l’espace
            client {p.brandName}.
          </p>
          <h2>Responsable du traitement</h2>
          <p>
            {p.name}, {p.legalForm}, SIREN {formatSiren(p.siren)}, {p.address}. Pour toute question sur vos données :{' '}
            <a href={`mailto:${p.privacyEmail}`}>{p.privacyEmail}</a>.
          </p>
          <h2>Finalités, bases légales et durées de conservation</h2>
          {/* A list, not a table: at 360 px a three-column table would scroll sideways. */}
          <ul aria-label="Finalités du traitement">
            {purposes.map((row) => (
              <li key={row.purpose}>
                <h3>{row.purpose}</h3>
                <dl>
                  <dt>Base légale</dt>
                  <dd>{row.basis}</dd>
                  <dt>Durée de conservation</dt>
                  <dd>{row.retention}</dd>
                </dl>
              </li>
            ))}
          </ul>
          <p>
            Les données d’identité de l’entreprise et de son dirigeant sont exigées par la loi pour conclure un contrat de domiciliation :
            sans elles, nous ne pouvons pas vous domicilier. Aucune décision produisant des effets juridiques à votre égard n’est prise sur
            le seul fondement d’un traitement automatisé ; la lecture automatique de vos courriers (reconnaissance de texte, échéances
            repérées) sert uniquement à vous les présenter.
          </p>
          <h2>Destinataires</h2>
          <ul>
            <li>les membres habilités de notre personnel, chacun pour ce que sa fonction exige (courrier, conformité, administration) ;</li>
            <li>
              notre prestataire de paiement, Stripe Payments Europe, Limited (Dublin, Irlande), qui reçoit les données de votre carte
              bancaire : nous ne les voyons ni ne les conservons ;
            </li>
            <li>
              notre hébergeur, {p.hostName} ({p.hostAddress}), qui héberge l’espace client, vos courriers numérisés et vos documents ;
            </li>
            <li>notre prestataire d’envoi d’e-mails, pour les messages que nous vous adressons ;</li>
            <li>
              les personnes que vous invitez à partager votre domiciliation, pour les courriers de celle-ci, et les destinataires auxquels
              vous demandez d’envoyer un courrier ;
            </li>
            <li>
              les autorités habilitées (administration fiscale, greffe, commissaires de justice, Tracfin), dans les cas prévus par la loi,
              notamment l’article R123-168 du Code de commerce.
            </li>
          </ul>
          <p>
            Stripe peut transférer certaines données vers les États-Unis ; ces transferts sont encadrés par la décision d’adéquation de la
            Commission européenne du 10 juillet 2023 (Data Privacy Framework) et par des clauses contractuelles types.
          </p>
          <h2>Pas de traceur, pas de publicité</h2>
          <p>
            L’espace client ne dépose aucun cookie de mesure d’audience ni de publicité et n’envoie aucune requête à un tiers tant que vous
            ne l’avez pas demandé : la vidéo de présentation n’est chargée depuis son hébergeur que si vous cliquez dessus, et le formulaire
            de carte bancaire de Stripe n’est chargé que lorsque vous ouvrez le formulaire d’une nouvelle carte. Les seules données
            enregistrées dans votre navigateur servent à vous garder connecté ; elles sont strictement nécessaires au service et ne
            demandent donc pas votre consentement (article 82 de la loi Informatique et Libertés) : c’est pourquoi aucun bandeau de cookies
            ne vous est présenté.
          </p>
          <h2>Vos droits</h2>
          <p>
            Vous disposez d’un droit d’accès (article 15 du RGPD), de rectification (article 16), d’effacement (article 17), de limitation
            (article 18), de portabilité (article 20) et d’opposition (article 21) sur vos données, ainsi que du droit de définir des
            directives relatives à leur sort après votre décès (article 85 de la loi Informatique et Libertés). Certains droits s’exercent
            dans les limites de nos obligations légales : nous devons par exemple conserver les factures et le dossier d’identification
            pendant les durées indiquées ci-dessus.
          </p>
          <p>
            Pour exercer vos droits, écrivez-nous à <a href={`mailto:${p.privacyEmail}`}>{p.privacyEmail}</a> ou par courrier à {p.name},{' '}
            {p.address}. Nous vous répondrons dans un délai d’un mois, qui peut être prolongé de deux mois si la demande est complexe ; nous
            vous en informerons alors. Nous pourrons vous demander de justifier de votre identité en cas de doute raisonnable. Vous pouvez
            aussi modifier vous-même vos informations personnelles et vos préférences de notification depuis votre espace, et y fermer votre
            compte (« Informations personnelles ») une fois vos domiciliations résiliées : vos accès et vos données personnelles sont alors
            effacés, seul restant ce que la loi nous oblige à conserver.
          </p>
          <h2>Réclamation auprès de la CNIL</h2>
          <p>
            Si vous estimez que vos droits ne sont pas respectés, vous pouvez adresser une réclamation à la Commission nationale de
            l’informatique et des libertés (CNIL), 3 place de Fontenoy, TSA 80715, 75334 Paris Cedex 07, ou en ligne sur{' '}
            <a href="https://www.cnil.fr/fr/plaintes">www.cnil.fr</a>.
          </p>
        </>
      )}
    </LegalPage>
  )
}
