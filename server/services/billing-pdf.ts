// The billing area's PDFs, the provider's own documents, tagged (pdf-tagged.ts): the domiciliation certificate (with its
// verification code and a QR code pointing to the public verification page), the domiciliation contract, and the
// invoices and credit notes with what Code de commerce L441-9 requires on them (docs/LEGAL.md).
import { type PDFFont, type PDFPage, rgb } from 'pdf-lib'
import QRCode from 'qrcode'
import { cached, formatEuros } from './pdf.ts'
import { type Role, type StructureElement, type TaggedDocument, taggedDocument } from './pdf-tagged.ts'
import { longDate } from '../lib/time.ts'

/** The provider as its documents name it: its particulars come from the configuration (server/config.ts). */
export interface Provider {
  brandName: string
  /** Dénomination sociale, legal form, share capital (optional). */
  name: string
  legalForm: string
  shareCapital?: string
  siren: string
  /** The town of its registry (« RCS Paris »); unset, the SIREN stands alone. */
  rcsCity?: string
  /** Numéro de TVA intracommunautaire. */
  vatNumber: string
  /** Siège social. */
  address: string
  /** The prefectural approval number (PREFECTURE_APPROVAL) and the date of the decision (PREFECTURE_APPROVAL_DATE). */
  approval: string
  approvalDate: Date
  /** Who signs the certificates, and as what (CERTIFICATE_SIGNATORY_NAME, CERTIFICATE_SIGNATORY_TITLE). */
  signatory: { name: string; title: string }
  /** The late-payment penalty rate as invoices state it (LATE_PAYMENT_RATE). */
  latePaymentRate: string
}

export interface Company {
  raisonSociale: string
  legalForm: string | null
  siren: string | null
  domiciliationAddress: string
}

/** « 123 456 782 ». */
export const spacedSiren = (siren: string) => siren.replace(/\s/g, '').replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3')

/** « RCS Paris 123 456 782 », or « SIREN 123 456 782 » when the registry's town is not configured. */
export const registration = (provider: Pick<Provider, 'siren' | 'rcsCity'>) =>
  provider.rcsCity ? `RCS ${provider.rcsCity} ${spacedSiren(provider.siren)}` : `SIREN ${spacedSiren(provider.siren)}`

/** The provider's identity in one line: name, form, capital, registration, seat. */
export const providerIdentity = (p: Provider) =>
  [`${p.name}, ${p.legalForm}`, p.shareCapital ? `au capital de ${p.shareCapital}` : '', registration(p), `siège : ${p.address}`]
    .filter(Boolean)
    .join(', ')

/** « n° 75-2020-001 du 3 mars 2020 ». */
const approvalOf = (p: Provider) => `n° ${p.approval} du ${longDate.format(p.approvalDate)}`

export interface CertificateContent {
  provider: Provider
  company: Company
  contractStart: Date
  issuedAt: Date
  code: string
  verificationUrl: string
}

const ink = rgb(0.1, 0.1, 0.12)

/** The QR code's dark modules as squares, `size` points wide, its lower left corner at (x, y). */
function drawQrCode(page: PDFPage, text: string, x: number, y: number, size: number) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' })
  const quiet = 2
  const cell = size / (modules.size + quiet * 2)
  page.drawRectangle({ x, y, width: size, height: size, color: rgb(1, 1, 1) })
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue
      page.drawRectangle({ x: x + (col + quiet) * cell, y: y + size - (row + quiet + 1) * cell, width: cell, height: cell, color: ink })
    }
  }
}

/** Paragraphs wrapped to `width`, each one structure element of its lines; returns the y below the last. */
function paragraphs(
  doc: TaggedDocument,
  page: PDFPage,
  lines: string[],
  y: number,
  options: { width?: number; size?: number } = {},
): number {
  const { width = 483, size = 10.5 } = options
  for (const paragraph of lines) {
    const element = doc.element('P')
    for (const line of wrapFor(doc, paragraph, doc.regular, size, width)) {
      doc.text(page, line, 56, y, size, doc.regular, element)
      y -= size + 4.5
    }
    y -= 9
  }
  return y
}

