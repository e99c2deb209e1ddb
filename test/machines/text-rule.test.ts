// The forms that check a text field give the server's answer to a line break, a control character or a bidi
// override (server/contract/rules/text.ts): the same rule, the same words, before the blank check (the server's schema
// runs before its handlers).
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { HIDDEN_CONTROL, NOT_SINGLE_LINE, plainLineBreaks, SINGLE_LINE_PATTERN } from '../../server/contract/rules/text.ts'
import { folderEditorMachine } from '../../src/machines/mail/folderEditor.machine.ts'
import { addressProblems, type AddressDraft } from '../../src/machines/billing/forwardingAddress.machine.ts'
import { accountProblems } from '../../src/machines/people/invitation.machine.ts'
import { passkeysMachine } from '../../src/machines/people/passkeys.machine.ts'
import { problemReportMachine } from '../../src/machines/notifications/problemReport.machine.ts'
import { representativeProblems } from '../../src/machines/people/representatives.machine.ts'
import { isEmail } from '../../src/machines/shared.ts'
import { OTHER_REASON, terminationProblems } from '../../src/machines/billing/termination.machine.ts'
import { Deferreds, flush } from '../util/paths.ts'

const ONE_LINE = `Ce champ ${NOT_SINGLE_LINE}`
const FREE_TEXT = `Ce texte ${HIDDEN_CONTROL}`
/**
 * Refused in a single line: a bidi override and an isolate, a line break inside, a tab, an escape, a C1 control, the line and paragraph
 * separators.
 */
const notOneLine = [
  'URSSAF\u202e moc.liame',
  'Impôts\u2066x\u2069',
  'Ban\nque',
  'Ban\tque',
  'La\u001b[31mPoste',
  'Banque\u0085',
  '\u202e',
  'Ban\u2028que',
  'Ban\u2029que',
]
/** Refused in free text too (its line breaks and tabs are kept; U+2028 and U+2029 are not its way to break a line). */
const hiddenInFreeText = ['Bonjour\u202e', 'Bonjour\u2067', 'Bon\u0007jour', 'Bon\rjour', 'Bon\u009bjour', 'Bon\u2028jour', 'Bon\u2029jour']
/** Of these, what a form turns into a plain line break as it is typed or pasted (plainLineBreaks), and sends so. */
const otherLineBreaks = ['Bon\rjour', 'Bon\u2028jour', 'Bon\u2029jour', 'Bon\r\njour']

const test = suite('text rule: the forms answer as the server does')

test('the rule is the schema’s own pattern', () => {
  const schema = new RegExp(SINGLE_LINE_PATTERN, 'u')
  for (const value of notOneLine) assert.not.ok(schema.test(value), JSON.stringify(value))
  for (const value of ['Société Générale', 'Impôts 2025 — Lyon', 'L’Œuvre 😀']) assert.ok(schema.test(value), value)
})

test('names of a representative and of an invited person', () => {
  for (const value of notOneLine) {
    const representative = representativeProblems({ firstname: value, lastname: value, email: 'paul@example.com', phone: '06 11 22 33 44' })
    assert.equal([representative.firstname, representative.lastname], [ONE_LINE, ONE_LINE], JSON.stringify(value))
    const account = accountProblems({
      firstname: value,
      lastname: value,
      password: 'trois mots au hasard',
      confirmation: 'trois mots au hasard',
    })
    assert.equal([account.firstname, account.lastname], [ONE_LINE, ONE_LINE], JSON.stringify(value))
  }
  // Blank stays blank, and a trailing line break is trimmed away before sending: no text-rule refusal.
  assert.is(
    representativeProblems({ firstname: '  ', lastname: 'Durand\n', email: 'paul@example.com', phone: '06 11 22 33 44' }).firstname,
    'Indiquez le prénom.',
  )
  assert.is(
    representativeProblems({ firstname: 'Paul', lastname: 'Durand\n', email: 'paul@example.com', phone: '06 11 22 33 44' }).lastname,
    undefined,
  )
})

test('every field of the forwarding address', () => {
  const address: AddressDraft = {
    adressePostaleExpedition: '3 place du Marché',
    adresseComplementPostaleExpedition: '',
    codePostaleExpedition: '69002',
    villePostaleExpedition: 'Lyon',
    paysPostaleExpedition: 'France',
  }
  assert.equal(addressProblems(address), {})
  for (const field of Object.keys(address) as (keyof AddressDraft)[]) {
    for (const value of notOneLine)
      assert.equal(addressProblems({ ...address, [field]: value }), { [field]: ONE_LINE }, `${field}=${JSON.stringify(value)}`)
  }
})

