// Domiciliation certificates (issued on request, checked publicly by their code) and the contract PDF.
import type { FastifyReply } from 'fastify'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { conflict, HttpError, notFound } from '../../http/errors.ts'
import { createCertificate, findCertificate, findOrderFacts, type OrderFacts } from '../../db/repositories/billing.ts'
import { requireOrder, requireOwnContract } from '../../db/repositories/company-orders.ts'
import { NotFoundError } from '../../db/errors.ts'
import type { Company, Provider } from '../../services/billing-pdf.ts'
import { documentProvider } from '../../config.ts'
import { newCertificateCode } from '../../services/certificate-code.ts'
import { answerPdf } from '../files.ts'
import { parisDay } from '../../lib/time.ts'

/** The PDF drawing (pdf-lib, qrcode) loads with the first certificate or contract: no start compiles it. */
const billingPdf = () => import('../../services/billing-pdf.ts')

export const UNKNOWN_CERTIFICATE = 'Aucune attestation ne correspond à ce code.'

/** Past its termination date, an order's domiciliation is over: its certificates no longer hold. */
const terminated = (facts: Pick<OrderFacts, 'termination_date'>, now: Date) =>
  facts.termination_date !== null && facts.termination_date < parisDay(now)

const company = (facts: OrderFacts): Company => ({
  raisonSociale: facts.raison_sociale,
  legalForm: facts.legal_form,
  siren: facts.siren,
  domiciliationAddress: facts.domiciliation_address,
})

const sendGeneratedPdf = (reply: FastifyReply, bytes: Uint8Array, fileName: string) => answerPdf(reply, bytes, fileName, 'attachment')

const fileSafe = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()

function provider(config: AppDeps['config']): Provider {
  const provider = documentProvider(config)
  // Without the approval number a certificate is worthless: refuse rather than print a blank.
  if (!provider) {
    throw new HttpError(
      503,
      'L’attestation ne peut pas être délivrée pour le moment : le numéro d’agrément préfectoral du domiciliataire n’est pas configuré. Réessayez plus tard.',
      'NO_APPROVAL',
    )
  }
  return provider
}

/** A certificate's PDF and its file name (its route, and « Mes données »). */
export async function certificateFile(
  config: AppDeps['config'],
  certificate: NonNullable<Awaited<ReturnType<typeof findCertificate>>>,
): Promise<{ bytes: Uint8Array; fileName: string }> {
  const { certificatePdf } = await billingPdf()
  const bytes = await certificatePdf({
    provider: provider(config),
    company: company(certificate),
    contractStart: certificate.signed_at!,
    issuedAt: certificate.issued_at,
    code: certificate.code,
    verificationUrl: `${config.publicUrl}/verification/${certificate.code}`,
  })
  return { bytes, fileName: `attestation-domiciliation-${fileSafe(certificate.raison_sociale)}-${certificate.code}.pdf` }
}

/** A contract's PDF and its file name (its route, and « Mes données »). */
export async function contractFile(
  { db, payments, config }: Pick<AppDeps, 'db' | 'payments' | 'config'>,
  contract: { id: number; order_id: number },
): Promise<{ bytes: Uint8Array; fileName: string }> {
  const facts = (await findOrderFacts(db, contract.order_id))!
  const subscription = facts.subscription_id ? await payments.getSubscription(facts.subscription_id) : null
  const [main, ...options] = subscription?.items.data ?? []
  const forwarding = [
    facts.adresse_postale_expedition,
    facts.adresse_complement_postale_expedition,
    [facts.code_postale_expedition, facts.ville_postale_expedition].filter(Boolean).join(' '),
    facts.pays_postale_expedition,
  ]
    .filter(Boolean)
    .join(', ')
  const { contractPdf } = await billingPdf()
  const bytes = await contractPdf({
    provider: provider(config),
    company: company(facts),
    signedAt: facts.signed_at,
    contractId: contract.id,
    plan: main ? { nickname: main.plan.nickname, amountExclTaxCents: main.plan.amount, interval: main.plan.interval } : null,
    options: options.map((i) => i.plan.nickname),
    forwardingAddress: forwarding || null,
  })
  return { bytes, fileName: `contrat-domiciliation-${fileSafe(facts.raison_sociale)}.pdf` }
}

export function certificateRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, clock, config } = deps

  define('issueCertificate', async ({ user, params }) => {
    const order = await requireOrder(db, user.id, params.id, 'owner')
    const facts = (await findOrderFacts(db, order.id))!
    if (!facts.signed_at) throw conflict('Votre attestation sera disponible dès la signature de votre contrat de domiciliation.')
    const now = clock.now()
    if (terminated(facts, now)) throw conflict('Cette domiciliation est résiliée : aucune attestation ne peut plus être délivrée.')
    provider(config)
    const code = newCertificateCode()
    await createCertificate(db, { code, orderId: order.id, userId: user.id, issuedAt: now })
    return {
      code,
      orderId: order.id,
      issuedAt: now.toISOString(),
      verificationUrl: `${config.publicUrl}/verification/${code}`,
      file: `/api-protected/certificates/${code}/file`,
    }
  })

  define('certificateFile', async ({ user, params, reply }) => {
    const certificate = await findCertificate(db, params.code.toUpperCase())
    if (!certificate) throw notFound('Attestation')
    // A stranger learns nothing of the code (404); a collaborator of the order gets the owner-only 403.
    await requireOrder(db, user.id, certificate.order_id, 'owner').catch((error: unknown) => {
      throw error instanceof NotFoundError ? notFound('Attestation') : error
    })
    const { bytes, fileName } = await certificateFile(config, certificate)
    return sendGeneratedPdf(reply, bytes, fileName)
  })

  define('certificateVerification', async ({ params }) => {
    const certificate = await findCertificate(db, params.code.toUpperCase())
    if (!certificate) throw new HttpError(404, UNKNOWN_CERTIFICATE, 'NOT_FOUND')
    if (terminated(certificate, clock.now())) return { status: 'revoked' as const }
    return { status: 'valid' as const, raisonSociale: certificate.raison_sociale, issuedAt: certificate.issued_at.toISOString() }
  })

  define('contractFile', async ({ user, params, reply }) => {
    const contract = await requireOwnContract(db, user.id, params.id)
    const { bytes, fileName } = await contractFile(deps, contract)
    return sendGeneratedPdf(reply, bytes, fileName)
  })
}
