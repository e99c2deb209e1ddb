// The demo data ("Demo data"): seeded once, on first start; tests seed the same.
import type { Kysely, Transaction } from 'kysely'
import { hashPassword } from '../lib/crypto.ts'
import type { OperatorRole } from '../contract/route-def.ts'
import { newCertificateCode } from '../services/certificate-code.ts'
import type { LetterContent } from '../services/pdf.ts'
import type { Provider } from '../services/billing-pdf.ts'
import { documentProvider, frenchVatNumber, loadConfig } from '../config.ts'
import { testProviderRows } from '../services/payment.ts'
import { plans } from '../services/plans.ts'
import { newFileKey, storeWithRecord, type Storage } from '../services/storage.ts'
import { addDays } from '../lib/time.ts'
// mail pipeline
import { enqueueLetterPipelines } from '../services/mail-pipeline.ts'
import type { Database, MissingDocumentRow } from '../db/schema.ts'
// notifications
import { seedNotifications } from './seed-notifications.ts'

export const DEMO_PASSWORD = 'Demo1234!'
export const demoAccounts = [
  {
    email: 'demo@example.com',
    firstname: 'Camille',
    lastname: 'Martin',
    phone: '06 12 34 56 78',
    note: 'quatre domiciliations, dont une partagée',
  },
  {
    email: 'associe@example.com',
    firstname: 'Julien',
    lastname: 'Moreau',
    phone: '06 98 76 54 32',
    note: 'titulaire de Studio Nuage, collaborateur de la Boulangerie des Lilas',
  },
  { email: 'solo@example.com', firstname: 'Sophie', lastname: 'Bernard', phone: null, note: 'une seule domiciliation' },
] as const

/**
 * The demo's back-office operators, already enrolled: their TOTP secrets are fixed and written in README so that anyone
 * trying the demo can add them to an authenticator app. Demo data only: a real operator's secret is made at random when
 * they are invited, and shown once, on their enrolment page.
 */
