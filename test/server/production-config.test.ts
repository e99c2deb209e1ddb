// server/config.ts: production (NODE_ENV=production) refuses the development stand-ins unless the instance is a
// demonstration (SEED_DEMO=true). Why: the compose file started with the local test payment provider
// (any customer settled real invoices with 4242…), reset links went to the log, and the Docker image seeded the
// demo accounts and their published password.
// tests: the embedded database only (no database at all; left out of the PostgreSQL run)
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import {
  DEMO_LEGAL,
  DEMO_PREFECTURE_APPROVAL,
  documentProvider,
  frenchVatNumber,
  LEGAL_VARIABLES,
  loadConfig,
  STATUTORY_LATE_PAYMENT_RATE,
  validSiren,
} from '../../server/config.ts'

const stripe = { STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PUBLISHABLE_KEY: 'pk_live_x' }
const smtp = { SMTP_URL: 'smtps://user:pass@smtp.example.com:465' }
/** A real provider's particulars (LCEN art. 6): what a production start requires besides Stripe and SMTP. */
const legal = {
  PROVIDER_NAME: 'Domiciliation Exemple',
  PROVIDER_LEGAL_FORM: 'SAS',
  PROVIDER_SIREN: '987 654 324',
  PROVIDER_ADDRESS: '12 rue des Exemples, 69002 Lyon',
  PROVIDER_PHONE: '04 72 00 00 00',
  SUPPORT_EMAIL: 'contact@exemple.fr',
  PUBLICATION_DIRECTOR: 'Claire Exemple',
  PREFECTURE_APPROVAL: '2024-69-0123',
  PREFECTURE_APPROVAL_DATE: '2024-03-15',
  CERTIFICATE_SIGNATORY_NAME: 'Claire Exemple',
  CERTIFICATE_SIGNATORY_TITLE: 'Présidente',
  HOST_NAME: 'Hébergeur Exemple SAS',
  HOST_ADDRESS: '2 rue du Serveur, 59100 Roubaix',
  HOST_PHONE: '03 20 00 00 00',
}

test('production without Stripe or without SMTP does not start, and says what is missing in French', () => {
  assert.throws(() => loadConfig({ NODE_ENV: 'production' }), /STRIPE_SECRET_KEY \(et STRIPE_PUBLISHABLE_KEY\) et SMTP_URL sont requis/)
  assert.throws(() => loadConfig({ NODE_ENV: 'production', ...smtp }), /STRIPE_SECRET_KEY \(et STRIPE_PUBLISHABLE_KEY\) est requis/)
  assert.throws(() => loadConfig({ NODE_ENV: 'production', ...stripe }), /SMTP_URL est requis/)
  assert.throws(() => loadConfig({ NODE_ENV: 'production', ...stripe, SMTP_URL: '  ' }), /SMTP_URL est requis/)
  assert.throws(() => loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'false' }), /SEED_DEMO=true/)
})

test('production with Stripe and SMTP but without the legal particulars does not start, and names each missing one in French', () => {
  assert.throws(
    () => loadConfig({ NODE_ENV: 'production', ...stripe, ...smtp }),
    new RegExp(
      'mentions légales du prestataire sont requises : PROVIDER_NAME \\(la dénomination sociale\\), .*' +
        'HOST_PHONE \\(le téléphone de l’hébergeur\\) manquent.*SEED_DEMO=true',
    ),
  )
  for (const name of Object.keys(LEGAL_VARIABLES)) {
    const { [name as keyof typeof legal]: _left, ...rest } = legal
    assert.throws(
      () => loadConfig({ NODE_ENV: 'production', ...stripe, ...smtp, ...rest }),
      new RegExp(`requises : ${name} \\([^)]+\\) manque\\.`),
      name,
    )
    // Blank is missing too (a compose file's `${VAR:-}`).
    assert.throws(() => loadConfig({ NODE_ENV: 'production', ...stripe, ...smtp, ...legal, [name]: '  ' }), new RegExp(`${name} \\(`), name)
  }
})

test('production with all of them: no demo data, the configured particulars, not one demo value', () => {
  const config = loadConfig({
    NODE_ENV: 'production',
    ...stripe,
    ...smtp,
    ...legal,
    PRIVACY_EMAIL: 'dpo@exemple.fr',
    PUBLIC_URL: 'https://espace.exemple.fr',
  })
  assert.is(config.seedDemo, false)
  assert.is(config.prefectureApproval, legal.PREFECTURE_APPROVAL)
  assert.is(config.smtpUrl, smtp.SMTP_URL)
  assert.equal(config.legal, {
    name: legal.PROVIDER_NAME,
    legalForm: 'SAS',
    siren: '987654324',
    address: legal.PROVIDER_ADDRESS,
    phone: legal.PROVIDER_PHONE,
    contactEmail: 'contact@exemple.fr',
    publicationDirector: legal.PUBLICATION_DIRECTOR,
    prefectureApproval: legal.PREFECTURE_APPROVAL,
    privacyEmail: 'dpo@exemple.fr',
    hostName: legal.HOST_NAME,
    hostAddress: legal.HOST_ADDRESS,
    hostPhone: legal.HOST_PHONE,
    publicUrl: 'https://espace.exemple.fr',
    brandName: 'Domicilium',
  })
})