test('an e-mail address is one line', () => {
  for (const value of ['paul\u202e@example.com', 'paul@exa\u0085mple.com', 'paul@exa\u2028mple.com'])
    assert.not.ok(isEmail(value), JSON.stringify(value))
  assert.ok(isEmail('paul@example.com'))
})

test('the comment of a termination is free text: its line breaks are kept, the rest refused', () => {
  const draft = { reason: OTHER_REASON, comment: 'Nous quittons Lyon.\r\nMerci pour tout.\n\tL’équipe', date: '2030-01-31' }
  assert.equal(terminationProblems(draft, '2030-01-01'), {})
  for (const comment of hiddenInFreeText)
    assert.is(terminationProblems({ ...draft, comment }, '2030-01-01').comment, FREE_TEXT, JSON.stringify(comment))
})

test('a folder name', async () => {
  const actor = createActor(
    folderEditorMachine.provide({ actors: { saveFolder: new Deferreds().actor(), deleteFolder: new Deferreds().actor() } }),
  ).start()
  for (const name of notOneLine) {
    actor.send({ type: 'folder.new', orderId: 2 })
    actor.send({ type: 'folder.change', draft: { name } })
    actor.send({ type: 'folder.submit' })
    assert.is(actor.getSnapshot().context.error, ONE_LINE, JSON.stringify(name))
    actor.send({ type: 'folder.cancel' })
  }
})

test('a passkey name', async () => {
  const deferreds = new Deferreds()
  const actor = createActor(
    passkeysMachine.provide({
      actors: {
        loadPasskeys: deferreds.actor(),
        createPasskey: deferreds.actor(),
        renamePasskey: deferreds.actor(),
        deletePasskey: deferreds.actor(),
      },
    }),
  ).start()
  const laptop = { id: 1, name: 'Chrome sur macOS', createdAt: '2026-11-01T10:00:00.000Z', lastUsedAt: null }
  deferreds.settle('loadPasskeys', { output: [laptop] })
  await flush()
  for (const name of notOneLine) {
    actor.send({ type: 'passkey.rename', passkey: laptop })
    actor.send({ type: 'passkey.change', name })
    actor.send({ type: 'passkey.submit' })
    assert.is(actor.getSnapshot().context.error, ONE_LINE, JSON.stringify(name))
    actor.send({ type: 'passkey.cancel' })
  }
  assert.not.ok(
    deferreds.started.some((call) => call.id === 'renamePasskey'),
    'nothing sent',
  )
})

test('a problem report is free text', async () => {
  const deferreds = new Deferreds()
  const actor = createActor(
    problemReportMachine.provide({ actors: { sendProblem: deferreds.actor() }, actions: { notify: () => {} } }),
  ).start()
  actor.send({ type: 'problem.open' })
  for (const message of hiddenInFreeText.filter((m) => !otherLineBreaks.includes(m))) {
    actor.send({ type: 'problem.change', message })
    actor.send({ type: 'problem.submit', orderId: 2 })
    assert.is(actor.getSnapshot().context.error, FREE_TEXT, JSON.stringify(message))
  }
  assert.is(deferreds.started.length, 0, 'nothing sent')
  actor.send({ type: 'problem.change', message: 'Le courrier du 3 est illisible.\nEt celui du 4 aussi.' })
  actor.send({ type: 'problem.submit', orderId: 2 })
  assert.is(deferreds.started.length, 1, 'line breaks are sent')
})

test('a problem report pasted with other line breaks is sent with plain ones', async () => {
  for (const message of otherLineBreaks) {
    const deferreds = new Deferreds()
    const actor = createActor(
      problemReportMachine.provide({ actors: { sendProblem: deferreds.actor() }, actions: { notify: () => {} } }),
    ).start()
    actor.send({ type: 'problem.open' })
    actor.send({ type: 'problem.change', message })
    actor.send({ type: 'problem.submit', orderId: 2 })
    assert.equal(
      deferreds.started.map((call) => call.input),
      [{ orderId: 2, message: 'Bon\njour' }],
      JSON.stringify(message),
    )
  }
  assert.is(plainLineBreaks('a\u2028b\u2029c\rd\r\ne\nf'), 'a\nb\nc\nd\ne\nf')
})

test.run()
