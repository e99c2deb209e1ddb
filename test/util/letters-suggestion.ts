// A test set for the order suggestion (server/services/order-suggestion.ts): French letters as a PDF's text layer or
// OCR gives them (line breaks, layout spaces, accents sometimes lost, digits misread), each with the order it is for
// (or none) and its sender. The candidates are eleven domiciliated companies, three of them Camille Martin's, and
// names chosen to be hard: one word (« Nova », « L'Éclair »), generic words only (« Groupe France Services »), one name
// inside another (« Atelier Lumière », « Atelier Lumière Nord »), an owner's surname inside a company's.
import type { CandidateOrder, Confidence, LetterText } from '../../server/services/order-suggestion.ts'

export const candidates: CandidateOrder[] = [
  { orderId: 101, raisonSociale: 'Boulangerie des Lilas SAS', siren: '823 456 785', ownerName: 'Camille Martin' },
  { orderId: 102, raisonSociale: 'Atelier Lumière SARL', siren: '912 345 675', ownerName: 'Camille Martin' },
  { orderId: 103, raisonSociale: 'Studio Nuage SAS', siren: '834 567 893', ownerName: 'Julien Moreau' },
  { orderId: 104, raisonSociale: 'Conseil Horizon EURL', siren: '945 678 902', ownerName: 'Camille Martin' },
  { orderId: 105, raisonSociale: 'Épicerie Solène SARL', siren: '856 789 011', ownerName: 'Sophie Bernard' },
  { orderId: 106, raisonSociale: 'SCI Les Tilleuls', siren: '802 045 120', ownerName: 'Marc Lefèvre' },
  { orderId: 107, raisonSociale: 'Nova SAS', siren: '790 123 459', ownerName: 'Inès Haddad' },
  { orderId: 108, raisonSociale: 'L’Éclair SASU', siren: '881 234 561', ownerName: 'Karim Benali' },
  { orderId: 109, raisonSociale: 'Transports Martin-Durand SARL', siren: '840 902 134', ownerName: 'Paul Durand' },
  { orderId: 110, raisonSociale: 'Atelier Lumière Nord SAS', siren: '908 172 638', ownerName: 'Élodie Roux' },
  { orderId: 111, raisonSociale: 'Groupe France Services SAS', siren: '812 304 566', ownerName: 'Thomas Petit' },
]

export interface SuggestionLetter {
  name: string
  text: LetterText
  /** The order the letter is for, or null when no order should be suggested. */
  expected: number | null
  /** With an expected order: how sure the suggestion should be. */
  confidence?: Confidence
  /** A word the reason must hold (the page, « deux sociétés possibles »…). */
  reasonHas?: string
  sender: string | null
}

/** A page as text: the template's lines, with the layout's leading spaces a text layer keeps. */
const page = (text: string) => text.replace(/^\n/, '')

const DOMICILE = `
                                  Domiciliée chez Domicilium
                                  12 rue de la Paix
                                  75002 PARIS`

