// server/config.ts: production (NODE_ENV=production) refuses the development stand-ins unless the instance is a
// demonstration (SEED_DEMO=true). Why: the compose file started with the local test payment provider
// (any customer settled real invoices with 4242…), reset links went to the log, and the Docker image seeded the
// demo accounts and their published password.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { DEMO_PREFECTURE_APPROVAL, loadConfig } from '../../server/config.ts'

const stripe = { STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PUBLISHABLE_KEY: 'pk_live_x' }
const smtp = { SMTP_URL: 'smtps://user:pass@smtp.example.com:465' }

test('production without Stripe or without SMTP does not start, and says what is missing in French', () => {
  assert.throws(() => loadConfig({ NODE_ENV: 'production' }), /STRIPE_SECRET_KEY \(et STRIPE_PUBLISHABLE_KEY\) et SMTP_URL sont requis/)
  assert.throws(() => loadConfig({ NODE_ENV: 'production', ...smtp }), /STRIPE_SECRET_KEY \(et STRIPE_PUBLISHABLE_KEY\) est requis/)
  assert.throws(() => loadConfig({ NODE_ENV: 'production', ...stripe }), /SMTP_URL est requis/)
  assert.throws(() => loadConfig({ NODE_ENV: 'production', ...stripe, SMTP_URL: '  ' }), /SMTP_URL est requis/)
  assert.throws(() => loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'false' }), /SEED_DEMO=true/)
})

test('production with both: no demo data, no demo approval number', () => {
  const config = loadConfig({ NODE_ENV: 'production', ...stripe, ...smtp })
  assert.is(config.seedDemo, false)
  assert.is(config.prefectureApproval, undefined)
  assert.is(config.smtpUrl, smtp.SMTP_URL)
})

test('a demonstration instance in production (SEED_DEMO=true) keeps the stand-ins and the demo', () => {
  const config = loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'true' })
  assert.is(config.seedDemo, true)
  assert.is(config.stripeSecretKey, undefined)
  assert.is(config.smtpUrl, undefined)
  assert.is(config.prefectureApproval, DEMO_PREFECTURE_APPROVAL)
})

test('on a development machine the demo is there unless refused, with the stand-ins', () => {
  assert.is(loadConfig({}).seedDemo, true)
  assert.is(loadConfig({ SEED_DEMO: 'false' }).seedDemo, false)
  assert.is(loadConfig({ SEED_DEMO: 'false' }).prefectureApproval, undefined)
  assert.is(loadConfig({ NODE_ENV: 'development' }).stripeSecretKey, undefined)
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