function wrapFor(doc: TaggedDocument, text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of doc.drawable(text).split(/\s+/)) {
    const next = line ? `${line} ${word}` : word
    if (line && font.widthOfTextAtSize(next, size) > width) {
      lines.push(line)
      line = word
    } else line = next
  }
  if (line) lines.push(line)
  return lines
}

/** The provider's heading on each document: its name, identity and approval, one element a line. */
function letterhead(doc: TaggedDocument, page: PDFPage, p: Provider, y = 780): number {
  doc.text(page, p.brandName, 56, y, 15, doc.bold, 'P')
  const details = doc.element('P')
  const lines = [
    ...wrapFor(doc, providerIdentity(p), doc.regular, 8.5, 483),
    ...wrapFor(
      doc,
      `TVA intracommunautaire ${p.vatNumber} · domiciliataire agréé par arrêté préfectoral ${approvalOf(p)}`,
      doc.regular,
      8.5,
      483,
    ),
  ]
  lines.forEach((line, i) => doc.text(page, line, 56, y - 16 - i * 11, 8.5, doc.regular, details))
  return y - 16 - lines.length * 11
}

const legalForm = (company: Company) => company.legalForm ?? 'société'
const siren = (company: Company) => (company.siren ? spacedSiren(company.siren) : 'en cours d’immatriculation')

export async function certificatePdf(c: CertificateContent): Promise<Uint8Array> {
  const doc = await taggedDocument({
    title: `Attestation de domiciliation - ${c.company.raisonSociale}`,
    subject: `Code de vérification ${c.code}`,
    date: c.issuedAt,
    author: c.provider.name,
  })
  const page = doc.addPage()
  letterhead(doc, page, c.provider)
  doc.text(page, 'ATTESTATION DE DOMICILIATION', 56, 690, 16, doc.bold, 'H1')
  let y = paragraphs(
    doc,
    page,
    [
      `Nous soussignés, ${c.provider.name}, ${c.provider.legalForm}, ${registration(c.provider)}, domiciliataire agréé par arrêté préfectoral ${approvalOf(c.provider)}, attestons que la société :`,
    ],
    655,
  )
  const facts: [string, string][] = [
    ['Dénomination', c.company.raisonSociale],
    ['Forme juridique', legalForm(c.company)],
    ['SIREN', siren(c.company)],
    ['Adresse de domiciliation', c.company.domiciliationAddress],
    ['Contrat de domiciliation depuis le', longDate.format(c.contractStart)],
  ]
  const table = doc.element('Table')
  for (const [label, value] of facts) {
    const row = doc.element('TR', table)
    doc.text(page, `${label} :`, 72, y, 10.5, doc.bold, doc.element('TH', row))
    const cell = doc.element('TD', row)
    const lines = wrapFor(doc, value, doc.regular, 10.5, 254)
    lines.forEach((line, i) => doc.text(page, line, 285, y - i * 15, 10.5, doc.regular, cell))
    y -= 15 * lines.length + 3
  }
  y = paragraphs(
    doc,
    page,
    [
      'a son siège social ou son établissement domicilié à cette adresse en vertu d’un contrat de domiciliation conclu conformément aux articles L. 123-11-2 et R. 123-166-1 et suivants du Code de commerce.',
      'La présente attestation est délivrée pour servir et valoir ce que de droit.',
    ],
    y - 12,
  )
  const signature = doc.element('P')
  doc.text(page, `Fait à Paris, le ${longDate.format(c.issuedAt)}`, 330, y - 6, 10.5, doc.regular, signature)
  doc.text(page, `Pour ${c.provider.name},`, 330, y - 24, 10.5, doc.regular, signature)
  doc.text(page, c.provider.signatory.name, 330, y - 42, 10.5, doc.bold, signature)
  doc.text(page, c.provider.signatory.title, 330, y - 57, 10.5, doc.regular, signature)

  // Verification block: the code in words, and the QR code of its public page.
  doc.artifact(page, () => page.drawRectangle({ x: 56, y: 70, width: 483, height: 140, borderColor: ink, borderWidth: 0.8 }))
  const verification = doc.element('Sect')
  doc.text(page, 'Vérifier cette attestation', 210, 180, 12, doc.bold, doc.element('H2', verification))
  doc.text(page, `Code de vérification : ${c.code}`, 210, 160, 11, doc.bold, doc.element('P', verification))
  const how = doc.element('P', verification)
  wrapFor(
    doc,
    `Scannez le code QR ou ouvrez ${c.verificationUrl} : la page indique si l’attestation est toujours valide.`,
    doc.regular,
    9.5,
    315,
  ).forEach((line, i) => doc.text(page, line, 210, 140 - i * 13, 9.5, doc.regular, how))
  doc.figure(page, `Code QR de la page de vérification : ${c.verificationUrl}`, () => drawQrCode(page, c.verificationUrl, 70, 80, 120))
  return doc.save()
}

