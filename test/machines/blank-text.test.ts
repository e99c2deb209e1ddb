// Text of spaces or invisible characters only (a zero-width space, a byte order mark…) is blank in the SPA as on the
// server (server/contract/rules/text.ts isBlank): the form says what is missing before anything is sent, rather than
// sending it for the server's 400 (the SPA checked `.trim() === ''`, the server `isBlank`).
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { isBlank } from '../../server/contract/rules/text.ts'
import { addressProblems } from '../../src/machines/billing/forwardingAddress.machine.ts'
import { accountProblems } from '../../src/machines/people/invitation.machine.ts'
import { representativeProblems } from '../../src/machines/people/representatives.machine.ts'
import { OTHER_REASON, terminationProblems } from '../../src/machines/billing/termination.machine.ts'

const Blank = suite('invisible-only text is blank in the SPA as on the server')
const INVISIBLE = ['\u200b', '\ufeff \u200d', '\u00ad\u2060', ' \u200b\n']

Blank("every sample is blank by the contract's rule", () => {
  for (const text of INVISIBLE) assert.ok(isBlank(text), JSON.stringify(text))
})

Blank('names of a representative and of a new account', () => {
  for (const text of INVISIBLE) {
    const rep = representativeProblems({ firstname: text, lastname: text, email: 'a@example.com', phone: '06 12 34 56 78' })
    assert.ok(rep.firstname && rep.lastname, JSON.stringify(text))
    const account = accountProblems({
      firstname: text,
      lastname: text,
      password: 'une phrase de passe',
      confirmation: 'une phrase de passe',
    })
    assert.ok(account.firstname && account.lastname, JSON.stringify(text))
  }
})

Blank("a forwarding address's street, city and country", () => {
  for (const text of INVISIBLE) {
    const problems = addressProblems({
      adressePostaleExpedition: text,
      adresseComplementPostaleExpedition: '',
      codePostaleExpedition: '75001',
      villePostaleExpedition: text,
      paysPostaleExpedition: text,
    })
    assert.ok(problems.adressePostaleExpedition && problems.villePostaleExpedition && problems.paysPostaleExpedition, JSON.stringify(text))
  }
})

Blank('a termination\'s details for "Autre motif"', () => {
  for (const text of INVISIBLE)
    assert.ok(terminationProblems({ reason: OTHER_REASON, comment: text, date: '2099-01-01' }, null).comment, JSON.stringify(text))
})

Blank.run()
