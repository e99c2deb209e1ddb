import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { findDeadline, foldText, MAX_AMOUNT_CENTS } from '../../server/contract/rules/deadlines.ts'

const received = new Date('2027-01-04T09:00:00Z')

const Phrases = suite('deadlines: the phrases that announce one')

const phrases: Array<[string, string]> = [
  ['Merci de nous retourner le formulaire avant le 15 janvier 2027.', '2027-01-15'],
  ['Votre déclaration doit nous parvenir au plus tard le 1er mars 2027.', '2027-03-01'],
  ['Date limite de paiement : 15/01/2027', '2027-01-15'],
  ['Date limite de dépôt : 28 février 2027', '2027-02-28'],
  ['Date limite : 31.03.27', '2027-03-31'],
  ['Échéance : 15 mars 2027', '2027-03-15'],
  ['Échéance du 20/02/2027', '2027-02-20'],
  ['Somme à régler avant le 10 février 2027', '2027-02-10'],
  ['Montant à payer avant le 12/02/2027', '2027-02-12'],
  ["Date d'exigibilité : 05/02/2027", '2027-02-05'],
  ['Date d’exigibilité le 6 février 2027', '2027-02-06'],
  ['Cotisation exigible le 7 février 2027', '2027-02-07'],
  ['à régler au plus tard le lundi 15 février 2027', '2027-02-15'],
  ['Payable avant le 1er avril 2027', '2027-04-01'],
  ['Vous disposez d’un délai jusqu’au 30 avril 2027 pour répondre.', '2027-04-30'],
  ['Date limite de réponse : 3 mai 2027', '2027-05-03'],
  ['avant le 9 sept. 2027', '2027-09-09'],
  ['Date limite de paiement : 15-01-2027', '2027-01-15'],
]

for (const [text, date] of phrases) {
  Phrases(`"${text}" → ${date}`, () => assert.is(findDeadline(text, received)?.date, date))
}

Phrases('a date that no phrase announces is not a deadline', () => {
  assert.is(
    findDeadline('Paris, le 3 janvier 2027\n\nMadame, Monsieur,\nNous accusons réception de votre courrier du 15/12/2026.', received),
    null,
  )
  assert.is(findDeadline('Fait à Lyon le 20 février 2027. Votre contrat court jusqu’à nouvel ordre.', received), null)
  assert.is(findDeadline('', received), null)
})

Phrases('a phrase that no date follows is not a deadline', () => {
  assert.is(findDeadline('Avant le début des travaux, merci de nous contacter. Paris, le 3 janvier 2027.', received), null)
  assert.is(findDeadline('Votre échéancier du 15 janvier 2027 est joint.', received), null, '"échéancier" is not "échéance"')
  assert.is(findDeadline('Réglez votre échéance dès que possible', received), null)
})

Phrases('an impossible date is not read', () => {
  assert.is(findDeadline('avant le 31/02/2027', received), null)
  assert.is(findDeadline('avant le 32 janvier 2027', received), null)
  assert.is(findDeadline('avant le 15/13/2027', received), null)
})

const Noise = suite('deadlines: OCR noise')

Noise('missing accents, capitals, doubled spaces and a cut line', () => {
  assert.is(findDeadline('ECHEANCE  :   15  mars   2027', received)?.date, '2027-03-15')
  assert.is(findDeadline('date d exigibilite : 05/02/2027', received)?.date, '2027-02-05', 'the apostrophe lost')
  assert.is(findDeadline("DATE D'EXIGIBILITE : 05/02/2027", received)?.date, '2027-02-05')
  assert.is(findDeadline('a regler avant le\n15 fevrier 2027', received)?.date, '2027-02-15')
  assert.is(findDeadline('au plus\ntard  le 2 decembre 2027', received)?.date, '2027-12-02')
  assert.is(findDeadline('Date limite de paiement : 15 / 01 / 2027', received)?.date, '2027-01-15')
})

Noise('"l5" for 15, "ler" for 1er, "1O" for 10; never a day without a digit', () => {
  assert.is(findDeadline('avant le l5 janvier 2027', received)?.date, '2027-01-15')
  assert.is(findDeadline('au plus tard le ler mars 2027', received)?.date, '2027-03-01')
  assert.is(findDeadline('avant le 1O/02/2027', received)?.date, '2027-02-10')
  assert.is(findDeadline('avant le lo janvier 2027', received), null)
})

