import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { isBusinessDay } from '../../src/domain/dates.ts'
import { upcomingDeadlines } from '../../src/domain/deadline.ts'
import {
  fiscalCalendar,
  isPast,
  nextDeadline,
  VAT_REGIMES,
  type Deadline,
  type FiscalCalendarInput,
  type FiscalKind,
} from '../../src/domain/fiscalCalendar.ts'
import { legalFormCode, legalFormProfile } from '../../src/domain/legalForm.ts'

const sas2026: FiscalCalendarInput = { today: '2026-03-10', legalForm: 'SAS', vatRegime: 'franchise' }

/** "date id" lines of one kind, in calendar order: what a reader checks against the rules. */
const lines = (list: Deadline[], kind: FiscalKind) => list.filter((d) => d.kind === kind).map((d) => `${d.date} ${d.id}`)
const byId = (list: Deadline[], id: string) => {
  const found = list.find((d) => d.id === id)
  if (!found)
    throw new assert.Assertion({
      message: `no deadline ${id} in ${list.map((d) => d.id).join(', ')}`,
      generated: false,
      operator: 'ok',
      actual: undefined,
      expects: id,
    })
  return found
}

const Forms = suite('legal forms: tax on profits and duties')

Forms('companies under IS by default, EURL and EI under IR, unknown forms as a company under IS', () => {
  for (const form of ['SARL', 'SAS', 'SASU', 'SA', 'SELARL']) assert.is(legalFormProfile(form).profitTax, 'is', form)
  for (const form of ['EURL', 'EI', 'EIRL', 'SNC', 'SCI']) assert.is(legalFormProfile(form).profitTax, 'ir', form)
  assert.equal(legalFormProfile(null), {
    code: null,
    profitTax: 'is',
    approvesAccountsWithinSixMonths: true,
    filesAccounts: true,
    hasBeneficialOwners: true,
  })
  assert.is(legalFormProfile('GIE').code, null)
})

Forms('spellings of the same form', () => {
  assert.is(legalFormCode('S.A.R.L.'), 'SARL')
  assert.is(legalFormCode(' sas '), 'SAS')
  assert.is(legalFormCode('Société par actions simplifiée unipersonnelle'), 'SASU')
  assert.is(legalFormCode('Micro-entreprise'), 'EI')
  assert.is(legalFormCode('SARL unipersonnelle'), 'EURL')
  assert.is(legalFormCode(''), null)
})

Forms.run()

const NormalVat = suite('fiscal calendar: VAT, réel normal (CA3 each month)')

NormalVat('twelve returns a year, this year and next, for the month before, on the 15th moved past weekends and holidays', () => {
  const list = fiscalCalendar({ ...sas2026, vatRegime: 'normal' })
  assert.equal(lines(list, 'tva'), [
    '2026-01-15 tva-ca3-2025-12',
    '2026-02-16 tva-ca3-2026-01',
    '2026-03-16 tva-ca3-2026-02',
    '2026-04-15 tva-ca3-2026-03',
    '2026-05-15 tva-ca3-2026-04',
    '2026-06-15 tva-ca3-2026-05',
    '2026-07-15 tva-ca3-2026-06',
    '2026-08-17 tva-ca3-2026-07',
    '2026-09-15 tva-ca3-2026-08',
    '2026-10-15 tva-ca3-2026-09',
    '2026-11-16 tva-ca3-2026-10',
    '2026-12-15 tva-ca3-2026-11',
    '2027-01-15 tva-ca3-2026-12',
    '2027-02-15 tva-ca3-2027-01',
    '2027-03-15 tva-ca3-2027-02',
    '2027-04-15 tva-ca3-2027-03',
    '2027-05-18 tva-ca3-2027-04',
    '2027-06-15 tva-ca3-2027-05',
    '2027-07-15 tva-ca3-2027-06',
    '2027-08-16 tva-ca3-2027-07',
    '2027-09-15 tva-ca3-2027-08',
    '2027-10-15 tva-ca3-2027-09',
    '2027-11-15 tva-ca3-2027-10',
    '2027-12-15 tva-ca3-2027-11',
  ])
  const march = byId(list, 'tva-ca3-2026-03')
  assert.is(march.title, 'Déclaration de TVA (CA3) de mars 2026')
  assert.is(byId(list, 'tva-ca3-2026-04').title, "Déclaration de TVA (CA3) d'avril 2026")
  assert.is(march.source, 'https://entreprendre.service-public.fr/vosdroits/F23566')
  assert.is(byId(list, 'tva-ca3-2027-04').movedFrom, '2027-05-15', 'Saturday 15 May, then Whit Monday 17 May 2027')
  assert.is(byId(list, 'tva-ca3-2026-07').movedFrom, '2026-08-15', 'Assomption on a Saturday')
})