export const letters: SuggestionLetter[] = [
  {
    name: 'URSSAF: a schedule, the SIREN in the references',
    text: [
      page(`URSSAF Île-de-France
Service Recouvrement
93518 Montreuil Cedex

                                  BOULANGERIE DES LILAS SAS${DOMICILE}

Montreuil, le 3 février 2027
Vos références : SIREN 823 456 785 - Compte 117 0000012345
Objet : Échéancier de vos cotisations sociales
Madame, Monsieur,
Vous trouverez ci-joint l'échéancier de vos cotisations et contributions sociales pour le trimestre à venir.
Les montants seront prélevés aux dates indiquées.`),
    ],
    expected: 101,
    confidence: 'sûr',
    reasonHas: 'SIREN 823 456 785 trouvé page 1',
    sender: 'URSSAF Île-de-France',
  },
  {
    name: 'DGFiP: a CFE notice, the SIRET written without spaces',
    text: [
      page(`DIRECTION GÉNÉRALE DES FINANCES PUBLIQUES
SERVICE DES IMPÔTS DES ENTREPRISES DE PARIS 2E
6 rue Paul Lelong 75002 Paris
                                  SAS STUDIO NUAGE
                                  12 RUE DE LA PAIX
                                  75002 PARIS
N° SIRET : 83456789300017
AVIS DE COTISATION FONCIÈRE DES ENTREPRISES 2027
Montant à payer : 512,00 € avant le 15 décembre 2027`),
    ],
    expected: 103,
    confidence: 'sûr',
    reasonHas: 'dans un SIRET',
    sender: 'Direction générale des Finances publiques',
  },
  {
    name: 'impots.gouv: a VAT reminder naming the VAT number only',
    text: [
      page(`impots.gouv.fr
Espace professionnel
Message de la Direction générale des Finances publiques
Destinataire : EPICERIE SOLENE
Numéro de TVA intracommunautaire : FR 32 856789011
Objet : Relance - déclaration de TVA de décembre 2026
Madame, Monsieur,
Sauf erreur de notre part, votre déclaration de TVA n'a pas été déposée.`),
    ],
    expected: 105,
    confidence: 'sûr',
    reasonHas: 'numéro de TVA',
    sender: 'Direction générale des Finances publiques',
  },
  {
    name: 'greffe: annual accounts not filed, RCS number under the address',
    text: [
      page(`GREFFE DU TRIBUNAL DE COMMERCE DE PARIS
1 quai de la Corse
75004 Paris
                                  EURL CONSEIL HORIZON${DOMICILE}
RCS Paris 945 678 902
Objet : Dépôt des comptes annuels - exercice clos le 31/12/2026
Madame, Monsieur,
Sauf erreur de notre part, les comptes annuels de la société n'ont pas encore été déposés au greffe.`),
    ],
    expected: 104,
    confidence: 'sûr',
    sender: 'Greffe du tribunal de commerce de Paris',
  },
  {
    name: 'greffe: a Kbis extract over two pages',
    text: [
      page(`Greffe du Tribunal de Commerce de Paris
EXTRAIT D'IMMATRICULATION PRINCIPALE AU REGISTRE DU COMMERCE ET DES SOCIÉTÉS
à jour au 12 janvier 2027
IDENTIFICATION DE LA PERSONNE MORALE
Immatriculation au RCS, numéro 912 345 675 R.C.S. Paris
Date d'immatriculation 04/05/2025
Dénomination ou raison sociale ATELIER LUMIERE
Forme juridique Société à responsabilité limitée
Capital social 5 000,00 Euros`),
      page(`RENSEIGNEMENTS RELATIFS AUX DIRIGEANTS
Gérant MARTIN Camille
ADRESSE DU SIÈGE 12 rue de la Paix 75002 Paris
Le Greffier`),
    ],
    expected: 102,
    confidence: 'sûr',
    sender: 'Greffe du tribunal de commerce de Paris',
  },
  {
    name: 'BNP Paribas: a statement, the name without accents nor legal form',
    text: [
      page(`BNP PARIBAS
Agence Entreprises Paris Opéra
16 boulevard des Italiens 75009 Paris
                                  EPICERIE SOLENE${DOMICILE}
RELEVÉ DE COMPTE PROFESSIONNEL n° 12
du 1er au 31 janvier 2027
Solde créditeur au 31/01/2027 : 4 512,30 €`),
    ],
    expected: 105,
    confidence: 'probable',
    reasonHas: 'dans l’adresse du destinataire, page 1',
    sender: 'BNP Paribas',
  },
  {
    name: 'Crédit Agricole: to the owner, then the company',
    text: [
      page(`Crédit Agricole d'Île-de-France
26 quai de la Rapée
75012 Paris
                                  Madame Sophie Bernard
                                  Épicerie Solène SARL${DOMICILE}
Paris, le 8 mars 2027
Objet : Proposition de financement de matériel
Madame,
Dans le cadre du renouvellement de vos équipements, nous vous proposons un crédit-bail.`),
    ],
    expected: 105,
    confidence: 'probable',
    sender: 'Crédit Agricole',
  },
  {
    name: 'a supplier’s invoice, its own SIREN in the footer',
    text: [
      page(`FACTURE
Moulins Bourgeois
Ferme de la Grange du Mont
77450 Verdelot
Client : BOULANGERIE DES LILAS
12 rue de la Paix 75002 Paris
Facture n° F-2027-0412 du 28/01/2027
Farine T65 Label Rouge 25 kg x 40     1 120,00
Total TTC : 1 344,00 €
Règlement à 30 jours fin de mois.
Moulins Bourgeois SAS au capital de 500 000 € - RCS Meaux 552 100 554 - TVA FR 05 552100554`),
    ],
    expected: 101,
    confidence: 'probable',
    sender: 'Moulins Bourgeois',
  },
  {
    name: 'an avis de mise en recouvrement',
    text: [
      page(`DIRECTION GÉNÉRALE DES FINANCES PUBLIQUES
Pôle de recouvrement spécialisé de Paris
94 rue Réaumur 75104 Paris Cedex 02
AVIS DE MISE EN RECOUVREMENT n° 2027/75/00123
                                  SCI LES TILLEULS
                                  12 rue de la Paix
                                  75002 Paris
Numéro SIREN : 802045120
Impôt : taxe foncière 2026 - Montant des droits : 3 210,00 €
Date d'exigibilité : 15 avril 2027`),
    ],
    expected: 106,
    confidence: 'sûr',
    sender: 'Direction générale des Finances publiques',
  },
  {
    name: 'a recommandé from a commissaire de justice, the hyphen lost',
    text: [
      page(`LETTRE RECOMMANDÉE AVEC AVIS DE RÉCEPTION
SCP Lefort & Associés
Commissaires de justice
14 boulevard de Sébastopol
75004 Paris
                                  TRANSPORTS MARTIN DURAND SARL
                                  À l'attention de M. Paul Durand, gérant${DOMICILE}
Objet : Sommation de payer
Maître,
Nous vous prions de bien vouloir régler sous huit jours la somme de 2 480,00 €.`),
    ],
    expected: 109,
    confidence: 'probable',
    sender: 'SCP Lefort & Associés',
  },
  {
    name: 'two companies: one in the address block, one in the body',
    text: [
      page(`Adobe France
Service facturation
18 rue Roger Simon-Barboux
94110 Arcueil
                                  STUDIO NUAGE SAS${DOMICILE}
Objet : Votre abonnement Creative Cloud Équipes
Madame, Monsieur,
À la demande de votre partenaire Boulangerie des Lilas, nous avons ajouté deux licences à votre abonnement.`),
    ],
    expected: 103,
    confidence: 'probable',
    sender: 'Adobe France',
  },
  {
    name: 'two companies in the address block: none',
    text: [
      page(`Cabinet Durand
Expertise comptable
40 rue Lafayette 75009 Paris
                                  Boulangerie des Lilas SAS
                                  Atelier Lumière SARL
                                  À l'attention de Madame Camille Martin${DOMICILE}
Objet : Lettre de mission 2027
Madame,
Vous trouverez ci-joint nos lettres de mission pour vos deux sociétés.`),
    ],
    expected: null,
    reasonHas: 'deux sociétés possibles : Boulangerie des Lilas SAS et Atelier Lumière SARL',
    sender: 'Cabinet Durand',
  },
  {
    name: 'two SIRENs (a merger): the one in the address block',
    text: [
      page(`Greffe du tribunal de commerce de Paris
1 quai de la Corse
75004 Paris
                                  BOULANGERIE DES LILAS SAS${DOMICILE}
Objet : Dépôt du projet de fusion
Madame, Monsieur,
Nous accusons réception du projet de traité de fusion-absorption de la société ATELIER LUMIERE SARL
(SIREN 912 345 675) par la société BOULANGERIE DES LILAS SAS (SIREN 823 456 785).`),
    ],
    expected: 101,
    confidence: 'sûr',
    reasonHas: 'dans l’adresse du destinataire',
    sender: 'Greffe du tribunal de commerce de Paris',
  },
  {
    name: 'URSSAF to a company that is not ours: none',
    text: [
      page(`URSSAF Île-de-France
93518 Montreuil Cedex
                                  DUPONT FRÈRES SARL
                                  8 avenue de Clichy
                                  75017 PARIS
SIREN 552 081 317
Objet : Mise en demeure
Madame, Monsieur,
Nous constatons qu'à ce jour les cotisations du 4e trimestre 2026 restent impayées.`),
    ],
    expected: null,
    sender: 'URSSAF Île-de-France',
  },
  {
    name: 'an advertisement to « le gérant »: none',
    text: [
      page(`OFFRE SPÉCIALE PROFESSIONNELS
Bureau Vallée
Le gérant${DOMICILE}
Madame, Monsieur,
Profitez de -20 % sur toutes vos fournitures de bureau jusqu'au 31 mars.`),
    ],
    expected: null,
    sender: 'Bureau Vallée',
  },
  {
    name: 'short and common names inside other words and names: none',
    text: [
      page(`Orange Business
Service clients
                                  LES JARDINS DE VÉNUS
                                  Résidence Les Tilleuls
                                  4 allée des Tilleuls
                                  92200 Neuilly-sur-Seine
Objet : Votre contrat d'éclairage et de fibre
Madame, Monsieur,
Comme un éclair, notre offre Bossa Nova d'innovation arrive chez vous : plus de débit, un éclairage connecté,
et l'accompagnement de nos conseillers France Services.`),
    ],
    expected: null,
    sender: 'Orange Business',
  },
  {
    name: 'a one-word name beside its legal form',
    text: [
      page(`Qonto
18 rue de Navarin
75009 Paris
                                  NOVA SAS${DOMICILE}
Objet : Votre nouvelle carte One
Madame, Monsieur,
Votre carte est jointe à ce courrier.`),
    ],
    expected: 107,
    confidence: 'probable',
    sender: 'Qonto',
  },
  {
    name: 'a one-word name alone on its line',
    text: [
      page(`EDF Entreprises
TSA 21941
62978 Arras Cedex 9
                                  NOVA${DOMICILE}
Votre facture d'électricité du 12/02/2027
Montant : 187,40 € prélevé le 27/02/2027`),
    ],
    expected: 107,
    confidence: 'probable',
    sender: 'EDF Entreprises',
  },
  {
    name: 'an elided one-word name with its legal form first',
    text: [
      page(`La Poste
Avis de passage
                                  SASU L'ÉCLAIR${DOMICILE}
Votre lettre recommandée n° 1A 234 567 8901 2 vous attend au bureau de poste de Paris Bourse.`),
    ],
    expected: 108,
    confidence: 'probable',
    sender: 'La Poste',
  },
  {
    name: 'the owner only, who has one company',
    text: [
      page(`AXA France
313 Terrasses de l'Arche
92727 Nanterre Cedex
                                  Monsieur Julien Moreau${DOMICILE}
Objet : Avis d'échéance - multirisque professionnelle
Monsieur,
Votre contrat arrive à échéance le 1er avril 2027.`),
    ],
    expected: 103,
    confidence: 'possible',
    reasonHas: 'Julien Moreau (titulaire)',
    sender: 'AXA France',
  },
  {
    name: 'the owner only, who has three companies: none',
    text: [
      page(`Assurance Maladie de Paris
75948 Paris Cedex 19
                                  Madame Camille Martin${DOMICILE}
Objet : Votre attestation de droits
Madame,
Veuillez trouver ci-joint votre attestation.`),
    ],
    expected: null,
    reasonHas: 'trois sociétés possibles : Boulangerie des Lilas SAS, Atelier Lumière SARL et Conseil Horizon EURL',
    sender: 'Assurance Maladie',
  },
  {
    name: 'the owner in the address block, one of her companies in the body',
    text: [
      page(`Cabinet Fidal
4-6 avenue d'Alsace
92400 Courbevoie
                                  Madame Camille MARTIN${DOMICILE}
Objet : Approbation des comptes
Madame,
Nous vous adressons le projet de procès-verbal d'approbation des comptes de la société Conseil Horizon.`),
    ],
    expected: 104,
    confidence: 'possible',
    reasonHas: '« Conseil Horizon EURL » cité page 1',
    sender: 'Cabinet Fidal',
  },
  {
    name: 'OCR: letters read as digits, a SIRET oddly spaced',
    text: [
      page(`URSSAF
Ile-de-France
                                  B0ULANGERIE DES L1LAS
                                  12 rue de la Paix
                                  75002 PARlS
N° SIRET  823 456 78 5  000 12
0bjet : Attestation de vigilance`),
    ],
    expected: 101,
    confidence: 'sûr',
    sender: 'URSSAF',
  },
  {
    name: 'OCR: a name broken over two lines, spaced-out legal form, accents lost',
    text: [
      page(`Metro France
5 rue des Grands Pres
92000 Nanterre
                                  EPICERIE
                                  SOLENE   S A R L
                                  12 rue de la   Paix
                                  75002 Paris
Releve de vos achats du mois de fevrier`),
    ],
    expected: 105,
    confidence: 'probable',
    sender: 'Metro France',
  },
  {
    name: 'OCR: a SIREN with the letter O for zeros',
    text: [
      page(`Direction generale des Finances publiques
SIE Paris 2e
                                  SCI LES TILLEULS
                                  12 rue de la Paix 75002 Paris
SIREN : 8O2 O45 12O
Objet : Avis de taxe foncière`),
    ],
    expected: 106,
    confidence: 'sûr',
    sender: 'Direction générale des Finances publiques',
  },
  {
    name: 'from one of our companies to another',
    text: [
      page(`Studio Nuage SAS
Design graphique
12 rue de la Paix 75002 Paris
                                  Boulangerie des Lilas SAS${DOMICILE}
Objet : Facture n° SN-2027-014 - refonte de votre identité visuelle
Madame, Monsieur,
Veuillez trouver ci-joint notre facture.
Studio Nuage SAS - SIREN 834 567 893 - TVA FR25834567893`),
    ],
    expected: 101,
    confidence: 'probable',
    sender: 'Studio Nuage SAS',
  },
  {
    name: 'a letter come back to its sender, one of our companies',
    text: [
      page(`STUDIO NUAGE
12 rue de la Paix
75002 Paris
                                  Madame Hélène Dupont
                                  3 rue des Acacias
                                  69003 Lyon
PLI NON DISTRIBUABLE - RETOUR À L'EXPÉDITEUR
Destinataire inconnu à l'adresse`),
    ],
    expected: 103,
    confidence: 'possible',
    reasonHas: 'en tête de la page 1',
    sender: 'STUDIO NUAGE',
  },
  {
    name: 'a name inside a longer one: the longer',
    text: [
      page(`Société Générale
Agence Paris Opéra
29 boulevard Haussmann 75009 Paris
                                  ATELIER LUMIERE NORD SAS${DOMICILE}
Objet : Ouverture de votre compte professionnel
Madame, Monsieur,
Nous avons le plaisir de vous confirmer l'ouverture de votre compte.`),
    ],
    expected: 110,
    confidence: 'probable',
    sender: 'Société Générale',
  },
  {
    name: 'the shorter name alone',
    text: [
      page(`Crédit Mutuel
Centre d'affaires Paris Centre
                                  Atelier Lumière${DOMICILE}
Objet : Votre demande de prêt
Madame, Monsieur,
Votre demande a bien été reçue.`),
    ],
    expected: 102,
    confidence: 'probable',
    sender: 'Crédit Mutuel',
  },
  {
    name: 'two pages, the SIREN on the second',
    text: [
      page(`INSEE
Direction régionale d'Île-de-France
                                  À l'attention du gérant${DOMICILE}
Objet : Enquête annuelle sur les entreprises
Madame, Monsieur,
Votre entreprise a été tirée au sort pour répondre à l'enquête ci-jointe.`),
      page(`Questionnaire - à retourner avant le 30 avril 2027
Identifiant SIREN : 834 567 893
Nombre de salariés au 31 décembre :`),
    ],
    expected: 103,
    confidence: 'sûr',
    reasonHas: 'page 2',
    sender: 'INSEE',
  },
  {
    name: 'a name made of generic words, with its legal form',
    text: [
      page(`Direction générale des Finances publiques
SIE Paris 2e
6 rue Paul Lelong 75002 Paris
                                  GROUPE FRANCE SERVICES SAS${DOMICILE}
Objet : Demande de remboursement de crédit de TVA
Madame, Monsieur,
Votre demande est en cours d'instruction.`),
    ],
    expected: 111,
    confidence: 'probable',
    sender: 'Direction générale des Finances publiques',
  },
  {
    name: 'a hyphen written as a spaced dash',
    text: [
      page(`Société Générale
Agence Paris Bourse
                                  TRANSPORTS MARTIN - DURAND${DOMICILE}
Objet : Renouvellement de votre ligne de crédit
Madame, Monsieur,
Votre ligne de crédit de trésorerie est renouvelée pour un an.`),
    ],
    expected: 109,
    confidence: 'probable',
    sender: 'Société Générale',
  },
  {
    name: 'a near-miss name (plural): none',
    text: [
      page(`Fnac Darty Pro
9 rue des Bateaux-Lavoirs
94200 Ivry-sur-Seine
                                  STUDIO NUAGES PHOTO
                                  5 rue Oberkampf
                                  75011 Paris
Objet : Votre commande n° 88412`),
    ],
    expected: null,
    sender: 'Fnac Darty Pro',
  },
  {
    name: 'a body mention while the recipient is another company: none',
    text: [
      page(`URSSAF Île-de-France
93518 Montreuil Cedex
                                  DUPONT FRÈRES SARL
                                  8 avenue de Clichy
                                  75017 PARIS
Objet : Obligation de vigilance
Madame, Monsieur,
En tant que sous-traitant de la société Studio Nuage, vous devez nous fournir une attestation.`),
    ],
    expected: null,
    reasonHas: 'n’est pas une de nos sociétés',
    sender: 'URSSAF Île-de-France',
  },
  {
    name: 'a bad scan: OCR read nothing',
    text: [
      page(`~ .. ,' ;:
 _ - ~~
.`),
    ],
    expected: null,
    sender: null,
  },
  {
    name: 'two owners in the address block: none',
    text: [
      page(`Notaires Associés Haussmann
58 boulevard Haussmann 75008 Paris
                                  Monsieur Julien Moreau
                                  Madame Sophie Bernard${DOMICILE}
Objet : Bail commercial - local du 4 rue Oberkampf
Madame, Monsieur,
Nous vous prions de trouver ci-joint le projet de bail.`),
    ],
    expected: null,
    reasonHas: 'deux sociétés possibles',
    sender: 'Notaires Associés Haussmann',
  },
  {
    name: 'the owner and his company, the hyphenated name whole',
    text: [
      page(`Assurance Maladie
CPAM de Paris
                                  Monsieur Paul Durand
                                  Transports Martin-Durand${DOMICILE}
Objet : Déclaration d'accident du travail
Monsieur,
Nous avons bien reçu la déclaration concernant votre salarié.`),
    ],
    expected: 109,
    confidence: 'probable',
    sender: 'Assurance Maladie',
  },
  {
    name: 'common words of the name in the body only, the name whole in the address',
    text: [
      page(`KPMG Expert-Comptable
Tour Eqho, 2 avenue Gambetta
92066 Paris La Défense
                                  Conseil Horizon EURL${DOMICILE}
Objet : Vos perspectives à l'horizon 2028
Madame, Monsieur,
Nos conseils pour préparer votre clôture.`),
    ],
    expected: 104,
    confidence: 'probable',
    sender: 'KPMG Expert-Comptable',
  },
  {
    name: 'a short name inside another company’s name: none',
    text: [
      page(`Banque Populaire Rives de Paris
76 avenue de France 75013 Paris
                                  NOVA CONSEIL SARL
                                  15 rue de Rome
                                  75008 Paris
Objet : Votre prêt professionnel`),
    ],
    expected: null,
    sender: 'Banque Populaire',
  },
  {
    name: 'one string, not pages: the reason names no page',
    text: `Shine
Néobanque des indépendants
                                  Épicerie Solène SARL${DOMICILE}
Objet : Votre relevé annuel de frais
Vous trouverez ci-joint le récapitulatif annuel. SIREN 856 789 011`,
    expected: 105,
    confidence: 'sûr',
    reasonHas: 'SIREN 856 789 011 trouvé dans le texte',
    sender: 'Shine',
  },
  {
    name: 'a VAT number written in one word in the body',
    text: [
      page(`Amazon Business EU SARL
38 avenue John F. Kennedy
L-1855 Luxembourg
Facture n° FR2027-8812345
Adresse de facturation
L'Eclair
12 rue de la Paix, 75002 Paris
Numéro de TVA de l'acheteur : FR26881234561
Total à payer 96,00 €`),
    ],
    expected: 108,
    confidence: 'sûr',
    sender: 'Amazon Business EU SARL',
  },
  {
    name: 'OCR read the recipient’s column first',
    text: [
      page(`BOULANGERIE DES LILAS
12 rue de la Paix
75002 Paris
URSSAF Ile-de-France
Service Recouvrement
93518 Montreuil Cedex
Objet : Attestation de vigilance
Madame, Monsieur,
Veuillez trouver ci-joint votre attestation.`),
    ],
    expected: 101,
    confidence: 'possible',
    sender: 'URSSAF Ile-de-France',
  },
  {
    name: 'OCR: one letter misread in a long word of the name',
    text: [
      page(`Orange Business
Service clients entreprises
                                  BOULANGCRIE DES LILAS${DOMICILE}
Objet : Votre facture du mois de mars`),
    ],
    expected: 101,
    confidence: 'probable',
    sender: 'Orange Business',
  },
  {
    name: 'OCR: l read as i in the longer name',
    text: [
      page(`LCL Professionnels
Agence Paris Bourse
                                  ATEIIER LUMIERE NORD${DOMICILE}
Objet : Votre carte professionnelle`),
    ],
    expected: 110,
    confidence: 'probable',
    sender: 'LCL',
  },
  {
    name: 'a lawyer’s letter to the president of the company',
    text: [
      page(`SELARL Bernard & Vasseur
Avocats au barreau de Paris
8 rue de Rivoli 75004 Paris
                                  Monsieur Julien MOREAU
                                  Président de la société STUDIO NUAGE${DOMICILE}
Objet : Mise en demeure
Monsieur le Président,
Notre cliente nous a chargés de recouvrer la somme de 4 200,00 €.`),
    ],
    expected: 103,
    confidence: 'probable',
    sender: 'SELARL Bernard & Vasseur',
  },
  {
    name: 'a copy to another of our companies at the end',
    text: [
      page(`Cabinet Durand
Expertise comptable
                                  Boulangerie des Lilas SAS${DOMICILE}
Objet : Clôture de l'exercice 2026
Madame,
Nous vous remercions de nous transmettre vos relevés bancaires.
Copie : Studio Nuage SAS`),
    ],
    expected: 101,
    confidence: 'probable',
    sender: 'Cabinet Durand',
  },
  {
    name: 'an invoice from one of our one-word companies to another of ours',
    text: [
      page(`NOVA SAS
Conseil en communication
12 rue de la Paix 75002 Paris
FACTURE n° NV-2027-031
                                  GROUPE FRANCE SERVICES SAS${DOMICILE}
Prestation de conseil - mars 2027     1 800,00
Total TTC 2 160,00 €
Nova SAS - SIREN 790 123 459`),
    ],
    expected: 111,
    confidence: 'probable',
    sender: 'NOVA SAS',
  },
]
