// Legal pages: every e-mail the server sends ends with the provider's particulars and the links of the four legal pages
// (server/services/mailer.ts). routes.test.ts checks every e-mail of the route table's calls; this, the footer itself
// and the mailer a running server or scripts/ingest.ts builds (the outbox without SMTP_URL).
import pino from 'pino'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadConfig } from '../../server/config.ts'
import { LEGAL_PAGES } from '../../server/contract/rules/legal.ts'
import { configuredMailer } from '../../server/services/mailer-configured.ts'
import { legalFooter, MAIL_FOOTER_SEPARATOR, type Mail, withLegalFooter } from '../../server/services/mailer.ts'
import { smtpMailer } from '../../server/services/mailer-smtp.ts'
import nodemailer from 'nodemailer'
import { buildTestApp, type TestApp } from '../util/server.ts'

const legal = {
  ...loadConfig({ PUBLIC_URL: 'https://espace.exemple.fr' }).legal,
  name: 'Domiciliation Exemple',
  legalForm: 'SAS',
  siren: '987654324',
  address: '12 rue des Exemples, 69002 Lyon',
}

const footer = suite('the legal footer')

footer('names the provider and links the four pages from the portal’s public address', () => {
  const text = legalFooter(legal)
  assert.is(text.split('\n')[0], MAIL_FOOTER_SEPARATOR)
  assert.match(text, 'Domiciliation Exemple, SAS, SIREN 987654324, 12 rue des Exemples, 69002 Lyon.')
  for (const page of LEGAL_PAGES) assert.match(text, `${page.title} : https://espace.exemple.fr${page.path}\n`.trimEnd())
  assert.match(text, 'Mentions légales : https://espace.exemple.fr/mentions-legales')
  assert.match(text, 'Politique de confidentialité : https://espace.exemple.fr/politique-de-confidentialite')
  assert.match(text, 'Conditions générales : https://espace.exemple.fr/conditions-generales')
  assert.match(text, 'Déclaration d’accessibilité : https://espace.exemple.fr/declaration-accessibilite')
})

footer('is added after the message, once, and leaves the rest of the e-mail as it was', async () => {
  const sent: Mail[] = []
  const mailer = withLegalFooter({ send: async (mail) => void sent.push(mail) }, legal)
  const attachments = [{ filename: 'a.pdf', content: Buffer.from('x') }]
  await mailer.send({ to: 'a@example.com', subject: 'Objet', text: 'Bonjour,\n\nLe message.\n\n', link: 'https://l', attachments })
  assert.equal(sent[0], {
    to: 'a@example.com',
    subject: 'Objet',
    text: `Bonjour,\n\nLe message.\n\n${legalFooter(legal)}\n`,
    link: 'https://l',
    attachments,
    headers: { 'Auto-Submitted': 'auto-generated' },
  })
  assert.is(sent[0]!.text.split(MAIL_FOOTER_SEPARATOR).length, 2)
})

footer('marks every e-mail automatic (Auto-Submitted: auto-generated, RFC 3834), and SMTP writes it into the message', async () => {
  const written: string[] = []
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  const recording = {
    sendMail: async (message: Parameters<typeof stream.sendMail>[0]) => {
      const info = await stream.sendMail(message)
      written.push(String(info.message))
      return info
    },
  } as unknown as typeof stream
  const mailer = withLegalFooter(smtpMailer(recording, 'Domicilium <no-reply@example.com>'), legal)
  await mailer.send({ to: 'c@example.com', subject: 'Votre mot de passe a été modifié', text: 'Bonjour.' })
  await mailer.send({ to: 'd@example.com', subject: 'Autre', text: 'Bonjour.', headers: { 'Auto-Submitted': 'no' } })
  assert.is(written.length, 2)
  for (const message of written) {
    const [head] = message.split('\n\n')
    assert.match(head!, /^Auto-Submitted: auto-generated$/m, head)
    assert.not.match(head!, /^Auto-Submitted: no$/m, 'no message escapes it')
  }
})

const outbox = suite<{ t: TestApp }>('the mailer of a running server without SMTP_URL (the outbox)')
outbox.before(async (ctx) => {
  ctx.t = await buildTestApp({ seed: false })
})
outbox.after((ctx) => ctx.t?.close())

outbox('keeps the e-mail with its footer', async ({ t }) => {
  const mailer = await configuredMailer({ ...t.deps.config, smtpUrl: undefined, legal }, t.deps.db, pino({ level: 'silent' }))
  await mailer.send({ to: 'b@example.com', subject: 'Votre courrier', text: 'Un courrier est arrivé.' })
  const row = await t.deps.db.selectFrom('outbox').select(['text']).where('to_address', '=', 'b@example.com').executeTakeFirstOrThrow()
  assert.is(row.text, `Un courrier est arrivé.\n\n${legalFooter(legal)}\n`)
})

footer.run()
outbox.run()
