// Everything the server reads from the environment, in one place (documented in docs/SERVER.md).
import { isIP } from 'node:net'
import { resolve } from 'node:path'
import type { LegalParticulars } from './contract/rules/legal.ts'
import type { Provider } from './services/billing-pdf.ts'

export interface Config {
  port: number
  host: string
  /** postgres://… moves the data onto PostgreSQL; unset: the embedded PGlite in dataDir. */
  databaseUrl?: string
  dataDir: string
  storageDir: string
  /**
   * s3://bucket/prefix?endpoint=…&region=… : files in an S3-compatible bucket instead of storageDir
   * (services/open-storage.ts); checked when the configuration is read (parseStorageUrl), docs/STORAGE.md.
   */
  storageUrl?: string
  distDir: string
  smtpUrl?: string
  mailFrom: string
  supportEmail: string
  brandName: string
  stripeSecretKey?: string
  /** billing: Stripe's publishable key (pk_…), handed to Stripe.js in the browser; required with stripeSecretKey. */
  stripePublishableKey?: string
  /** Where reset links point when the portal's `domain` is not one of ours. */
  publicUrl: string
  /** Origins accepted as the `domain` of a reset request, besides the request's own host. */
  allowedOrigins: string[]
  tokenTtlDays: number
  /** Attempts per IP and per minute on login and on each password-reset call. */
  authRateLimit: number
  logLevel: string
  /**
   * Behind a load balancer, which proxies X-Forwarded-For is trusted from for the client IP (Fastify's `trustProxy`):
   * `true` every one, or the proxies' addresses and ranges, comma-separated.
   */
  trustProxy: TrustProxy
  /** Seed the demo accounts on first start (default true). */
  seedDemo: boolean
  /** The operators' secret (Authorization: Bearer …) for /api/operator/*; unset: the operator API answers 401. */
  operatorToken?: string
  /** billing: the provider's prefectural approval number, printed on every domiciliation certificate and contract. */
  prefectureApproval?: string
  /** The legal pages and every e-mail's footer: the provider's particulars (demo values unless in production). */
  legal: LegalParticulars
  /** billing: what the provider's own documents state beyond the legal pages (certificates, contracts, invoices). */
  documents: DocumentParticulars
  // cluster
  /** Several API processes behind a balancer: this one's name, sent back as `X-Instance` on every response; unset: no header. */
  instanceName?: string
  /** mail pipeline: this process runs the background jobs (page images, OCR); false for an API-only instance. */
  jobWorker: boolean
  /**
   * The kinds of background job this process's worker runs (JOB_KINDS, comma-separated: `letter-pipeline` for the letters'
   * images, text and deadlines, `security-notice` for the e-mails of account changes); unset: every kind.
   */
  jobKinds?: readonly string[]
  /**
   * mail pipeline: jobs this process's worker runs at once (JOB_CONCURRENCY, 1 to 4; 2 by default: a letter's pages are
   * drawn while the previous letter's scans are read by OCR, the mail room's batch read about 1.3 times as fast on two
   * cores as with 1, bench:intake).
   */
  jobConcurrency: number
  /** The letters of an order terminated this many months ago are deleted, after a notice 30 days before (services/retention.ts). */
  mailRetentionMonths: number
}

/** billing: what the certificates, contracts and invoices state of the provider, besides its legal particulars. */
export interface DocumentParticulars {
  /** The day of the prefectural decision that approved the provider (PREFECTURE_APPROVAL_DATE, YYYY-MM-DD). */
  approvalDate: Date
  /** Who signs the certificates, and as what (CERTIFICATE_SIGNATORY_NAME, CERTIFICATE_SIGNATORY_TITLE). */
  signatory: { name: string; title: string }
  /** Numéro de TVA intracommunautaire (PROVIDER_VAT_NUMBER; by default the French one of PROVIDER_SIREN). */
  vatNumber: string
  /** The late-payment penalty rate, as the invoices write it after « au taux » (LATE_PAYMENT_RATE). */
  latePaymentRate: string
}

/** Code de commerce L441-10, II: the rate that applies when the terms say nothing else. */
export const STATUTORY_LATE_PAYMENT_RATE =
  'de refinancement le plus récent de la Banque centrale européenne majoré de 10 points de pourcentage'

