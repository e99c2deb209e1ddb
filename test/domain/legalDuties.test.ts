import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { BENEFICIAL_OWNERS_DUTY, filingDeadline, legalDuties } from '../../src/domain/legalDuties.ts'

const summary = (input: Parameters<typeof legalDuties>[0]) => legalDuties(input).deadlines.map((d) => `${d.date} ${d.id}`)

const Dated = suite('legal duties: approval and filing of the accounts')

Dated('31 December year end: approval by 30 June, filing online two months later, this year and next', () => {
  assert.equal(summary({ today: '2026-02-01', legalForm: 'SARL' }), [
    '2026-06-30 approbation-comptes-2025-12',
    '2026-08-30 depot-comptes-2025-12',
    '2027-06-30 approbation-comptes-2026-12',
    '2027-08-30 depot-comptes-2026-12',
  ])
  const [approval, filing] = legalDuties({ today: '2026-02-01', legalForm: 'SARL' }).deadlines
  assert.is(approval!.title, 'Approbation des comptes (exercice clos le 31 décembre 2025)')
  assert.is(approval!.kind, 'approbation-comptes')
  assert.is(approval!.source, 'https://entreprendre.service-public.fr/vosdroits/F31214')
  assert.is(filing!.title, 'Dépôt des comptes au greffe (exercice clos le 31 décembre 2025)')
  assert.is(filing!.kind, 'depot-comptes')
  assert.match(filing!.detail!, 'approbation le 30 juin 2026')
})

Dated('30 June year end: approval on 30 December, filing on 28 February (no 30 February)', () => {
  assert.equal(summary({ today: '2026-02-01', legalForm: 'SAS', fiscalYearEndMonth: 6 }), [
    '2026-02-28 depot-comptes-2025-06',
    '2026-12-30 approbation-comptes-2026-06',
    '2027-02-28 depot-comptes-2026-06',
    '2027-12-30 approbation-comptes-2027-06',
  ])
})

Dated('a year end on 29 February 2028 and on 28 February 2027', () => {
  assert.equal(summary({ today: '2027-05-01', legalForm: 'SASU', fiscalYearEndMonth: 2 }), [
    '2027-08-28 approbation-comptes-2027-02',
    '2027-10-28 depot-comptes-2027-02',
    '2028-08-29 approbation-comptes-2028-02',
    '2028-10-29 depot-comptes-2028-02',
  ])
})

Dated('company-law periods are not moved past weekends (30 August 2026 is a Sunday)', () => {
  const filing = legalDuties({ today: '2026-02-01', legalForm: 'SARL' }).deadlines.find((d) => d.id === 'depot-comptes-2025-12')!
  assert.is(filing.date, '2026-08-30')
  assert.is(filing.movedFrom, undefined)
})

Dated('filing after a known approval: one month on paper, two online', () => {
  assert.is(filingDeadline('2026-05-31'), '2026-07-31')
  assert.is(filingDeadline('2026-05-31', false), '2026-06-30')
  assert.is(filingDeadline('2026-12-31'), '2027-02-28')
  assert.throws(() => filingDeadline('31/05/2026'), /approvedOn/)
})

Dated.run()

const ByForm = suite('legal duties: what each form owes')

ByForm('a sole trader: nothing dated, no beneficial owners', () => {
  for (const legalForm of ['EI', 'Micro-entreprise', 'EIRL']) {
    assert.equal(legalDuties({ today: '2026-02-01', legalForm }), { deadlines: [], standing: [] }, legalForm)
  }
})

ByForm('an SNC approves its accounts but does not file them; an SCI only declares its beneficial owners', () => {
  assert.equal(summary({ today: '2026-02-01', legalForm: 'SNC' }), [
    '2026-06-30 approbation-comptes-2025-12',
    '2027-06-30 approbation-comptes-2026-12',
  ])
  assert.equal(legalDuties({ today: '2026-02-01', legalForm: 'SCI' }), { deadlines: [], standing: [BENEFICIAL_OWNERS_DUTY] })
})

ByForm('beneficial owners: a standing duty without date, for every company and an unknown form', () => {
  for (const legalForm of ['SARL', 'SAS', 'EURL', null]) {
    const { standing } = legalDuties({ today: '2026-02-01', legalForm })
    assert.equal(standing, [BENEFICIAL_OWNERS_DUTY], String(legalForm))
  }
  assert.is(BENEFICIAL_OWNERS_DUTY.title, 'Registre des bénéficiaires effectifs : déclarer tout changement dans les 30 jours')
  assert.not.ok('date' in BENEFICIAL_OWNERS_DUTY)
})

ByForm('refuses a month that does not exist', () => {
  assert.throws(() => legalDuties({ today: '2026-02-01', legalForm: 'SAS', fiscalYearEndMonth: 0 }), /fiscalYearEndMonth/)
  assert.throws(() => legalDuties({ today: '2026-2-1', legalForm: 'SAS' }), /today/)
})

ByForm.run()