NormalVat('a later due day of the company, moved past Easter Monday and a weekday Assomption', () => {
  const day17 = fiscalCalendar({ today: '2028-01-01', legalForm: 'SAS', vatRegime: 'normal', vatDueDay: 17 })
  assert.is(byId(day17, 'tva-ca3-2028-03').date, '2028-04-18', '17 April 2028 is Easter Monday')
  const day15 = fiscalCalendar({ today: '2028-01-01', legalForm: 'SAS', vatRegime: 'normal' })
  assert.is(byId(day15, 'tva-ca3-2028-07').date, '2028-08-16', '15 August 2028 is a Tuesday and a holiday')
  const day24 = fiscalCalendar({ today: '2026-01-01', legalForm: 'SAS', vatRegime: 'normal', vatDueDay: 24 })
  assert.is(byId(day24, 'tva-ca3-2026-11').date, '2026-12-24')
  assert.is(byId(day24, 'tva-ca3-2026-09').date, '2026-10-26', 'Saturday 24 October')
})

NormalVat.run()

const SimplifiedVat = suite('fiscal calendar: VAT, régime simplifié and franchise')

SimplifiedVat('July and December instalments and the CA12 on the 2nd business day after 1 May', () => {
  const list = fiscalCalendar({ ...sas2026, vatRegime: 'simplifie' })
  assert.equal(lines(list, 'tva'), [
    '2026-05-05 tva-ca12-2025',
    '2026-07-15 tva-acompte-2026-07',
    '2026-12-15 tva-acompte-2026-12',
    '2027-05-04 tva-ca12-2026',
    '2027-07-15 tva-acompte-2027-07',
    '2027-12-15 tva-acompte-2027-12',
  ])
  assert.is(byId(list, 'tva-ca12-2025').title, 'Déclaration annuelle de TVA (CA12) de 2025')
  assert.is(byId(list, 'tva-acompte-2026-07').title, 'Acompte de TVA de juillet 2026 (régime simplifié)')
})

SimplifiedVat('a year end on 30 June: the CA12E three months after it, no calendar-year CA12', () => {
  const list = fiscalCalendar({ ...sas2026, vatRegime: 'simplifie', fiscalYearEndMonth: 6 })
  assert.equal(lines(list, 'tva'), [
    '2026-07-15 tva-acompte-2026-07',
    '2026-09-30 tva-ca12e-2026-06',
    '2026-12-15 tva-acompte-2026-12',
    '2027-07-15 tva-acompte-2027-07',
    '2027-09-30 tva-ca12e-2027-06',
    '2027-12-15 tva-acompte-2027-12',
  ])
  assert.is(byId(list, 'tva-ca12e-2026-06').title, 'Déclaration annuelle de TVA (CA12E), exercice clos le 30 juin 2026')
})

SimplifiedVat('a year end on 29 February 2028: the CA12E on 29 May, by real date arithmetic', () => {
  const list = fiscalCalendar({ today: '2028-01-10', legalForm: 'SAS', vatRegime: 'simplifie', fiscalYearEndMonth: 2 })
  assert.equal(
    lines(list, 'tva').filter((l) => l.includes('ca12e')),
    ['2028-05-29 tva-ca12e-2028-02', '2029-05-28 tva-ca12e-2029-02'],
  )
})

SimplifiedVat('franchise en base: no VAT deadline at all', () => {
  assert.equal(lines(fiscalCalendar(sas2026), 'tva'), [])
})

SimplifiedVat.run()

const CorporateTax = suite('fiscal calendar: corporate tax (IS)')

CorporateTax('31 December year end: instalments on the 15th of March, June, September, December; balance on 15 May', () => {
  const list = fiscalCalendar(sas2026)
  assert.equal(lines(list, 'is'), [
    '2026-03-16 is-acompte-2026-03',
    '2026-05-15 is-solde-2025-12',
    '2026-06-15 is-acompte-2026-06',
    '2026-09-15 is-acompte-2026-09',
    '2026-12-15 is-acompte-2026-12',
    '2027-03-15 is-acompte-2027-03',
    '2027-05-18 is-solde-2026-12',
    '2027-06-15 is-acompte-2027-06',
    '2027-09-15 is-acompte-2027-09',
    '2027-12-15 is-acompte-2027-12',
  ])
  assert.is(byId(list, 'is-acompte-2026-03').title, "1er acompte d'impôt sur les sociétés (exercice clos le 31 décembre 2026)")
  assert.is(byId(list, 'is-acompte-2026-12').title, "4e acompte d'impôt sur les sociétés (exercice clos le 31 décembre 2026)")
  assert.is(byId(list, 'is-solde-2025-12').title, "Solde de l'impôt sur les sociétés (exercice clos le 31 décembre 2025)")
  assert.is(byId(list, 'is-solde-2026-12').movedFrom, '2027-05-15')
})