/** billing: the approval number of the demo (SEED_DEMO), plainly not a real one. */
export const DEMO_PREFECTURE_APPROVAL = 'DÉMO-75-000 (à configurer)'

/**
 * The provider's particulars a production start requires (LCEN art. 6, RGPD art. 13): the variable and what it is, in
 * French, for the refusal. PREFECTURE_APPROVAL is the approval number the certificates already print.
 */
export const LEGAL_VARIABLES = {
  PROVIDER_NAME: 'la dénomination sociale',
  PROVIDER_LEGAL_FORM: 'la forme juridique',
  PROVIDER_SIREN: 'le numéro SIREN',
  PROVIDER_ADDRESS: 'l’adresse du siège',
  PROVIDER_PHONE: 'le téléphone du prestataire',
  SUPPORT_EMAIL: 'l’adresse e-mail de contact',
  PUBLICATION_DIRECTOR: 'le directeur de la publication',
  PREFECTURE_APPROVAL: 'le numéro d’agrément préfectoral',
  PREFECTURE_APPROVAL_DATE: 'la date de l’agrément préfectoral',
  CERTIFICATE_SIGNATORY_NAME: 'le signataire des attestations',
  CERTIFICATE_SIGNATORY_TITLE: 'la qualité du signataire des attestations',
  HOST_NAME: 'le nom de l’hébergeur',
  HOST_ADDRESS: 'l’adresse de l’hébergeur',
  HOST_PHONE: 'le téléphone de l’hébergeur',
} as const

/** The demo's particulars: plainly not a real company's (a SIREN that passes the check digit, but marked « DÉMO »). */
export const DEMO_LEGAL = {
  PROVIDER_NAME: 'Domicilium Démo',
  PROVIDER_LEGAL_FORM: 'SAS (démonstration)',
  PROVIDER_SIREN: '123456782',
  PROVIDER_ADDRESS: '1 rue de la Démonstration, 75000 Paris (adresse de démonstration)',
  PROVIDER_PHONE: '01 00 00 00 01',
  PUBLICATION_DIRECTOR: 'Directrice de la publication (démonstration)',
  HOST_NAME: 'Hébergeur de démonstration',
  HOST_ADDRESS: '1 avenue de l’Hébergement, 75000 Paris (adresse de démonstration)',
  HOST_PHONE: '01 00 00 00 00',
  PREFECTURE_APPROVAL_DATE: '2020-01-02',
  CERTIFICATE_SIGNATORY_NAME: 'Signataire de démonstration',
  CERTIFICATE_SIGNATORY_TITLE: 'Présidente (démonstration)',
} as const

/** A SIREN: 9 digits whose Luhn sum is a multiple of 10 (INSEE). */
export function validSiren(siren: string): boolean {
  if (!/^\d{9}$/.test(siren)) return false
  let sum = 0
  for (let i = 0; i < 9; i++) {
    let digit = Number(siren[8 - i])
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return sum % 10 === 0
}

/** The French intracommunity VAT number of a SIREN: FR, a two-digit key, the SIREN (key = (12 + 3 × (SIREN mod 97)) mod 97). */
export function frenchVatNumber(siren: string): string {
  const digits = siren.replace(/\s/g, '')
  const key = (12 + 3 * (Number(digits) % 97)) % 97
  return `FR${String(key).padStart(2, '0')}${digits}`
}

/**
 * What the provider's documents state beyond the legal pages (the approval's date, the certificates' signatory, the VAT
 * number, the late-payment rate); the first three are among LEGAL_VARIABLES, so a production start without them is
 * refused with the others. A malformed date or VAT number stops any start.
 */
function loadDocuments(env: NodeJS.ProcessEnv, siren: string): DocumentParticulars {
  const read = (name: keyof typeof DEMO_LEGAL) => env[name]?.trim() || DEMO_LEGAL[name]
  const day = read('PREFECTURE_APPROVAL_DATE')
  const approvalDate = new Date(`${day}T12:00:00Z`)
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(approvalDate.getTime()) || approvalDate.toISOString().slice(0, 10) !== day) {
    throw new Error(`PREFECTURE_APPROVAL_DATE invalide : « ${day} » ; indiquez la date de l’arrêté préfectoral sous la forme AAAA-MM-JJ.`)
  }
  const vatNumber = (env.PROVIDER_VAT_NUMBER?.trim() || frenchVatNumber(siren)).replace(/\s/g, '').toUpperCase()
  if (vatNumber !== frenchVatNumber(siren)) {
    throw new Error(
      `PROVIDER_VAT_NUMBER invalide : « ${env.PROVIDER_VAT_NUMBER} » ; le numéro de TVA intracommunautaire de ce SIREN est ${frenchVatNumber(siren)}.`,
    )
  }
  return {
    approvalDate,
    signatory: { name: read('CERTIFICATE_SIGNATORY_NAME'), title: read('CERTIFICATE_SIGNATORY_TITLE') },
    vatNumber,
    latePaymentRate: env.LATE_PAYMENT_RATE?.trim() || STATUTORY_LATE_PAYMENT_RATE,
  }
}