export interface ContractContent {
  provider: Provider
  company: Company
  signedAt: Date | null
  plan: { nickname: string; amountExclTaxCents: number; interval: 'month' | 'year' } | null
  options: string[]
  forwardingAddress: string | null
  contractId: number
}

export async function contractPdf(c: ContractContent): Promise<Uint8Array> {
  const doc = await taggedDocument({
    title: `Contrat de domiciliation n° ${c.contractId} - ${c.company.raisonSociale}`,
    date: c.signedAt ?? new Date(0),
    author: c.provider.name,
  })
  const page = doc.addPage()
  doc.text(page, `CONTRAT DE DOMICILIATION N° ${c.contractId}`, 56, 790, 15, doc.bold, 'H1')
  if (!c.signedAt) doc.text(page, 'Projet : en attente de signature', 56, 773, 10, doc.bold, 'P')
  const per = c.plan?.interval === 'year' ? 'an' : 'mois'
  paragraphs(
    doc,
    page,
    [
      `Entre ${providerIdentity(c.provider)}, TVA intracommunautaire ${c.provider.vatNumber}, domiciliataire agréé par arrêté préfectoral ${approvalOf(c.provider)}, ci-après « le domiciliataire »,`,
      `et ${c.company.raisonSociale}, ${legalForm(c.company)}, SIREN ${siren(c.company)}, ci-après « le domicilié »,`,
      `Article 1 – Objet. Le domiciliataire met à la disposition du domicilié, qui l’accepte, l’adresse ${c.company.domiciliationAddress} pour y établir son siège social, conformément aux articles L. 123-11-2 et R. 123-166-1 et suivants du Code de commerce.`,
      `Article 2 – Durée. Le contrat prend effet le ${c.signedAt ? longDate.format(c.signedAt) : 'jour de sa signature'}. Il se renouvelle par tacite reconduction à chaque échéance et peut être résilié par l’une ou l’autre partie pour la fin d’une période en cours.`,
      `Article 3 – Prix. ${c.plan ? `${c.plan.nickname} : ${formatEuros(c.plan.amountExclTaxCents)} HT par ${per}` : 'Selon la formule souscrite'}${c.options.length ? `, options : ${c.options.join(', ')}` : ''}. Les factures sont payables par carte bancaire.`,
      `Article 4 – Courrier. Le domiciliataire reçoit le courrier du domicilié, le tient à sa disposition et le numérise ou le réexpédie selon la formule choisie${c.forwardingAddress ? `, à l’adresse de réexpédition : ${c.forwardingAddress}` : ''}.`,
      `Article 5 – Locaux. Conformément à l’article R. 123-168, 1°, du Code de commerce, le domiciliataire met à la disposition du domicilié, à l’adresse ${c.company.domiciliationAddress}, une pièce propre à assurer la confidentialité nécessaire et à permettre la réunion régulière des organes chargés de la direction, de l’administration ou de la surveillance de l’entreprise, ainsi que la tenue, la conservation et la consultation des livres, registres et documents prescrits par les lois et règlements. Le domicilié la réserve depuis son espace client.`,
      'Article 6 – Obligations du domicilié. Le domicilié informe le domiciliataire de toute modification de son activité, de sa forme juridique ou de ses dirigeants, et lui remet son extrait Kbis.',
    ],
    745,
    { size: 10 },
  )
  const signatures = doc.element('P')
  doc.text(
    page,
    `Fait en deux exemplaires${c.signedAt ? `, le ${longDate.format(c.signedAt)}` : ''}.`,
    56,
    110,
    10.5,
    doc.regular,
    signatures,
  )
  doc.text(page, 'Le domiciliataire', 56, 85, 10.5, doc.bold, signatures)
  doc.text(page, 'Le domicilié', 330, 85, 10.5, doc.bold, signatures)
  return doc.save()
}