CorporateTax('a 15th on a Saturday moves to Monday 17th (15 March 2025)', () => {
  const first = byId(fiscalCalendar({ ...sas2026, today: '2025-06-01' }), 'is-acompte-2025-03')
  assert.is(first.date, '2025-03-17')
  assert.is(first.movedFrom, '2025-03-15')
})

CorporateTax('30 June year end: instalments numbered from the previous year end, balance on 15 October', () => {
  const list = fiscalCalendar({ ...sas2026, fiscalYearEndMonth: 6 })
  assert.equal(
    list.filter((d) => d.kind === 'is').map((d) => `${d.date} ${d.title}`),
    [
      "2026-03-16 3e acompte d'impôt sur les sociétés (exercice clos le 30 juin 2026)",
      "2026-06-15 4e acompte d'impôt sur les sociétés (exercice clos le 30 juin 2026)",
      "2026-09-15 1er acompte d'impôt sur les sociétés (exercice clos le 30 juin 2027)",
      "2026-10-15 Solde de l'impôt sur les sociétés (exercice clos le 30 juin 2026)",
      "2026-12-15 2e acompte d'impôt sur les sociétés (exercice clos le 30 juin 2027)",
      "2027-03-15 3e acompte d'impôt sur les sociétés (exercice clos le 30 juin 2027)",
      "2027-06-15 4e acompte d'impôt sur les sociétés (exercice clos le 30 juin 2027)",
      "2027-09-15 1er acompte d'impôt sur les sociétés (exercice clos le 30 juin 2028)",
      "2027-10-15 Solde de l'impôt sur les sociétés (exercice clos le 30 juin 2027)",
      "2027-12-15 2e acompte d'impôt sur les sociétés (exercice clos le 30 juin 2028)",
    ],
  )
})

CorporateTax('the month of the 1st instalment for each year end (the CGI annex III table)', () => {
  const expected: Record<number, string> = {
    1: '03',
    2: '06',
    3: '06',
    4: '06',
    5: '09',
    6: '09',
    7: '09',
    8: '12',
    9: '12',
    10: '12',
    11: '03',
    12: '03',
  }
  for (let month = 1; month <= 12; month++) {
    const firsts = fiscalCalendar({ ...sas2026, fiscalYearEndMonth: month }).filter((d) => d.title.startsWith('1er acompte'))
    assert.equal(
      firsts.map((d) => d.id.slice(-2)),
      [expected[month], expected[month]],
      `year end in month ${month}`,
    )
  }
})

CorporateTax('30 November year end: the 4th instalment (15 December) follows the close, balance on 15 March', () => {
  const list = fiscalCalendar({ ...sas2026, fiscalYearEndMonth: 11 })
  assert.is(byId(list, 'is-acompte-2026-12').title, "4e acompte d'impôt sur les sociétés (exercice clos le 30 novembre 2026)")
  assert.is(byId(list, 'is-solde-2026-11').date, '2027-03-15')
})

CorporateTax('a year end on 29 February 2028: balance on 15 June; the 15 June instalment opens the next exercise', () => {
  const list = fiscalCalendar({ today: '2028-01-10', legalForm: 'SAS', vatRegime: 'franchise', fiscalYearEndMonth: 2 })
  assert.is(byId(list, 'is-solde-2028-02').date, '2028-06-15')
  assert.is(byId(list, 'is-solde-2028-02').title, "Solde de l'impôt sur les sociétés (exercice clos le 29 février 2028)")
  assert.is(byId(list, 'is-acompte-2028-03').title, "4e acompte d'impôt sur les sociétés (exercice clos le 29 février 2028)")
  assert.is(byId(list, 'is-acompte-2028-06').title, "1er acompte d'impôt sur les sociétés (exercice clos le 28 février 2029)")
  const before = fiscalCalendar({ today: '2027-01-10', legalForm: 'SAS', vatRegime: 'franchise', fiscalYearEndMonth: 2 })
  assert.is(byId(before, 'is-solde-2027-02').date, '2027-06-15', 'after 28 February 2027')
})