const Amounts = suite('deadlines: the amount due')

Amounts('written in the usual ways', () => {
  assert.equal(findDeadline('Montant : 1 234,56 € à régler avant le 15 janvier 2027', received), {
    date: '2027-01-15',
    amountCents: 123456,
  })
  assert.equal(findDeadline('À payer avant le 15/01/2027 : 1234.56 EUR', received), { date: '2027-01-15', amountCents: 123456 })
  assert.equal(findDeadline('Date limite de paiement : 15/01/2027\nMontant à payer : 320,00 €', received), {
    date: '2027-01-15',
    amountCents: 32000,
  })
  assert.equal(findDeadline('Échéance : 15 mars 2027. Montant à payer : 320,00', received), { date: '2027-03-15', amountCents: 32000 })
  assert.equal(findDeadline('Total 1.234,50 euros, échéance le 15/03/2027', received), { date: '2027-03-15', amountCents: 123450 })
  assert.equal(findDeadline('avant le 15/03/2027 la somme de 87 €', received), { date: '2027-03-15', amountCents: 8700 })
})

Amounts('none, or too far from the phrase', () => {
  assert.equal(findDeadline('Merci de répondre avant le 15 janvier 2027.', received), { date: '2027-01-15', amountCents: null })
  const far = `Capital social 10 000 €. ${'Texte sans rapport. '.repeat(20)}Répondez avant le 15 janvier 2027.`
  assert.equal(findDeadline(far, received), { date: '2027-01-15', amountCents: null })
})

Amounts('a number beyond what an amount can be (a reference, OCR noise) is passed over', () => {
  assert.equal(findDeadline('Montant à payer : 25 000 000,00 EUR. À régler au plus tard le 15/12/2027.', received), {
    date: '2027-12-15',
    amountCents: null,
  })
  assert.equal(findDeadline('Total 12345678901 — échéance le 15/03/2027', received), { date: '2027-03-15', amountCents: null })
  assert.equal(findDeadline('Réf. 99999999999999999999 €, montant : 42,00 €, échéance le 15/03/2027', received), {
    date: '2027-03-15',
    amountCents: 4200,
  })
  assert.equal(findDeadline('Montant : 21 474 836,47 € avant le 15/03/2027', received), {
    date: '2027-03-15',
    amountCents: MAX_AMOUNT_CENTS,
  })
})

Amounts('the amount nearest the phrase wins', () => {
  const text = 'Facture de décembre : 50,00 €.\n\n\nÉchéance : 15/02/2027 — montant à payer : 120,00 €'
  assert.is(findDeadline(text, received)?.amountCents, 12000)
})

const Earliest = suite('deadlines: the earliest on or after the letter')

Earliest('several deadlines: the earliest wins', () => {
  const text = 'Premier versement avant le 15 mars 2027. Second versement avant le 15 février 2027. Solde au plus tard le 30 avril 2027.'
  assert.is(findDeadline(text, received)?.date, '2027-02-15')
})

Earliest('a deadline already past when the letter came is not the one to meet', () => {
  const text = 'Votre précédente échéance du 15/12/2026 a été réglée. Prochaine échéance : 15/03/2027.'
  assert.is(findDeadline(text, received)?.date, '2027-03-15')
  assert.is(findDeadline('Échéance du 15/12/2026, réglée.', received), null)
  assert.is(findDeadline('Échéance du 15/12/2026', undefined)?.date, '2026-12-15', 'without a reception date every deadline counts')
})

Earliest('the day of reception counts, in Paris', () => {
  // 23:30 UTC on 3 January is already 4 January in Paris.
  assert.is(findDeadline('avant le 4 janvier 2027', new Date('2027-01-03T23:30:00Z'))?.date, '2027-01-04')
  assert.is(findDeadline('avant le 3 janvier 2027', new Date('2027-01-03T23:30:00Z')), null)
})