export interface BillContent {
  title: 'Facture' | 'Avoir'
  number: string
  date: Date
  /** The day payment is due (L441-9); a credit note has none. */
  dueDate?: Date
  seller: Provider
  /** The buyer's name, SIREN and address, a line each. */
  customer: string[]
  /** The buyer's intracommunity VAT number, when it has one. */
  customerVatNumber?: string
  lines: { label: string; amountExclTaxCents: number }[]
  paid?: boolean
}

/** What L441-9 of the Code de commerce requires after the amounts: due date, early payment, penalties, the 40 € indemnity. */
export const paymentTerms = (bill: Pick<BillContent, 'dueDate' | 'seller'>) =>
  bill.dueDate
    ? [
        `Date d’échéance : ${longDate.format(bill.dueDate)}. Pas d’escompte pour paiement anticipé.`,
        `En cas de retard de paiement, des pénalités sont exigibles le jour suivant la date d’échéance, au taux ${bill.seller.latePaymentRate}, ainsi qu’une indemnité forfaitaire pour frais de recouvrement de 40 € (Code de commerce, articles L. 441-10 et D. 441-5).`,
      ]
    : []

export function billPdf(bill: BillContent): Promise<Uint8Array> {
  return cached(bill, () => drawBill(bill))
}

async function drawBill(bill: BillContent): Promise<Uint8Array> {
  const doc = await taggedDocument({ title: `${bill.title} ${bill.number}`, date: bill.date, author: bill.seller.name })
  const page = doc.addPage()
  const below = letterhead(doc, page, bill.seller)
  doc.text(page, `${bill.title} n° ${bill.number}`, 56, below - 28, 13, doc.bold, 'H1')
  const dates = doc.element('P')
  doc.text(page, `Date : ${longDate.format(bill.date)}`, 56, below - 46, 10, doc.regular, dates)
  const buyer = doc.element('P')
  const buyerLines = [...bill.customer, ...(bill.customerVatNumber ? [`TVA intracommunautaire ${bill.customerVatNumber}`] : [])]
  buyerLines.forEach((line, i) => doc.text(page, line, 330, below - 46 - i * 14, 10, i === 0 ? doc.bold : doc.regular, buyer))
  let y = below - 46 - buyerLines.length * 14 - 40
  const table = doc.element('Table')
  const cells = (row: StructureElement, values: [string, string], role: Role, font: PDFFont) => {
    doc.text(page, values[0], 56, y, 10, font, doc.element(role, row))
    doc.text(page, values[1], 450, y, 10, font, doc.element(role, row))
  }
  cells(doc.element('TR', table), ['Désignation', 'Montant HT'], 'TH', doc.bold)
  doc.artifact(page, () => page.drawLine({ start: { x: 56, y: y - 5 }, end: { x: 539, y: y - 5 }, thickness: 0.5, color: ink }))
  let total = 0
  for (const line of bill.lines) {
    y -= 18
    cells(doc.element('TR', table), [line.label, formatEuros(line.amountExclTaxCents)], 'TD', doc.regular)
    total += line.amountExclTaxCents
  }
  const vat = Math.round(total * 0.2)
  y -= 36
  const totals = doc.element('P')
  doc.text(page, `Total HT : ${formatEuros(total)}`, 330, y, 10, doc.regular, totals)
  doc.text(page, `TVA 20 % : ${formatEuros(vat)}`, 330, y - 16, 10, doc.regular, totals)
  doc.text(page, `Total TTC : ${formatEuros(total + vat)}`, 330, y - 32, 11, doc.bold, totals)
  if (bill.paid !== undefined) doc.text(page, bill.paid ? 'Acquittée' : 'À régler', 56, y - 32, 11, doc.bold, 'P')
  paragraphs(doc, page, paymentTerms(bill), y - 70, { size: 9 })
  return doc.save()
}