export const demoOperators = [
  { email: 'operateur@example.com', name: 'Inès Garnier', roles: ['admin'], totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' },
  { email: 'courrier@example.com', name: 'Hugo Lemaire', roles: ['courrier'], totpSecret: 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU' },
] as const satisfies readonly { email: string; name: string; roles: readonly OperatorRole[]; totpSecret: string }[]

const SEED_KEY = 'demo_seeded_at'
const ADDRESS = '12 rue de la Paix, 75002 Paris'

interface File {
  key: string
  bytes: Uint8Array
}
type Tx = Transaction<Database>

// One hash for the shared demo password: hashing it per account would only slow every test file down.
let demoHash: Promise<string> | undefined

const daysAgo = (now: Date, days: number, hour = 9) => {
  const date = addDays(now, -days)
  date.setUTCHours(hour, 15, 0, 0)
  return date > now ? addDays(date, -1) : date
}

/** A meeting-room booking at 10:00 UTC about `days` ago (negative: to come), on a weekday. */
const meetingDate = (now: Date, days: number) => {
  let date = addDays(now, -days)
  date.setUTCHours(10, 0, 0, 0)
  while (date.getUTCDay() === 0 || date.getUTCDay() === 6) date = addDays(date, days < 0 ? 1 : -1)
  return date
}

interface LetterModel {
  sender: string
  senderAddress: string[]
  kind: 'courrier' | 'recommandé' | 'administratif'
  subject: string
  paragraphs: string[]
  pages?: number
  folder?: string
}

const letterModels: LetterModel[] = [
  {
    sender: 'URSSAF Île-de-France',
    senderAddress: ['Service Recouvrement', '93518 Montreuil Cedex'],
    kind: 'administratif',
    folder: 'Administratif',
    subject: 'Échéancier de vos cotisations sociales',
    paragraphs: [
      'Vous trouverez ci-joint l’échéancier de vos cotisations et contributions sociales pour le trimestre à venir.',
      'Les montants seront prélevés aux dates indiquées sur le compte bancaire que vous nous avez communiqué.',
    ],
  },
  {
    sender: 'Service des impôts des entreprises de Paris 2e',
    senderAddress: ['6 rue Paul Lelong', '75002 Paris'],
    kind: 'administratif',
    folder: 'Administratif',
    subject: 'Avis de cotisation foncière des entreprises',
    paragraphs: [
      'Votre avis de cotisation foncière des entreprises (CFE) est disponible dans votre espace professionnel sur impots.gouv.fr.',
      'Le montant est à régler avant le 15 décembre par prélèvement ou paiement en ligne.',
    ],
  },
  {
    sender: 'Greffe du tribunal de commerce de Paris',
    senderAddress: ['1 quai de la Corse', '75004 Paris'],
    kind: 'recommandé',
    folder: 'Administratif',
    subject: 'Dépôt des comptes annuels',
    paragraphs: [
      'Sauf erreur de notre part, les comptes annuels du dernier exercice clos n’ont pas encore été déposés au greffe.',
      'Nous vous invitons à procéder à ce dépôt dans les meilleurs délais afin d’éviter toute injonction.',
    ],
    pages: 2,
  },
  {
    sender: 'BNP Paribas Entreprises',
    senderAddress: ['16 boulevard des Italiens', '75009 Paris'],
    kind: 'courrier',
    folder: 'Banque',
    subject: 'Relevé de compte professionnel',
    paragraphs: [
      'Veuillez trouver ci-joint le relevé mensuel de votre compte professionnel.',
      'Votre conseiller reste à votre disposition pour toute question.',
    ],
    pages: 2,
  },
  {
    sender: 'Crédit Agricole d’Île-de-France',
    senderAddress: ['26 quai de la Rapée', '75012 Paris'],
    kind: 'courrier',
    folder: 'Banque',
    subject: 'Proposition de financement de matériel',
    paragraphs: [
      'Dans le cadre du renouvellement de vos équipements, nous vous proposons un crédit-bail à taux préférentiel.',
      'Contactez votre agence pour en étudier les modalités.',
    ],
  },
  {
    sender: 'Moulins Bourgeois',
    senderAddress: ['Ferme de la Grange du Mont', '77450 Verdelot'],
    kind: 'courrier',
    folder: 'Fournisseurs',
    subject: 'Facture de farines et levains',
    paragraphs: [
      'Veuillez trouver ci-joint notre facture pour les livraisons de farines du mois écoulé.',
      'Règlement à 30 jours fin de mois.',
    ],
  },
  {
    sender: 'EDF Entreprises',
    senderAddress: ['TSA 21941', '62978 Arras Cedex 9'],
    kind: 'courrier',
    folder: 'Fournisseurs',
    subject: 'Votre facture d’électricité',
    paragraphs: [
      'Votre facture d’électricité pour la période écoulée est jointe à ce courrier.',
      'Le prélèvement interviendra à la date indiquée.',
    ],
  },
  {
    sender: 'AXA France',
    senderAddress: ['313 Terrasses de l’Arche', '92727 Nanterre Cedex'],
    kind: 'courrier',
    subject: 'Avis d’échéance multirisque professionnelle',
    paragraphs: [
      'Votre contrat multirisque professionnelle arrive à échéance.',
      'La prime annuelle sera prélevée selon l’échéancier habituel.',
    ],
  },
  {
    sender: 'Métro France',
    senderAddress: ['5 rue des Grands Prés', '92000 Nanterre'],
    kind: 'courrier',
    folder: 'Fournisseurs',
    subject: 'Relevé de factures',
    paragraphs: ['Vous trouverez ci-joint le relevé de vos achats du mois.', 'Merci de votre fidélité.'],
  },
  {
    sender: 'Ville de Paris',
    senderAddress: ['Direction des Finances', '75196 Paris Cedex 04'],
    kind: 'administratif',
    subject: 'Taxe locale sur la publicité extérieure',
    paragraphs: [
      'Nous vous rappelons l’obligation de déclarer vos enseignes avant le 1er mars.',
      'Le formulaire de déclaration est joint à ce courrier.',
    ],
  },
]

interface OrderSeed {
  owner: string
  raisonSociale: string
  siren: string
  legalForm: string
  status: string
  hasKbis: boolean
  /** The team checked the Kbis (two days after the contract was signed). */
  kbisValidated?: boolean
  orderDaysAgo: number
  missingDocuments?: MissingDocumentRow[]
  plan: 'domiciliation-mensuelle' | 'domiciliation-annuelle'
  options?: string[]
  card?: boolean
  letters: number
  folders?: string[]
  packages?: [number, string, string, 'À retirer' | 'Réexpédié' | 'Retiré'][]
  courierRequests?: [number, 'réexpédition' | 'scan', 'en attente' | 'traitée', number][]
  invoiceMonths: number[]
  unpaidLatest?: boolean
  creditNote?: boolean
  /** Meeting-room bookings: [days ago (negative: to come), room, hours], each billed by its own invoice. */
  meetings?: [number, string, number][]
  /** company area: legal formalities already ordered, with the step reached. */
  legalSubmissions?: { kind: string; status: 'Reçue' | 'En cours' | 'Déposée au greffe' | 'Terminée'; daysAgo: number; comment?: string }[]
  shares?: string[]
  mandataire?: { firstname: string; lastname: string; email: string; phone: string }
  forwarding?: [string, string, string, string]
  /** billing: a domiciliation certificate the owner downloaded that many days ago. */
  certificateDaysAgo?: number
}

const orderSeeds: OrderSeed[] = [
  {
    owner: 'demo@example.com',
    raisonSociale: 'Atelier Lumière SARL',
    siren: '912 345 675',
    legalForm: 'SARL',
    status: 'En attente de KBIS',
    hasKbis: false,
    orderDaysAgo: 20,
    plan: 'domiciliation-mensuelle',
    letters: 0,
    invoiceMonths: [0],
  },
  {
    owner: 'demo@example.com',
    raisonSociale: 'Boulangerie des Lilas SAS',
    siren: '823 456 785',
    legalForm: 'SAS',
    status: 'Finalisé',
    hasKbis: true,
    orderDaysAgo: 820,
    plan: 'domiciliation-annuelle',
    options: ['option-scan-annuelle'],
    card: true,
    letters: 32,
    folders: ['Administratif', 'Banque', 'Fournisseurs'],
    packages: [
      [2, 'Colissimo', 'Moulins Bourgeois', 'À retirer'],
      [6, 'UPS', 'Bureau Vallée', 'À retirer'],
      [21, 'Chronopost', 'Métro France', 'Retiré'],
      [47, 'DHL Express', 'Matfer Bourgeat', 'Réexpédié'],
    ],
    courierRequests: [
      [3, 'réexpédition', 'en attente', 4],
      [12, 'scan', 'traitée', 2],
      [40, 'réexpédition', 'traitée', 6],
    ],
    invoiceMonths: [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22],
    unpaidLatest: true,
    creditNote: true,
    meetings: [
      [-6, 'Salle Haussmann', 1.5],
      [9, 'Salle Haussmann', 2],
      [35, 'Salle Opéra', 3.5],
    ],
    legalSubmissions: [
      {
        kind: 'modification-capital',
        status: 'Terminée',
        daysAgo: 300,
        comment: 'Augmentation du capital de 10 000 € à 25 000 € par apport en numéraire.',
      },
    ],
    shares: ['associe@example.com', 'cabinet.durand@example.com'],
    mandataire: { firstname: 'Léa', lastname: 'Fontaine', email: 'lea.fontaine@example.com', phone: '06 45 23 17 89' },
    forwarding: ['27 rue des Lilas', '75019', 'Paris', 'France'],
    certificateDaysAgo: 30,
  },
  {
    owner: 'associe@example.com',
    raisonSociale: 'Studio Nuage SAS',
    siren: '834 567 893',
    legalForm: 'SAS',
    status: 'Finalisé',
    hasKbis: true,
    kbisValidated: true,
    orderDaysAgo: 540,
    plan: 'domiciliation-mensuelle',
    card: true,
    letters: 8,
    folders: ['Clients'],
    packages: [
      [4, 'Colissimo', 'LDLC Pro', 'À retirer'],
      [30, 'GLS', 'Adobe France', 'Retiré'],
    ],
    courierRequests: [
      [5, 'scan', 'en attente', 2],
      [28, 'réexpédition', 'traitée', 3],
    ],
    invoiceMonths: [0, 1, 2, 3, 4, 5],
    creditNote: false,
    shares: ['demo@example.com'],
    legalSubmissions: [
      { kind: 'changement-dirigeant', status: 'En cours', daysAgo: 12, comment: 'Nomination de Julien Moreau comme président.' },
    ],
  },
  {
    owner: 'demo@example.com',
    raisonSociale: 'Conseil Horizon EURL',
    siren: '945 678 902',
    legalForm: 'EURL',
    status: 'En attente de pièces justificatives',
    hasKbis: false,
    orderDaysAgo: 6,
    missingDocuments: [{ type: 'identity_manager', label: 'Pièce d’identité du gérant' }],
    plan: 'domiciliation-mensuelle',
    letters: 0,
    invoiceMonths: [0],
  },
  {
    owner: 'solo@example.com',
    raisonSociale: 'Épicerie Solène SARL',
    siren: '856 789 011',
    legalForm: 'SARL',
    status: 'Finalisé',
    hasKbis: true,
    kbisValidated: true,
    orderDaysAgo: 400,
    plan: 'domiciliation-mensuelle',
    card: true,
    letters: 5,
    packages: [[8, 'Colissimo', 'Épices Roellinger', 'À retirer']],
    courierRequests: [[15, 'scan', 'traitée', 1]],
    invoiceMonths: [0, 1, 2],
  },
]

/** True when this call seeded the database, false when it already was (seeding happens once). */
export async function seedDemo(
  db: Kysely<Database>,
  storage: Storage,
  options: { now: Date; brandName: string; seller?: Provider },
): Promise<boolean> {
  if (await db.selectFrom('app_meta').select('key').where('key', '=', SEED_KEY).executeTakeFirst()) return false
  // pdf-lib loads only when there is something to draw: a start on a seeded database never compiles it.
  const { letterPdf } = await import('../services/pdf.ts')
  const { billPdf } = await import('../services/billing-pdf.ts')
  const { now, brandName } = options
  // The invoices name the configured provider; the demo's particulars when the caller gives none.
  const seller = options.seller ?? documentProvider({ ...loadConfig({}), brandName })!
  // argon2 hashes on libuv's threads: started now, it runs while the PDFs below are drawn on this one.
  demoHash ??= hashPassword(DEMO_PASSWORD)
  demoHash.catch(() => {}) // awaited below; not an unhandled rejection should a PDF fail first
  const files: File[] = []
  const pdf = async (area: string, bytes: Promise<Uint8Array>) => {
    const key = newFileKey(area, 'pdf')
    files.push({ key, bytes: await bytes })
    return key
  }

  // Every PDF is made before the transaction, so the transaction stays short and holds no generation work.
  const prepared: Prepared[] = []
  for (const seed of orderSeeds) {
    const letters: Prepared['letters'] = []
    for (let i = 0; i < seed.letters; i++) {
      const model = letterModels[(i * 7 + seed.raisonSociale.length) % letterModels.length]!
      // Spread over the last six months, newest first.
      const receivedAt = daysAgo(now, Math.floor((i * 178) / Math.max(1, seed.letters - 1)), 8 + (i % 5))
      const content: LetterContent = {
        sender: model.sender,
        senderAddress: model.senderAddress,
        recipient: [seed.raisonSociale, `Domiciliée chez ${brandName}`, ...ADDRESS.split(', ')],
        place: model.senderAddress
          .at(-1)!
          .replace(/^\d+\s*/, '')
          .replace(/ Cedex.*$/, ''),
        date: addDays(receivedAt, -2),
        subject: model.subject,
        paragraphs: model.paragraphs,
        pages: model.pages,
      }
      letters.push({ model, receivedAt, read: i >= 6, deleted: i === 9, key: await pdf('documents', letterPdf(content)) })
    }
    const customer = [seed.raisonSociale, `SIREN ${seed.siren}`, ...ADDRESS.split(', ')]
    // Every demo company is liable to VAT: its number is the French one of its SIREN.
    const customerVatNumber = frenchVatNumber(seed.siren)
    const bill = { seller, customer, customerVatNumber }
    const price = plans[seed.plan]!
    const invoices: Prepared['invoices'] = []
    for (const [n, months] of seed.invoiceMonths.entries()) {
      const date = daysAgo(now, months * 30 + 1)
      const yearly = seed.plan === 'domiciliation-annuelle'
      const lines =
        yearly && months % 12 !== 0
          ? [{ label: 'Réexpédition du courrier (frais postaux)', amountExclTaxCents: 1850 + (months % 5) * 310 }]
          : [{ label: price.nickname, amountExclTaxCents: price.amount }]
      const number = `FA-${date.getUTCFullYear()}-${String(seed.siren.replace(/\D/g, '').slice(0, 3))}${String(n + 1).padStart(3, '0')}`
      const paid = !(seed.unpaidLatest && n === 0)
      const excl = lines.reduce((s, l) => s + l.amountExclTaxCents, 0)
      invoices.push({
        number,
        date,
        excl,
        incl: Math.round(excl * 1.2),
        paid,
        key: await pdf('invoices', billPdf({ ...bill, title: 'Facture', number, date, dueDate: date, lines, paid })),
      })
    }
    const creditSource = seed.creditNote ? invoices[3] : undefined
    const creditNote = creditSource && {
      number: creditSource.number.replace('FA-', 'AV-'),
      date: addDays(creditSource.date, 5),
      excl: 1000,
      incl: 1200,
      key: await pdf(
        'creditnotes',
        billPdf({
          ...bill,
          title: 'Avoir',
          number: creditSource.number.replace('FA-', 'AV-'),
          date: addDays(creditSource.date, 5),
          lines: [{ label: `Geste commercial sur la facture ${creditSource.number}`, amountExclTaxCents: 1000 }],
        }),
      ),
    }
    const kbisKey = seed.hasKbis
      ? await pdf(
          'kbis',
          letterPdf({
            sender: 'Greffe du tribunal de commerce de Paris',
            senderAddress: ['1 quai de la Corse', '75004 Paris'],
            recipient: customer,
            place: 'Paris',
            date: daysAgo(now, seed.orderDaysAgo + 10),
            subject: `Extrait Kbis : ${seed.raisonSociale}`,
            paragraphs: [
              `Immatriculation au RCS de Paris sous le numéro ${seed.siren}. Forme juridique : ${seed.legalForm}.`,
              `Siège social : ${ADDRESS}.`,
            ],
          }),
        )
      : null
    // company area: each meeting-room booking has its invoice (booked and paid in advance).
    const meetingInvoices: Prepared['meetingInvoices'] = []
    for (const [n, [days, room, hours]] of (seed.meetings ?? []).entries()) {
      const bookedFor = meetingDate(now, days)
      const date = days < 0 ? daysAgo(now, 0, 8) : addDays(bookedFor, -7)
      const number = `FA-${date.getUTCFullYear()}-${seed.siren.replace(/\D/g, '').slice(0, 3)}R${String(n + 1).padStart(2, '0')}`
      const lines = [
        {
          label: `${room} : ${String(hours).replace('.', ',')} h le ${bookedFor.toLocaleDateString('fr-FR', { timeZone: 'Europe/Paris' })}`,
          amountExclTaxCents: Math.round(hours * 3000),
        },
      ]
      const excl = lines[0]!.amountExclTaxCents
      meetingInvoices.push({
        room,
        hours,
        bookedFor,
        number,
        date,
        excl,
        incl: Math.round(excl * 1.2),
        key: await pdf('invoices', billPdf({ ...bill, title: 'Facture', number, date, dueDate: date, lines, paid: true })),
      })
    }
    prepared.push({ seed, letters, invoices, creditNote, kbisKey, meetingInvoices })
  }

  const passwordHash = await demoHash
  return storeWithRecord(storage, files, () =>
    db.transaction().execute(async (tx) => {
      const claimed = await tx
        .insertInto('app_meta')
        .values({ key: SEED_KEY, value: now.toISOString() })
        .onConflict((oc) => oc.column('key').doNothing())
        .returning('key')
        .executeTakeFirst()
      // Another process seeded meanwhile: roll back, and storeWithRecord removes our files.
      if (!claimed) throw new AlreadySeeded()
      const users = new Map<string, { id: number; customer: string; card: string | null }>()
      for (const account of demoAccounts) {
        const customer = await testProviderRows.customer(tx)
        const card = await testProviderRows.paymentMethod(tx, customer, {
          brand: 'visa',
          last4: '4242',
          expMonth: 12,
          expYear: now.getUTCFullYear() + 2,
        })
        await tx.updateTable('test_customers').set({ default_payment_method: card }).where('id', '=', customer).execute()
        const { id } = await tx
          .insertInto('users')
          .values({
            email: account.email,
            password_hash: passwordHash,
            firstname: account.firstname,
            lastname: account.lastname,
            phone: account.phone,
            payment_customer_id: customer,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        users.set(account.email, { id, customer, card })
      }
      for (const order of prepared) await insertOrder(tx, order, users, now)
      for (const operator of demoOperators) {
        await tx
          .insertInto('operators')
          .values({
            email: operator.email,
            name: operator.name,
            roles: [...operator.roles],
            totp_secret: operator.totpSecret,
            password_hash: passwordHash,
            totp_enrolled_at: now,
          })
          .execute()
      }
      return true
    }),
  ).catch((error: unknown) => {
    if (error instanceof AlreadySeeded) return false
    throw error
  })
}

class AlreadySeeded extends Error {}

type Prepared = {
  seed: OrderSeed
  letters: { model: LetterModel; receivedAt: Date; read: boolean; deleted: boolean; key: string }[]
  invoices: { number: string; date: Date; excl: number; incl: number; paid: boolean; key: string }[]
  creditNote: { number: string; date: Date; excl: number; incl: number; key: string } | undefined
  kbisKey: string | null
  meetingInvoices: { room: string; hours: number; bookedFor: Date; number: string; date: Date; excl: number; incl: number; key: string }[]
}

async function insertOrder(
  tx: Tx,
  { seed, letters, invoices, creditNote, kbisKey, meetingInvoices }: Prepared,
  users: Map<string, { id: number; customer: string; card: string | null }>,
  now: Date,
) {
  const owner = users.get(seed.owner)!
  const subscriptionId = await testProviderRows.subscription(
    tx,
    owner.customer,
    [seed.plan, ...(seed.options ?? [])],
    addDays(now, seed.plan === 'domiciliation-annuelle' ? 200 : 18),
    seed.card ? owner.card : null,
  )
  const order = await tx
    .insertInto('orders')
    .values({
      owner_id: owner.id,
      raison_sociale: seed.raisonSociale,
      order_date: daysAgo(now, seed.orderDaysAgo),
      status: seed.status,
      has_kbis: seed.hasKbis,
      missing_documents: seed.missingDocuments ? JSON.stringify(seed.missingDocuments) : null,
      subscription_id: subscriptionId,
      siren: seed.siren,
      legal_form: seed.legalForm,
      domiciliation_address: ADDRESS,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const [street, postcode, city, country] = seed.forwarding ?? [null, null, null, null]
  await tx
    .insertInto('contracts')
    .values({
      order_id: order.id,
      kbis_file_key: kbisKey,
      signed_at: seed.hasKbis ? daysAgo(now, seed.orderDaysAgo - 2) : null,
      kbis_validated_at: seed.kbisValidated ? daysAgo(now, seed.orderDaysAgo - 4) : null,
      // A Kbis awaiting the team's check was filed yesterday (a new one, which a validation of the old did not cover).
      kbis_filed_at: kbisKey ? (seed.kbisValidated ? daysAgo(now, seed.orderDaysAgo - 2) : daysAgo(now, 1, 16)) : null,
      adresse_postale_expedition: street,
      code_postale_expedition: postcode,
      ville_postale_expedition: city,
      pays_postale_expedition: country,
    })
    .execute()

  const folderIds = new Map<string, number>()
  for (const name of seed.folders ?? []) {
    folderIds.set(name, (await tx.insertInto('folders').values({ order_id: order.id, name }).returning('id').executeTakeFirstOrThrow()).id)
  }
  // The letters in the mailbox, newest first: what a pending forwarding request sends on.
  const mailbox: number[] = []
  if (letters.length) {
    const inserted = await tx
      .insertInto('documents')
      .values(
        letters.map((l, i) => ({
          order_id: order.id,
          sender: l.model.sender,
          kind: l.model.kind,
          received_at: l.receivedAt,
          pages: l.model.pages ?? 1,
          read: l.read,
          deleted: l.deleted,
          // The older half is filed; the recent letters wait in the inbox.
          folder_id: i >= letters.length / 2 && l.model.folder ? (folderIds.get(l.model.folder) ?? null) : null,
          file_key: l.key,
        })),
      )
      .returning('id')
      .execute()
    mailbox.push(...inserted.filter((_, i) => !letters[i]!.deleted).map((row) => row.id))
    // mail pipeline: the server's worker renders and indexes the demo letters after start.
    await enqueueLetterPipelines(
      tx,
      inserted.map((row) => row.id),
    )
  }
  for (const [days, carrier, sender, status] of seed.packages ?? []) {
    await tx
      .insertInto('packages')
      .values({ order_id: order.id, received_at: daysAgo(now, days, 11), carrier, sender, status })
      .execute()
  }
  for (const [days, kind, status, letterCount] of seed.courierRequests ?? []) {
    const request = await tx
      .insertInto('courier_requests')
      .values({ order_id: order.id, created_at: daysAgo(now, days, 14), kind, status, letter_count: letterCount })
      .returning('id')
      .executeTakeFirstOrThrow()
    // The back office's Réexpéditions lists a pending forwarding request with its letters.
    if (kind === 'réexpédition' && status === 'en attente' && mailbox.length)
      await tx
        .insertInto('courier_request_letters')
        .values(mailbox.slice(0, letterCount).map((documentId) => ({ request_id: request.id, document_id: documentId })))
        .execute()
  }
  const invoiceIds = []
  for (const invoice of invoices) {
    const row = await tx
      .insertInto('invoices')
      .values({
        order_id: order.id,
        number: invoice.number,
        date: invoice.date,
        amount_excl_tax_cents: invoice.excl,
        amount_incl_tax_cents: invoice.incl,
        paid_at: invoice.paid ? addDays(invoice.date, 1) : null,
        payment_reference: invoice.paid ? 'prélèvement' : null,
        file_key: invoice.key,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    invoiceIds.push(row.id)
  }
  if (creditNote) {
    await tx
      .insertInto('credit_notes')
      .values({
        order_id: order.id,
        invoice_id: invoiceIds[3] ?? null,
        number: creditNote.number,
        date: creditNote.date,
        amount_excl_tax_cents: creditNote.excl,
        amount_incl_tax_cents: creditNote.incl,
        file_key: creditNote.key,
      })
      .execute()
  }
  for (const meeting of meetingInvoices) {
    const invoice = await tx
      .insertInto('invoices')
      .values({
        order_id: order.id,
        number: meeting.number,
        date: meeting.date,
        amount_excl_tax_cents: meeting.excl,
        amount_incl_tax_cents: meeting.incl,
        paid_at: meeting.date,
        payment_reference: 'carte',
        file_key: meeting.key,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await tx
      .insertInto('calendar_invoices')
      .values({
        order_id: order.id,
        date: meeting.bookedFor,
        room: meeting.room,
        hours: meeting.hours,
        amount_incl_tax_cents: meeting.incl,
        paid: true,
        invoice_id: invoice.id,
      })
      .execute()
  }
  // company area: the formalities already ordered, dated step by step.
  for (const submission of seed.legalSubmissions ?? []) {
    const received = daysAgo(now, submission.daysAgo, 10)
    const reached = (step: number) =>
      ['Reçue', 'En cours', 'Déposée au greffe', 'Terminée'].indexOf(submission.status) >= step ? addDays(received, step * 6) : null
    await tx
      .insertInto('legal_submissions')
      .values({
        order_id: order.id,
        user_id: owner.id,
        kind: submission.kind,
        status: submission.status,
        comment: submission.comment ?? null,
        created_at: received,
        started_at: reached(1),
        filed_at: reached(2),
        completed_at: reached(3),
      })
      .execute()
  }
  for (const email of seed.shares ?? []) {
    await tx
      .insertInto('shares')
      .values({ order_id: order.id, email, user_id: users.get(email)?.id ?? null })
      .execute()
  }
  if (seed.mandataire)
    await tx
      .insertInto('mandataires')
      .values({ order_id: order.id, ...seed.mandataire })
      .execute()
  // billing
  if (seed.certificateDaysAgo !== undefined) {
    await tx
      .insertInto('certificates')
      .values({ code: newCertificateCode(), order_id: order.id, issued_by: owner.id, issued_at: daysAgo(now, seed.certificateDaysAgo) })
      .execute()
  }
  // notifications
  await seedNotifications(tx, order.id, seed.raisonSociale, now)
}
