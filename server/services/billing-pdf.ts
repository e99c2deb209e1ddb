// The billing area's PDFs, made on request: the domiciliation certificate (with its verification code and a QR
// code pointing to the public verification page) and the domiciliation contract.
import { type PDFFont, type PDFPage, rgb } from 'pdf-lib'
import QRCode from 'qrcode'
import { documentWithFonts, formatEuros, wrap } from './pdf.ts'
import { longDate } from '../lib/time.ts'

export interface Provider {
  brandName: string
  /** The prefectural approval number (PREFECTURE_APPROVAL). */
  approval: string
  address: string
}

export interface Company {
  raisonSociale: string
  legalForm: string | null
  siren: string | null
  domiciliationAddress: string
}

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

function paragraphs(
  page: PDFPage,
  text: (p: PDFPage, v: string, x: number, y: number, size?: number, font?: PDFFont) => unknown,
  font: PDFFont,
  lines: string[],
  y: number,
  width = 483,
): number {
  for (const paragraph of lines) {
    for (const line of wrap(paragraph, font, 10.5, width)) {
      text(page, line, 56, y, 10.5)
      y -= 15
    }
    y -= 9
  }
  return y
}

const legalForm = (company: Company) => company.legalForm ?? 'société'
const siren = (company: Company) => company.siren ?? 'en cours d’immatriculation'

export async function certificatePdf(c: CertificateContent): Promise<Uint8Array> {
  const { pdf, regular, bold, text } = await documentWithFonts()
  pdf.setTitle(`Attestation de domiciliation - ${c.company.raisonSociale}`)
  pdf.setSubject(`Code de vérification ${c.code}`)
  pdf.setCreationDate(c.issuedAt)
  const page = pdf.addPage([595, 842])
  text(page, c.provider.brandName, 56, 780, 16, bold)
  text(page, c.provider.address, 56, 762, 9)
  text(page, `Domiciliataire agréé par arrêté préfectoral n° ${c.provider.approval}`, 56, 749, 9)
  text(page, 'ATTESTATION DE DOMICILIATION', 56, 690, 16, bold)
  let y = paragraphs(
    page,
    text,
    regular,
    [
      `Nous soussignés, ${c.provider.brandName}, domiciliataire agréé par arrêté préfectoral n° ${c.provider.approval}, attestons que la société :`,
    ],
    650,
  )
  const facts: [string, string][] = [
    ['Dénomination', c.company.raisonSociale],
    ['Forme juridique', legalForm(c.company)],
    ['SIREN', siren(c.company)],
    ['Adresse de domiciliation', c.company.domiciliationAddress],
    ['Contrat de domiciliation depuis le', longDate.format(c.contractStart)],
  ]
  for (const [label, value] of facts) {
    text(page, `${label} :`, 72, y, 10.5, bold)
    text(page, value, 260, y, 10.5)
    y -= 18
  }
  y = paragraphs(
    page,
    text,
    regular,
    [
      `a son siège social ou son établissement domicilié à cette adresse en vertu d’un contrat de domiciliation conclu conformément aux articles L. 123-11-2 et R. 123-166-1 et suivants du Code de commerce.`,
      'La présente attestation est délivrée pour servir et valoir ce que de droit.',
    ],
    y - 12,
  )
  text(page, `Fait à Paris, le ${longDate.format(c.issuedAt)}`, 330, y - 10, 10.5)
  text(page, c.provider.brandName, 330, y - 28, 10.5, bold)

  // Verification block: the code in words, and the QR code of its public page.
  page.drawRectangle({ x: 56, y: 70, width: 483, height: 140, borderColor: ink, borderWidth: 0.8 })
  drawQrCode(page, c.verificationUrl, 70, 80, 120)
  text(page, 'Vérifier cette attestation', 210, 180, 12, bold)
  text(page, `Code de vérification : ${c.code}`, 210, 160, 11, bold)
  wrap(
    `Scannez le code QR ou ouvrez ${c.verificationUrl} : la page indique si l’attestation est toujours valide.`,
    regular,
    9.5,
    315,
  ).forEach((line, i) => text(page, line, 210, 140 - i * 13, 9.5))
  return pdf.save({ useObjectStreams: false })
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
  const { pdf, regular, bold, text } = await documentWithFonts()
  pdf.setTitle(`Contrat de domiciliation n° ${c.contractId} - ${c.company.raisonSociale}`)
  const page = pdf.addPage([595, 842])
  text(page, `CONTRAT DE DOMICILIATION N° ${c.contractId}`, 56, 780, 15, bold)
  if (!c.signedAt) text(page, 'Projet : en attente de signature', 56, 762, 10, bold)
  const per = c.plan?.interval === 'year' ? 'an' : 'mois'
  paragraphs(
    page,
    text,
    regular,
    [
      `Entre ${c.provider.brandName}, ${c.provider.address}, domiciliataire agréé par arrêté préfectoral n° ${c.provider.approval}, ci-après « le domiciliataire »,`,
      `et ${c.company.raisonSociale}, ${legalForm(c.company)}, SIREN ${siren(c.company)}, ci-après « le domicilié »,`,
      `Article 1 – Objet. Le domiciliataire met à la disposition du domicilié, qui l’accepte, l’adresse ${c.company.domiciliationAddress} pour y établir son siège social, conformément aux articles L. 123-11-2 et R. 123-166-1 et suivants du Code de commerce.`,
      `Article 2 – Durée. Le contrat prend effet le ${c.signedAt ? longDate.format(c.signedAt) : 'jour de sa signature'}. Il se renouvelle par tacite reconduction à chaque échéance et peut être résilié par l’une ou l’autre partie pour la fin d’une période en cours.`,
      `Article 3 – Prix. ${c.plan ? `${c.plan.nickname} : ${formatEuros(c.plan.amountExclTaxCents)} HT par ${per}` : 'Selon la formule souscrite'}${c.options.length ? `, options : ${c.options.join(', ')}` : ''}. Les factures sont payables par carte bancaire.`,
      `Article 4 – Courrier. Le domiciliataire reçoit le courrier du domicilié, le tient à sa disposition et le numérise ou le réexpédie selon la formule choisie${c.forwardingAddress ? `, à l’adresse de réexpédition : ${c.forwardingAddress}` : ''}.`,
      'Article 5 – Obligations du domicilié. Le domicilié informe le domiciliataire de toute modification de son activité, de sa forme juridique ou de ses dirigeants, et lui remet son extrait Kbis.',
    ],
    730,
  )
  text(page, `Fait en deux exemplaires${c.signedAt ? `, le ${longDate.format(c.signedAt)}` : ''}.`, 56, 150, 10.5)
  text(page, 'Le domiciliataire', 56, 120, 10.5, bold)
  text(page, 'Le domicilié', 330, 120, 10.5, bold)
  return pdf.save({ useObjectStreams: false })
}