CorporateTax('income-tax forms have no IS deadline unless they opted for IS', () => {
  for (const legalForm of ['EURL', 'EI', 'SCI']) assert.equal(lines(fiscalCalendar({ ...sas2026, legalForm }), 'is'), [], legalForm)
  assert.is(lines(fiscalCalendar({ ...sas2026, legalForm: 'EURL', profitTax: 'is' }), 'is').length, 10)
  assert.equal(lines(fiscalCalendar({ ...sas2026, legalForm: 'SARL', profitTax: 'ir' }), 'is'), [])
})

CorporateTax.run()

const Liasse = suite('fiscal calendar: liasse fiscale')

Liasse('31 December year end: 2nd business day after 1 May, plus 15 days online', () => {
  const list = fiscalCalendar(sas2026)
  assert.equal(lines(list, 'liasse'), ['2026-05-20 liasse-2025-12', '2027-05-19 liasse-2026-12'])
  const liasse = byId(list, 'liasse-2025-12')
  assert.is(liasse.title, 'Liasse fiscale (2065), exercice clos le 31 décembre 2025')
  assert.is(liasse.detail, 'Date légale le 5 mai 2026, plus 15 jours pour un dépôt en ligne.')
  assert.is(liasse.source, 'https://www.impots.gouv.fr/professionnel/calendrier-fiscal')
})

Liasse('the 15 extra days are not moved again: 18 May 2024 (a Saturday), as the DGFiP published it', () => {
  assert.is(byId(fiscalCalendar({ ...sas2026, today: '2024-01-01' }), 'liasse-2023-12').date, '2024-05-18')
  assert.is(byId(fiscalCalendar({ ...sas2026, today: '2025-01-01' }), 'liasse-2024-12').date, '2025-05-20')
})

Liasse('other year ends: three months after the close (moved past a weekend and Toussaint), plus 15 days', () => {
  assert.is(byId(fiscalCalendar({ ...sas2026, fiscalYearEndMonth: 6 }), 'liasse-2026-06').date, '2026-10-15')
  const july = byId(fiscalCalendar({ ...sas2026, today: '2027-01-01', fiscalYearEndMonth: 7 }), 'liasse-2027-07')
  assert.is(july.date, '2027-11-17', '31 October 2027 is a Sunday and 1 November Toussaint: 2 November + 15 days')
  assert.is(july.detail, 'Date légale le 2 novembre 2027, plus 15 jours pour un dépôt en ligne.')
  const september = fiscalCalendar({ ...sas2026, fiscalYearEndMonth: 9 })
  assert.is(byId(september, 'liasse-2026-09').date, '2027-01-14', '30 December 2026 + 15 days, in next year')
})

Liasse('a year end on 29 February 2028: 29 May plus 15 days; 28 February 2027: 28 May plus 15 days', () => {
  const list = fiscalCalendar({ today: '2028-01-10', legalForm: 'SAS', vatRegime: 'franchise', fiscalYearEndMonth: 2 })
  assert.is(byId(list, 'liasse-2028-02').date, '2028-06-13')
  assert.is(byId(list, 'liasse-2028-02').title, 'Liasse fiscale (2065), exercice clos le 29 février 2028')
  const before = fiscalCalendar({ today: '2027-01-10', legalForm: 'SAS', vatRegime: 'franchise', fiscalYearEndMonth: 2 })
  assert.is(byId(before, 'liasse-2027-02').date, '2027-06-12')
})

Liasse('an IR company files in May after the year the exercise closed, whatever its year end', () => {
  const list = fiscalCalendar({ ...sas2026, legalForm: 'EURL', fiscalYearEndMonth: 6 })
  assert.equal(lines(list, 'liasse'), ['2026-05-20 liasse-2025-06', '2027-05-19 liasse-2026-06'])
  assert.is(byId(list, 'liasse-2025-06').title, 'Déclaration de résultat et liasse fiscale, exercice clos le 30 juin 2025')
})

Liasse.run()

const Cfe = suite('fiscal calendar: CFE')

Cfe('15 December of this year and next, for every form', () => {
  for (const legalForm of ['SAS', 'EURL', 'EI', null]) {
    assert.equal(lines(fiscalCalendar({ ...sas2026, legalForm }), 'cfe'), ['2026-12-15 cfe-2026', '2027-12-15 cfe-2027'], String(legalForm))
  }
  const moved = byId(fiscalCalendar({ ...sas2026, today: '2029-02-01' }), 'cfe-2029')
  assert.is(moved.date, '2029-12-17', 'Saturday 15 December 2029')
  assert.is(moved.title, 'Cotisation foncière des entreprises (CFE) 2029')
})

Cfe.run()