Earliest('a date without its year is the next one from the letter', () => {
  assert.is(findDeadline('avant le 15 février', received)?.date, '2027-02-15')
  assert.is(findDeadline('avant le 2 janvier', received)?.date, '2028-01-02')
  assert.is(findDeadline('avant le 15 février'), null, 'without a reception date the year is unknown')
})

const Properties = suite('deadlines: properties')

const PHRASES = [
  'avant le',
  'au plus tard le',
  'date limite de paiement :',
  'échéance :',
  'à régler avant le',
  "date d'exigibilité :",
  'Date limite :',
  'ÉCHÉANCE',
]
const MONTH_NAMES = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
]
const day = fc.date({ min: new Date(Date.UTC(2027, 0, 4)), max: new Date(Date.UTC(2060, 11, 31)), noInvalidDate: true })
const iso = (d: Date) => d.toISOString().slice(0, 10)
const formats: Array<(d: Date) => string> = [
  (d) => `${d.getUTCDate() === 1 ? '1er' : d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`,
  (d) => `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`,
  (d) =>
    `${String(d.getUTCDate()).padStart(2, '0')}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.${String(d.getUTCFullYear()).slice(2)}`,
]
const prose = fc.constantFrom(
  'Madame, Monsieur,',
  'Nous vous remercions de votre confiance.',
  'Référence : 2026-118.',
  'Paris, le 3 janvier 2027',
  '',
)

Properties('any formatted date after any phrase is found, whatever the prose around it', () => {
  fc.assert(
    fc.property(prose, fc.constantFrom(...PHRASES), fc.constantFrom(...formats), day, prose, (before, phrase, format, date, after) => {
      const found = findDeadline(`${before}\n${phrase} ${format(date)}.\n${after}`, received)
      return found?.date === iso(date) && found.amountCents === null
    }),
    { numRuns: 400 },
  )
})

Properties('the same text without accents, in capitals or with doubled spaces gives the same deadline', () => {
  fc.assert(
    fc.property(fc.constantFrom(...PHRASES), fc.constantFrom(...formats), day, (phrase, format, date) => {
      const text = `Nous vous prions de régler ${phrase} ${format(date)} la somme de 1 234,56 €.`
      const noisy = foldText(text).toUpperCase().replace(/ /g, '  ')
      const expected = { date: iso(date), amountCents: 123456 }
      assert.equal(findDeadline(text, received), expected)
      assert.equal(findDeadline(noisy, received), expected)
    }),
    { numRuns: 200 },
  )
})

Properties('any amount written "1 234,56 €" or "1234.56 EUR" is read to the cent', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 99_999_999 }), fc.boolean(), (amount, french) => {
      const units = Math.floor(amount / 100)
      const decimals = String(amount % 100).padStart(2, '0')
      const written = french ? `${units.toLocaleString('fr-FR').replace(/\s/g, ' ')},${decimals} €` : `${units}.${decimals} EUR`
      return findDeadline(`Échéance : 15/03/2027 — montant à payer : ${written}`, received)?.amountCents === amount
    }),
    { numRuns: 300 },
  )
})

Properties('a text without any deadline phrase never has a deadline, whatever its dates', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(prose, fc.constantFrom(...formats), day), { maxLength: 5 }),
      (parts) => findDeadline(parts.map(([p, f, d]) => `${p} Le ${f(d)}, nous avons reçu 120,00 €.`).join('\n'), received) === null,
    ),
    { numRuns: 200 },
  )
})

Properties('the deadline is the earliest of those on or after the reception', () => {
  fc.assert(
    fc.property(
      fc.array(day, { minLength: 1, maxLength: 4 }),
      fc.date({ min: new Date(Date.UTC(2027, 0, 1)), max: new Date(Date.UTC(2060, 0, 1)), noInvalidDate: true }),
      (dates, at) => {
        const text = dates.map((d) => `Versement avant le ${formats[1]!(d)}.`).join(' ')
        const from = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(at)
        const expected =
          dates
            .map(iso)
            .filter((d) => d >= from)
            .sort()[0] ?? null
        return (findDeadline(text, at)?.date ?? null) === expected
      },
    ),
    { numRuns: 300 },
  )
})

Phrases.run()
Noise.run()
Amounts.run()
Earliest.run()
Properties.run()