/**
 * The provider's particulars: in production without the demo, every one of LEGAL_VARIABLES is required (a portal
 * without its legal notice breaks LCEN art. 6, and the privacy policy would name nobody); elsewhere the demo's stand in.
 */
function loadLegal(
  env: NodeJS.ProcessEnv,
  required: boolean,
  fallback: { brandName: string; supportEmail: string; publicUrl: string; prefectureApproval?: string },
): LegalParticulars {
  const read = (name: string) => env[name]?.trim() || undefined
  if (required) {
    const missing = Object.keys(LEGAL_VARIABLES).filter((name) => !read(name))
    if (missing.length) {
      const what = missing.map((name) => `${name} (${LEGAL_VARIABLES[name as keyof typeof LEGAL_VARIABLES]})`).join(', ')
      throw new Error(
        `En production (NODE_ENV=production), les mentions légales du prestataire sont requises : ${what} ${missing.length > 1 ? 'manquent' : 'manque'}. Sans elles, le portail publierait des mentions légales et une politique de confidentialité sans responsable. Pour une instance de démonstration, indiquez SEED_DEMO=true.`,
      )
    }
  }
  const value = (name: keyof typeof DEMO_LEGAL) => read(name) ?? DEMO_LEGAL[name]
  const siren = value('PROVIDER_SIREN').replace(/\s/g, '')
  if (!validSiren(siren)) {
    throw new Error(
      `PROVIDER_SIREN invalide : « ${value('PROVIDER_SIREN')} » ; un numéro SIREN compte 9 chiffres et sa clé de contrôle doit être juste.`,
    )
  }
  return {
    name: value('PROVIDER_NAME'),
    legalForm: value('PROVIDER_LEGAL_FORM'),
    ...(read('PROVIDER_SHARE_CAPITAL') ? { shareCapital: read('PROVIDER_SHARE_CAPITAL') } : {}),
    siren,
    ...(read('PROVIDER_RCS_CITY') ? { rcsCity: read('PROVIDER_RCS_CITY') } : {}),
    address: value('PROVIDER_ADDRESS'),
    phone: value('PROVIDER_PHONE'),
    contactEmail: fallback.supportEmail,
    publicationDirector: value('PUBLICATION_DIRECTOR'),
    prefectureApproval: fallback.prefectureApproval ?? DEMO_PREFECTURE_APPROVAL,
    privacyEmail: read('PRIVACY_EMAIL') ?? fallback.supportEmail,
    hostName: value('HOST_NAME'),
    hostAddress: value('HOST_ADDRESS'),
    hostPhone: value('HOST_PHONE'),
    publicUrl: fallback.publicUrl,
    brandName: fallback.brandName,
  }
}

/** An operator token shorter than this is refused at startup: it guards every customer's mail. */
export const MIN_OPERATOR_TOKEN_LENGTH = 24
/** Different characters at least in OPERATOR_TOKEN (24 random hex digits hold about 13; fewer than 6 is not chance). */
export const MIN_OPERATOR_TOKEN_DISTINCT = 6

/** billing: the card form of the real provider needs its publishable key, of the same mode (test or live) as the secret key. */
function checkStripeKeys(secretKey: string | undefined, publishableKey: string | undefined) {
  if (!secretKey) return
  if (!publishableKey)
    throw new Error('STRIPE_PUBLISHABLE_KEY manque : avec STRIPE_SECRET_KEY, indiquez la clé publiable (pk_…) du même compte Stripe.')
  if (!/^pk_(test|live)_/.test(publishableKey))
    throw new Error('STRIPE_PUBLISHABLE_KEY invalide : une clé publiable Stripe commence par pk_test_ ou pk_live_.')
  const mode = /^[sr]k_(test|live)_/.exec(secretKey)?.[1]
  if (mode && !publishableKey.startsWith(`pk_${mode}_`))
    throw new Error(
      `STRIPE_PUBLISHABLE_KEY doit être une clé ${mode === 'test' ? 'de test (pk_test_…)' : 'de production (pk_live_…)'}, comme STRIPE_SECRET_KEY.`,
    )
}