const Window = suite('fiscal calendar: the two years, order and the helpers of the view')

Window('this calendar year and next only, sorted, next year included', () => {
  const list = fiscalCalendar({ ...sas2026, today: '2026-12-31', vatRegime: 'normal' })
  assert.is(list[0]!.date, '2026-01-15')
  assert.is(list.at(-1)!.date, '2027-12-15')
  assert.ok(list.some((d) => d.date.startsWith('2027')))
  assert.equal(
    list.map((d) => d.date),
    list.map((d) => d.date).sort(),
  )
})

Window('isPast: a deadline due today is not past, the day after it is', () => {
  const ca12 = byId(fiscalCalendar({ ...sas2026, vatRegime: 'simplifie' }), 'tva-ca12-2025')
  assert.is(isPast(ca12, '2026-05-04'), false)
  assert.is(isPast(ca12, '2026-05-05'), false)
  assert.is(isPast(ca12, '2026-05-06'), true)
})

Window("upcomingDeadlines (the letters' deadlines on the dashboard): from today on, soonest first, then by letter", () => {
  const found = (documentId: number, date: string) => ({ documentId, date, title: `Courrier ${documentId}` })
  const all = [found(3, '2027-03-01'), found(1, '2027-01-10'), found(2, '2027-02-01'), found(4, '2027-02-01')]
  assert.equal(
    upcomingDeadlines(all, '2027-02-01').map((d) => d.documentId),
    [2, 4, 3],
  )
  assert.equal(
    upcomingDeadlines([...all].reverse(), '2027-02-01').map((d) => d.documentId),
    [2, 4, 3],
  )
  assert.equal(upcomingDeadlines(all, '2027-03-02'), [])
})

Window('nextDeadline: the first one due today or later; none when all are past', () => {
  const list = fiscalCalendar({ ...sas2026, vatRegime: 'simplifie' })
  assert.is(nextDeadline(list, '2026-05-05')?.id, 'tva-ca12-2025')
  assert.is(nextDeadline(list, '2026-05-06')?.id, 'is-solde-2025-12')
  assert.is(nextDeadline(list, '2026-12-15')?.id, 'cfe-2026', 'three on one day: the first by id')
  assert.is(nextDeadline(list, '2028-01-01'), undefined)
  assert.is(nextDeadline([], '2026-01-01'), undefined)
  assert.is(nextDeadline([...list].reverse(), '2026-05-06')?.id, 'is-solde-2025-12', 'an unsorted list too')
})

Window('refuses what it cannot compute', () => {
  assert.throws(() => fiscalCalendar({ ...sas2026, fiscalYearEndMonth: 13 }), /fiscalYearEndMonth/)
  assert.throws(() => fiscalCalendar({ ...sas2026, fiscalYearEndMonth: 0 }), /fiscalYearEndMonth/)
  assert.throws(() => fiscalCalendar({ ...sas2026, vatDueDay: 14 }), /vatDueDay/)
  assert.throws(() => fiscalCalendar({ ...sas2026, today: '2026-02-30' }), /today/)
  assert.throws(() => fiscalCalendar({ ...sas2026, vatRegime: 'mini' as never }), /vatRegime/)
})

Window('property: any company, any year: in the window, sorted, unique ids, business days but the liasse', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 2000, max: 2097 }),
      fc.integer({ min: 1, max: 12 }),
      fc.constantFrom(...VAT_REGIMES),
      fc.constantFrom('SAS', 'SARL', 'EURL', 'EI', null),
      fc.integer({ min: 15, max: 24 }),
      (year, fiscalYearEndMonth, vatRegime, legalForm, vatDueDay) => {
        const list = fiscalCalendar({ today: `${year}-06-01`, legalForm, vatRegime, fiscalYearEndMonth, vatDueDay })
        assert.equal(new Set(list.map((d) => d.id)).size, list.length)
        for (const [i, d] of list.entries()) {
          assert.ok(d.date >= `${year}-01-01` && d.date <= `${year + 1}-12-31`, d.id)
          if (i > 0) assert.ok(list[i - 1]!.date <= d.date)
          if (d.kind !== 'liasse') assert.ok(isBusinessDay(d.date), `${d.id} on ${d.date}`)
          if (d.movedFrom) assert.ok(d.movedFrom < d.date && !isBusinessDay(d.movedFrom), d.id)
        }
        const ca3 = list.filter((d) => d.id.startsWith('tva-ca3-'))
        assert.is(ca3.length, vatRegime === 'normal' ? 24 : 0)
        assert.is(list.filter((d) => d.kind === 'cfe').length, 2)
      },
    ),
  )
})

Window.run()