test('the documents’ particulars: the approval’s date, the signatory, the VAT number of the SIREN, the statutory penalty rate', () => {
  const config = loadConfig({ NODE_ENV: 'production', ...stripe, ...smtp, ...legal })
  assert.equal(config.documents, {
    approvalDate: new Date('2024-03-15T12:00:00Z'),
    signatory: { name: 'Claire Exemple', title: 'Présidente' },
    vatNumber: 'FR14987654324',
    latePaymentRate: STATUTORY_LATE_PAYMENT_RATE,
  })
  assert.is(documentProvider(config)?.approval, legal.PREFECTURE_APPROVAL)
  assert.is(documentProvider(config)?.siren, '987654324')
  // The key of a French VAT number: (12 + 3 × (SIREN mod 97)) mod 97, as in the tax administration's own example.
  assert.is(frenchVatNumber('303 265 045'), 'FR40303265045')
  assert.is(loadConfig({ PROVIDER_VAT_NUMBER: 'fr 14 987 654 324', PROVIDER_SIREN: '987654324' }).documents.vatNumber, 'FR14987654324')
  assert.is(loadConfig({ LATE_PAYMENT_RATE: 'de 12 % l’an' }).documents.latePaymentRate, 'de 12 % l’an')
  assert.is(loadConfig({ SEED_DEMO: 'false' }).documents.signatory.name, DEMO_LEGAL.CERTIFICATE_SIGNATORY_NAME)
  assert.is(documentProvider(loadConfig({ SEED_DEMO: 'false' })), undefined, 'no approval number, no document')
})

test('a malformed approval date or a VAT number of another SIREN stops any start, in French', () => {
  for (const day of ['15/03/2024', '2024-02-30', 'hier']) {
    assert.throws(() => loadConfig({ PREFECTURE_APPROVAL_DATE: day }), /PREFECTURE_APPROVAL_DATE invalide : « .+ » ; indiquez la date/, day)
  }
  assert.throws(
    () => loadConfig({ PROVIDER_SIREN: '987654324', PROVIDER_VAT_NUMBER: 'FR00987654324' }),
    /PROVIDER_VAT_NUMBER invalide : « FR00987654324 » ; le numéro de TVA intracommunautaire de ce SIREN est FR14987654324\./,
  )
})

test('a SIREN with a wrong check digit or not 9 digits is refused at start-up, in French', () => {
  assert.ok(validSiren('987654324'))
  assert.not.ok(validSiren('987654325'))
  for (const siren of ['987654325', '98765432', 'ABC654324']) {
    assert.throws(
      () => loadConfig({ NODE_ENV: 'production', ...stripe, ...smtp, ...legal, PROVIDER_SIREN: siren }),
      /PROVIDER_SIREN invalide/,
      siren,
    )
  }
  assert.throws(() => loadConfig({ PROVIDER_SIREN: '123' }), /PROVIDER_SIREN invalide/)
})

test('a demonstration instance in production (SEED_DEMO=true) keeps the stand-ins and the demo', () => {
  const config = loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'true' })
  assert.is(config.seedDemo, true)
  assert.is(config.stripeSecretKey, undefined)
  assert.is(config.smtpUrl, undefined)
  assert.is(config.prefectureApproval, DEMO_PREFECTURE_APPROVAL)
  assert.is(config.legal.name, DEMO_LEGAL.PROVIDER_NAME)
  assert.is(config.legal.prefectureApproval, DEMO_PREFECTURE_APPROVAL)
})

test('on a development machine the demo is there unless refused, with the stand-ins', () => {
  assert.is(loadConfig({}).seedDemo, true)
  assert.is(loadConfig({ SEED_DEMO: 'false' }).seedDemo, false)
  assert.is(loadConfig({ SEED_DEMO: 'false' }).prefectureApproval, undefined)
  assert.is(loadConfig({ NODE_ENV: 'development' }).stripeSecretKey, undefined)
  // The legal pages always have particulars to show: the demo's, or those configured.
  assert.is(loadConfig({}).legal.siren, DEMO_LEGAL.PROVIDER_SIREN)
  assert.is(loadConfig({ PROVIDER_NAME: 'Autre SAS' }).legal.name, 'Autre SAS')
  assert.is(loadConfig({ SUPPORT_EMAIL: 'aide@exemple.fr' }).legal.privacyEmail, 'aide@exemple.fr')
})

test("OPERATOR_TOKEN: 24 characters at least, and not a repeated pattern (the one key to every customer's data)", () => {
  assert.throws(() => loadConfig({ OPERATOR_TOKEN: 'abc123' }), /trop court/)
  for (const guessable of ['a'.repeat(64), 'ab'.repeat(20), '0123'.repeat(8), 'aaaaabbbbbcccccdddddeeeee']) {
    assert.throws(() => loadConfig({ OPERATOR_TOKEN: guessable }), /OPERATOR_TOKEN est trop prévisible/, guessable)
  }
  assert.is(loadConfig({ OPERATOR_TOKEN: '3f9c0a7be21d4c58a9e6f0b1' }).operatorToken, '3f9c0a7be21d4c58a9e6f0b1')
})

test('OPERATOR_TOKEN with white space, a control or a non-ASCII character inside: refused at start-up (no Authorization header could carry it)', () => {
  for (const unusable of [
    '3f9c0a7be21d 4c58a9e6f0b1e2',
    '3f9c0a7be21d\t4c58a9e6f0b1e2',
    '3f9c0a7be21d\n4c58a9e6f0b1e2',
    '3f9c0a7be21d\u00a04c58a9e6f0b1',
    'clé-opérateur-3f9c0a7be21d4c58',
    '3f9c0a7be21d\u200b4c58a9e6f0b1',
  ]) {
    assert.throws(
      () => loadConfig({ OPERATOR_TOKEN: unusable }),
      /OPERATOR_TOKEN contient une espace, un caractère invisible ou non ASCII/,
      JSON.stringify(unusable),
    )
  }
  // Around it, white space is trimmed as before (a newline left by a secrets file).
  assert.is(loadConfig({ OPERATOR_TOKEN: ' 3f9c0a7be21d4c58a9e6f0b1\n' }).operatorToken, '3f9c0a7be21d4c58a9e6f0b1')
})

test.run()
