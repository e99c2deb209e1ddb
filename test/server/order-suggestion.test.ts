// The order suggestion of scanned letters (server/services/order-suggestion.ts): every letter of the test set
// (test/util/letters-suggestion.ts) gets its expected order or none, with its confidence and sender; what makes a
// match (SIREN spellings, name variants) and what must not (a SIREN inside another number, a short name inside a word);
// then the demo letters, read from their PDFs' text layers as the pipeline reads them. Precision and recall of both
// sets are printed (docs/MAIL.md, "Order suggestion").
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openLetter } from '../../server/services/letter-render.ts'
import { type CandidateOrder, type LetterText, suggestOrder, suggestSender } from '../../server/services/order-suggestion.ts'
import { candidates, letters } from '../util/letters-suggestion.ts'
import { buildTestApp, type TestApp } from '../util/server.ts'

/** Right suggestions over suggestions made, and over the letters that have an order. */
function measure(results: { expected: number | null; suggested: number | null }[]) {
  const made = results.filter((r) => r.suggested !== null)
  const right = made.filter((r) => r.suggested === r.expected)
  const withOrder = results.filter((r) => r.expected !== null)
  return {
    letters: results.length,
    made: made.length,
    right: right.length,
    withOrder: withOrder.length,
    precision: made.length ? right.length / made.length : 1,
    recall: withOrder.length ? right.length / withOrder.length : 1,
  }
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`
const report = (set: string, m: ReturnType<typeof measure>) =>
  console.log(
    `  ${set}: ${m.letters} letters (${m.withOrder} for one of the candidates), ${m.made} suggestions, ${m.right} right: ` +
      `precision ${percent(m.precision)}, recall ${percent(m.recall)}`,
  )

const testSet = suite('order suggestion: the test set of French letters')

testSet('holds at least 30 letters, of every kind the mail room gets', () => {
  assert.ok(letters.length >= 30, `${letters.length} letters`)
  assert.ok(letters.filter((l) => l.expected === null).length >= 8, 'letters naming none or too many')
  assert.ok(letters.filter((l) => l.confidence === 'sûr').length >= 8, 'letters with a SIREN')
  assert.ok(letters.filter((l) => typeof l.text !== 'string' && l.text.length > 1).length >= 2, 'letters of several pages')
})

for (const letter of letters) {
  testSet(letter.name, () => {
    const suggestion = suggestOrder(letter.text, candidates)
    assert.is(suggestion.orderId, letter.expected, suggestion.reason)
    if (letter.confidence) assert.is(suggestion.confidence, letter.confidence, suggestion.reason)
    if (letter.expected === null) assert.is(suggestion.confidence, null)
    if (letter.reasonHas) assert.ok(suggestion.reason.includes(letter.reasonHas), `« ${suggestion.reason} » names « ${letter.reasonHas} »`)
    assert.match(suggestion.reason, /\p{L}{3}/u, 'a reason in words')
    assert.is(suggestSender(letter.text), letter.sender)
  })
}

testSet('precision and recall', () => {
  const m = measure(letters.map((l) => ({ expected: l.expected, suggested: suggestOrder(l.text, candidates).orderId })))
  report('test set', m)
  assert.is(m.precision, 1)
  assert.is(m.recall, 1)
})

testSet.run()

// --- What makes a match, and what must not.
const boulangerie = candidates.find((c) => c.orderId === 101)!
const letterTo = (recipient: string, body = 'Veuillez trouver ci-joint notre courrier.'): LetterText => [
  `Expéditeur SA\n1 rue du Port\n13002 Marseille\n${recipient}\n12 rue de la Paix\n75002 Paris\nObjet : Courrier\nMadame, Monsieur,\n${body}`,
]

const matching = suite('order suggestion: what matches and what does not')

matching('the SIREN in every usual spelling is sure', () => {
  for (const written of [
    'SIREN 823 456 785',
    'SIREN : 823456785',
    'SIREN 823\u00a0456\u00a0785',
    'SIREN 823.456.785',
    'SIRET 823 456 785 00012',
    'SIRET 82345678500012',
    'TVA intracommunautaire FR 72 823 456 785',
    'TVA FR72823456785',
    'RCS Paris B 823 456 785',
  ]) {
    const suggestion = suggestOrder(letterTo('Destinataire inconnu', written), candidates)
    assert.is(suggestion.orderId, 101, written)
    assert.is(suggestion.confidence, 'sûr', written)
  }
})

matching('nine digits inside a longer number, or one digit off, are no SIREN', () => {
  for (const written of [
    'Référence 1823456785',
    'Compte 8234567851',
    'IBAN FR76 3000 4008 2345 6785 1234 567',
    'Téléphone 01 82 34 56 78',
    'Montant 823 456 78,50 €',
    'SIREN 823 456 786',
    'SIREN 823 465 785',
  ]) {
    assert.is(suggestOrder(letterTo('Destinataire inconnu', written), candidates).orderId, null, written)
  }
})

matching('the company name whatever its case, accents, legal form, punctuation and hyphens', () => {
  for (const written of [
    'Boulangerie des Lilas SAS',
    'BOULANGERIE DES LILAS',
    'boulangerie des lilas',
    'SAS Boulangerie des Lilas',
    'Société Boulangerie des Lilas',
    'Boulangerie des Lilas S.A.S.',
    'Boulangerie-des-Lilas',
    'Boulangerie des Lilas, SAS',
    'BOULANGERIE  DES   LILAS',
  ]) {
    const suggestion = suggestOrder(letterTo(written), candidates)
    assert.is(suggestion.orderId, 101, written)
    assert.is(suggestion.confidence, 'probable', written)
  }
  for (const written of ['EPICERIE SOLENE', 'Épicerie Solène', 'épicerie solène sarl', 'Epicerie-Solene S.A.R.L.']) {
    assert.is(suggestOrder(letterTo(written), candidates).orderId, 105, written)
  }
})

matching('OCR’s usual misreadings: l, i and 1, o and 0, s and 5, one letter of a long word', () => {
  for (const written of ['B0ULANGERIE DES L1LAS', 'Bou1angerie des Li1as', 'BOULANGERIE DE5 LILAS', 'Boulangcrie des Lilas']) {
    assert.is(suggestOrder(letterTo(written), candidates).orderId, 101, written)
  }
  for (const written of ['Boulangerie des Lolas', 'Boulangerie des Lila', 'Boulang des Lilas']) {
    assert.is(suggestOrder(letterTo(written), candidates).orderId, null, `${written}: too far`)
  }
})

matching('a short or common name is not found inside a word, nor alone in a sentence', () => {
  for (const body of [
    'Nos innovations arrivent.',
    'Une supernova de promotions.',
    'Un éclairage neuf.',
    'Comme un éclair, notre offre arrive.',
    'Rendez-vous à la Bossa Nova.',
    'Les services de France Services vous accueillent.',
  ]) {
    assert.is(suggestOrder(letterTo('Destinataire inconnu', body), candidates).orderId, null, body)
  }
  // The same names with their legal form are found.
  assert.is(suggestOrder(letterTo('Destinataire inconnu', 'Votre fournisseur Nova SAS nous écrit.'), candidates).orderId, 107)
  assert.is(suggestOrder(letterTo('Destinataire inconnu', 'La société L’Éclair nous écrit.'), candidates).orderId, 108)
})

matching('a company named in the body only is possible, not probable', () => {
  const suggestion = suggestOrder(letterTo('Destinataire inconnu', 'Votre client Boulangerie des Lilas nous a réglé.'), candidates)
  assert.is(suggestion.orderId, 101)
  assert.is(suggestion.confidence, 'possible')
  assert.match(suggestion.reason, 'cité page 1')
})

matching('the answer depends on neither the order of the candidates nor the letter’s blank lines; nothing handed in changes', () => {
  const frozen = Object.freeze(candidates.map((c) => Object.freeze({ ...c }))) as readonly CandidateOrder[]
  const reversed = [...frozen].reverse()
  for (const letter of letters) {
    const pages = typeof letter.text === 'string' ? [letter.text] : letter.text
    const spaced = typeof letter.text === 'string' ? letter.text.replace(/\n/g, '\n\n') : pages.map((p) => p.replace(/\n/g, '\n  \n'))
    const once = suggestOrder(letter.text, frozen)
    assert.equal(suggestOrder(letter.text, reversed), once, letter.name)
    assert.equal(suggestOrder(spaced, frozen), once, `${letter.name}, blank lines`)
  }
})

matching('no candidate, no text', () => {
  assert.is(suggestOrder(letterTo('Boulangerie des Lilas'), []).orderId, null)
  assert.is(suggestOrder('', candidates).reason, 'aucun texte lu sur le courrier')
  assert.is(suggestOrder([], candidates).orderId, null)
  assert.is(suggestSender(''), null)
})

matching('a candidate without SIREN or with a one-word owner is still matched by its name', () => {
  const bare: CandidateOrder[] = [{ orderId: 9, raisonSociale: 'Boulangerie des Lilas SAS', siren: null, ownerName: 'Camille' }]
  assert.is(suggestOrder(letterTo('Boulangerie des Lilas'), bare).orderId, 9)
  assert.is(suggestOrder(letterTo('Madame Camille'), bare).orderId, null, 'a first name alone is nobody')
  assert.is(
    suggestOrder(letterTo('Boulangerie des Lilas'), [boulangerie, { ...boulangerie, orderId: 202 }]).orderId,
    null,
    'two orders, same company',
  )
})

matching.run()

// --- The demo letters, as the pipeline reads them: each page's text layer, from the PDFs the seed stored.
const demo = suite<{ t: TestApp }>('order suggestion: the demo letters')
demo.before(async (ctx) => {
  ctx.t = await buildTestApp()
})
demo.after((ctx) => ctx.t?.close())

demo('every demo letter gets its own order, none a wrong one', async ({ t }) => {
  const db = t.deps.db
  const orders = await db
    .selectFrom('orders')
    .innerJoin('users', 'users.id', 'orders.owner_id')
    .select(['orders.id', 'orders.raison_sociale', 'orders.siren', 'users.firstname', 'users.lastname'])
    .execute()
  const demoCandidates: CandidateOrder[] = orders.map((o) => ({
    orderId: o.id,
    raisonSociale: o.raison_sociale,
    siren: o.siren,
    ownerName: `${o.firstname} ${o.lastname}`,
  }))
  const documents = await db.selectFrom('documents').select(['id', 'order_id', 'file_key', 'sender']).orderBy('id').execute()
  assert.ok(documents.length >= 40, `${documents.length} demo letters`)
  const results: { expected: number | null; suggested: number | null }[] = []
  let sendersExact = 0
  for (const document of documents) {
    const letter = await openLetter(new Uint8Array((await t.deps.storage.get(document.file_key))!))
    const pages: string[] = []
    try {
      for (let n = 1; n <= letter.pages; n++) pages.push(await letter.layer(n))
    } finally {
      await letter.close()
    }
    const suggestion = suggestOrder(pages, demoCandidates)
    results.push({ expected: document.order_id, suggested: suggestion.orderId })
    if (suggestion.orderId !== null) assert.is(suggestion.orderId, document.order_id, `letter ${document.id}: ${suggestion.reason}`)
    // The sender is the stored one, or its bank's brand alone (« BNP Paribas » for « BNP Paribas Entreprises »).
    const sender = suggestSender(pages)
    assert.ok(sender && document.sender.startsWith(sender), `letter ${document.id}: ${sender} for ${document.sender}`)
    if (sender === document.sender) sendersExact++
  }
  const m = measure(results)
  report('demo letters', m)
  console.log(
    `  demo letters: the sender suggested is the stored one for ${sendersExact} of ${documents.length}, its first words for the rest`,
  )
  assert.is(m.precision, 1)
  assert.is(m.recall, 1)
})

demo.run()