/**
 * Production (NODE_ENV=production, as the Dockerfile sets) without the demo: the stand-ins of a development machine
 * would be harmful there. The local test payment provider would let any customer settle real invoices with a public
 * test card, and the outbox mailer writes reset and invitation links to the log. So both real services are required,
 * and the demo data is off unless SEED_DEMO=true (a demonstration instance, which keeps the stand-ins).
 */
function checkProductionServices(stripeSecretKey: string | undefined, smtpUrl: string | undefined) {
  const missing = [...(stripeSecretKey ? [] : ['STRIPE_SECRET_KEY (et STRIPE_PUBLISHABLE_KEY)']), ...(smtpUrl ? [] : ['SMTP_URL'])]
  if (missing.length) {
    throw new Error(
      `En production (NODE_ENV=production), ${missing.join(' et ')} ${missing.length > 1 ? 'sont requis' : 'est requis'} : sans eux, le fournisseur de paiement de test accepterait les cartes de test publiques et les liens des e-mails iraient dans le journal. Pour une instance de démonstration, indiquez SEED_DEMO=true.`,
    )
  }
}

export type TrustProxy = boolean | string

/** proxy-addr's names for ranges, which Fastify accepts beside addresses. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal']

/**
 * TRUST_PROXY: unset or `false`, none; `true`, every proxy (only when clients reach the API solely through a balancer
 * that replaces the header, as deploy/haproxy.cfg does); or the balancers' addresses or ranges
 * (`10.0.0.0/8,192.0.2.7`, or `loopback`, `uniquelocal`…): the client is then the last address of X-Forwarded-For
 * that is not one of them, so whatever a client wrote there itself is ignored. (A number of hops is refused: this
 * Fastify trusts nobody for one, since the nearest peer cannot be checked.)
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? ''
  if (text === '' || text === 'false') return false
  if (text === 'true') return true
  const parts = text.split(',').map((part) => part.trim())
  const isRange = (part: string) => {
    if (PROXY_RANGE_NAMES.includes(part)) return true
    const [address = '', bits, ...rest] = part.split('/')
    const family = isIP(address)
    if (!family || rest.length > 0) return false
    return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128))
  }
  if (parts.every(isRange)) return parts.join(',')
  throw new Error(
    `TRUST_PROXY vaut « ${text} » : indiquez true, false, ou les adresses ou plages des répartiteurs de charge, séparées par des virgules (par exemple 10.0.0.0/8,192.0.2.7).`,
  )
}

/** Where an S3-compatible store keeps the files: what STORAGE_URL says, checked. */
export interface S3Location {
  bucket: string
  /** '' or segments ending with '/': every key is stored under it (several instances or tests in one bucket). */
  prefix: string
  /** http(s)://host:port of a store other than AWS (Scaleway, OVHcloud, MinIO, Ceph); unset: AWS S3. */
  endpoint?: string
  /** Unset: the SDK's own (AWS_REGION, the profile). */
  region?: string
  /** bucket in the path (http://host/bucket/key) rather than in the host name: MinIO, Ceph. */
  forcePathStyle: boolean
  /**
   * when_supported: the SDK's default since 2025 (a CRC32 with every upload, checked on downloads when the store sends
   * one); when_required: only where an operation requires it, for stores that refuse the newer checksums.
   */
  checksums: 'when_supported' | 'when_required'
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
const PREFIX_SEGMENT = /^[A-Za-z0-9_.-]+$/
const S3_PARAMETERS = ['endpoint', 'region', 'forcePathStyle', 'checksums']

/** STORAGE_URL read and checked, with a French message naming what is wrong. */
export function parseStorageUrl(value: string): S3Location {
  const wrong = (why: string) =>
    new Error(`STORAGE_URL vaut « ${value} » : ${why} (attendu : s3://bucket/préfixe?endpoint=https://…&region=…, docs/STORAGE.md).`)
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw wrong('ce n’est pas une adresse')
  }
  if (url.protocol !== 's3:') throw wrong('seul le schéma s3:// est pris en charge')
  if (url.username || url.password)
    throw wrong('les clés d’accès ne se mettent pas dans l’adresse : AWS_ACCESS_KEY_ID et AWS_SECRET_ACCESS_KEY (ou un profil AWS)')
  if (url.port) throw wrong('le port va dans endpoint=, pas après le nom du bucket')
  const bucket = url.hostname
  if (!BUCKET.test(bucket) || bucket.includes('..')) throw wrong(`« ${bucket} » n’est pas un nom de bucket valide`)
  const segments = decodeURIComponent(url.pathname).split('/').filter(Boolean)
  if (segments.some((segment) => !PREFIX_SEGMENT.test(segment) || segment === '..' || segment === '.'))
    throw wrong('le préfixe ne peut contenir que des lettres, chiffres, « _ », « - » et « . » entre des « / »')
  const unknown = [...url.searchParams.keys()].filter((key) => !S3_PARAMETERS.includes(key))
  if (unknown.length) throw wrong(`paramètre inconnu : ${unknown.join(', ')} (connus : ${S3_PARAMETERS.join(', ')})`)
  const endpoint = url.searchParams.get('endpoint')?.trim() || undefined
  if (endpoint) {
    let parsed: URL | undefined
    try {
      parsed = new URL(endpoint)
    } catch {}
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.pathname.replace(/\/$/, '') !== '')
      throw wrong(`endpoint « ${endpoint} » doit être une adresse http(s)://hôte[:port] sans chemin`)
  }
  const region = url.searchParams.get('region')?.trim() || undefined
  if (region !== undefined && !/^[a-z0-9-]+$/.test(region)) throw wrong(`la région « ${region} » n’est pas valide`)
  const pathStyle = url.searchParams.get('forcePathStyle') ?? 'false'
  if (!['true', 'false'].includes(pathStyle)) throw wrong('forcePathStyle vaut true ou false')
  const checksums = url.searchParams.get('checksums') ?? (endpoint ? 'when_required' : 'when_supported')
  if (checksums !== 'when_supported' && checksums !== 'when_required') throw wrong('checksums vaut when_supported ou when_required')
  return {
    bucket,
    prefix: segments.map((segment) => `${segment}/`).join(''),
    endpoint: endpoint?.replace(/\/$/, ''),
    region,
    forcePathStyle: pathStyle === 'true',
    checksums,
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT || 8080)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT invalide : ${env.PORT}`)
  const jobConcurrency = Number(env.JOB_CONCURRENCY?.trim() || 2)
  if (!Number.isInteger(jobConcurrency) || jobConcurrency < 1 || jobConcurrency > 4)
    throw new Error(`JOB_CONCURRENCY invalide : « ${env.JOB_CONCURRENCY} » ; un nombre entier de 1 à 4 est attendu.`)
  const operatorToken = env.OPERATOR_TOKEN?.trim() || undefined
  if (operatorToken && operatorToken.length < MIN_OPERATOR_TOKEN_LENGTH) {
    throw new Error(
      `OPERATOR_TOKEN est trop court : ${MIN_OPERATOR_TOKEN_LENGTH} caractères au moins (par exemple : openssl rand -hex 32).`,
    )
  }
  // The header `Authorization: Bearer <token>` carries one word of visible ASCII (define-route.ts reads `\S+`, and Node
  // reads header bytes as Latin-1): a token with a space, a tab or an accented letter inside passed these checks but no
  // call could ever match it, and every operator call got 401 « Jeton opérateur invalide. » with nothing said at start-up.
  if (operatorToken && !/^[\x21-\x7e]+$/.test(operatorToken)) {
    throw new Error(
      'OPERATOR_TOKEN contient une espace, un caractère invisible ou non ASCII : l’en-tête Authorization ne pourrait jamais le porter. Tirez-le au hasard, en lettres et chiffres (par exemple : openssl rand -hex 32).',
    )
  }
  // Long but guessable ('aaaa…', 'abab…', '0000…'): a token of this one key to every customer's data must be random.
  if (operatorToken && new Set(operatorToken).size < MIN_OPERATOR_TOKEN_DISTINCT) {
    throw new Error(
      `OPERATOR_TOKEN est trop prévisible : ${MIN_OPERATOR_TOKEN_DISTINCT} caractères différents au moins ; tirez-le au hasard (par exemple : openssl rand -hex 32).`,
    )
  }
  const stripeSecretKey = env.STRIPE_SECRET_KEY?.trim() || undefined
  const stripePublishableKey = env.STRIPE_PUBLISHABLE_KEY?.trim() || undefined
  checkStripeKeys(stripeSecretKey, stripePublishableKey)
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, '')
  const production = env.NODE_ENV === 'production'
  // On a development machine the demo is there unless refused; in production only when asked for.
  const seedDemo = production ? env.SEED_DEMO === 'true' : env.SEED_DEMO !== 'false'
  const smtpUrl = env.SMTP_URL?.trim() || undefined
  if (production && !seedDemo) checkProductionServices(stripeSecretKey, smtpUrl)
  const brandName = env.BRAND_NAME || 'Domicilium'
  const supportEmail = env.SUPPORT_EMAIL || 'support@example.com'
  // billing: a certificate without the provider's approval number is worthless; the demo shows that one is needed.
  const prefectureApproval = env.PREFECTURE_APPROVAL?.trim() || (seedDemo ? DEMO_PREFECTURE_APPROVAL : undefined)
  const legal = loadLegal(env, production && !seedDemo, { brandName, supportEmail, publicUrl, prefectureApproval })
  const mailRetentionMonths = Number(env.MAIL_RETENTION_MONTHS?.trim() || 12)
  if (!Number.isInteger(mailRetentionMonths) || mailRetentionMonths < 1 || mailRetentionMonths > 120)
    throw new Error(
      `MAIL_RETENTION_MONTHS vaut « ${env.MAIL_RETENTION_MONTHS} » : indiquez un nombre entier de mois, de 1 à 120 (12 par défaut).`,
    )
  const storageUrl = env.STORAGE_URL?.trim() || undefined
  if (storageUrl) parseStorageUrl(storageUrl)
  return {
    port,
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.DATA_DIR || 'data'),
    storageDir: resolve(env.STORAGE_DIR || 'storage'),
    storageUrl,
    distDir: resolve(env.DIST_DIR || 'dist'),
    smtpUrl,
    mailFrom: env.MAIL_FROM || `${brandName} <no-reply@example.com>`,
    supportEmail,
    brandName,
    stripeSecretKey,
    stripePublishableKey,
    publicUrl,
    allowedOrigins: [
      publicUrl,
      ...(env.PUBLIC_URL ? [] : [`http://127.0.0.1:${port}`]),
      ...(env.ALLOWED_ORIGINS || '')
        .split(',')
        .map((o) => o.trim().replace(/\/$/, ''))
        .filter(Boolean),
    ],
    tokenTtlDays: Number(env.TOKEN_TTL_DAYS || 30),
    authRateLimit: Number(env.AUTH_RATE_LIMIT || 10),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    seedDemo,
    operatorToken,
    prefectureApproval,
    legal,
    documents: loadDocuments(env, legal.siren),
    // cluster
    instanceName: env.INSTANCE_NAME?.trim() || undefined,
    // mail pipeline
    jobWorker: env.JOB_WORKER !== 'false',
    jobKinds: env.JOB_KINDS?.trim()
      ? env.JOB_KINDS.split(',')
          .map((kind) => kind.trim())
          .filter(Boolean)
      : undefined,
    jobConcurrency,
    mailRetentionMonths,
  }
}

/**
 * billing: the provider as its certificates, contracts and invoices name it; undefined without an approval number, with
 * which no certificate or contract is drawn.
 */
export function documentProvider(config: Pick<Config, 'brandName' | 'legal' | 'documents' | 'prefectureApproval'>): Provider | undefined {
  if (!config.prefectureApproval) return undefined
  const { legal, documents } = config
  return {
    brandName: config.brandName,
    name: legal.name,
    legalForm: legal.legalForm,
    ...(legal.shareCapital ? { shareCapital: legal.shareCapital } : {}),
    siren: legal.siren,
    ...(legal.rcsCity ? { rcsCity: legal.rcsCity } : {}),
    vatNumber: documents.vatNumber,
    address: legal.address,
    approval: config.prefectureApproval,
    approvalDate: documents.approvalDate,
    signatory: documents.signatory,
    latePaymentRate: documents.latePaymentRate,
  }
}
