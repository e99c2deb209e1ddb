// /declaration-accessibilite: the accessibility statement, on the model of the RGAA (référentiel général d'amélioration
// de l'accessibilité, version 4.1.2): the commitment, the state of compliance, what was checked and what was not, the
// contents known not to be accessible, the contact and the remedies. Public, bare layout. What it says was checked is
// what the browser tests do (test/e2e/a11y.test.ts, keyboard.test.ts): keep both true together.
import { LEGAL_PAGES } from '../../../../server/contract/rules/legal.ts'
import { LegalPage } from './LegalPage.tsx'

const PAGE = LEGAL_PAGES[3]

/** When this statement was last drawn up (the RGAA model dates it). */
export const STATEMENT_DATE = '6 décembre 2026'

export default function AccessibilityPage() {
  return (
    <LegalPage title={PAGE.title} path={PAGE.path}>
      {(p) => (
        <>
          <p>
            {p.name} s’engage à rendre son espace client accessible, conformément à l’article 47 de la loi n° 2005-102 du 11 février 2005.
            Cette déclaration d’accessibilité s’applique à l’espace client {p.brandName} ({p.publicUrl}).
          </p>
          <h2>État de conformité</h2>
          <p>
            L’espace client {p.brandName} est <strong>non conforme</strong> avec le référentiel général d’amélioration de l’accessibilité
            (RGAA), version 4.1.2 : il n’a pas encore fait l’objet d’un audit de conformité portant sur l’ensemble des critères du
            référentiel.
          </p>
          <h2>Ce qui a été vérifié</h2>
          <p>En attendant un audit, les vérifications suivantes sont faites à chaque évolution de l’espace client :</p>
          <ul>
            <li>
              un contrôle automatique avec l’outil axe-core (règles WCAG 2.1 de niveaux A et AA), sans aucune anomalie grave ou critique
              admise, sur chaque page : connexion (avec ses messages d’erreur), mot de passe oublié, choix du mot de passe, documents
              manquants, les quatre pages d’informations légales, puis, une fois connecté, le choix de la domiciliation, chaque page du
              menu, les fenêtres de dialogue, le menu mobile et les notifications ;
            </li>
            <li>ces mêmes pages affichées sur un écran de 360 pixels de large, comme sur un téléphone, et de 1 280 pixels ;</li>
            <li>
              un parcours réalisé uniquement au clavier (touches Tabulation, Entrée, Espace et Échap) : connexion, choix de la domiciliation
              et dépôt d’un justificatif.
            </li>
          </ul>
          <h2>Ce qui n’a pas été vérifié</h2>
          <ul>
            <li>les 106 critères du RGAA, dont une grande partie ne peut être contrôlée que manuellement ;</li>
            <li>l’utilisation avec un lecteur d’écran (NVDA, JAWS, VoiceOver, TalkBack) ;</li>
            <li>la navigation au clavier sur les parcours autres que celui décrit ci-dessus ;</li>
            <li>l’agrandissement du texte à 200 % et les préférences d’affichage personnalisées ;</li>
            <li>les documents PDF et les contenus fournis par des tiers.</li>
          </ul>
          <h2>Contenus non accessibles</h2>
          <ul>
            <li>
              les documents PDF produits par l’espace client (factures, attestations, contrats) ne sont pas encore balisés pour les
              technologies d’assistance ;
            </li>
            <li>
              les courriers numérisés sont des images : le texte qui les accompagne est obtenu par reconnaissance automatique et peut
              comporter des erreurs ;
            </li>
            <li>
              le champ de carte bancaire de notre prestataire de paiement et la vidéo de présentation sont fournis par des tiers ; leur
              accessibilité ne dépend pas de nous.
            </li>
          </ul>
          <h2>Établissement de cette déclaration</h2>
          <p>Cette déclaration a été établie le {STATEMENT_DATE}.</p>
          <p>
            Technologies utilisées : HTML5, CSS, JavaScript, WAI-ARIA. Environnement de test : navigateur Chromium, sous Linux. Outil
            utilisé : axe-core.
          </p>
          <h2>Retour d’information et contact</h2>
          <p>
            Si vous n’arrivez pas à accéder à un contenu ou à un service, contactez-nous pour être orienté vers une alternative accessible
            ou obtenir le contenu sous une autre forme : par e-mail à <a href={`mailto:${p.contactEmail}`}>{p.contactEmail}</a>, par
            téléphone au {p.phone} ou par courrier à {p.name}, {p.address}.
          </p>
          <h2>Voies de recours</h2>
          <p>
            Si vous nous avez signalé un défaut d’accessibilité qui vous empêche d’accéder à un contenu ou à un service et que vous n’avez
            pas obtenu de réponse satisfaisante, vous pouvez :
          </p>
          <ul>
            <li>
              écrire un message au Défenseur des droits (
              <a href="https://formulaire.defenseurdesdroits.fr/">formulaire.defenseurdesdroits.fr</a>) ;
            </li>
            <li>
              contacter le délégué du Défenseur des droits dans votre région (
              <a href="https://www.defenseurdesdroits.fr/saisir/delegues">www.defenseurdesdroits.fr/saisir/delegues</a>) ;
            </li>
            <li>appeler le Défenseur des droits au 09 69 39 00 00 ;</li>
            <li>envoyer un courrier, gratuitement et sans timbre, à : Défenseur des droits, Libre réponse 71120, 75342 Paris CEDEX 07.</li>
          </ul>
        </>
      )}
    </LegalPage>
  )
}
