// Outgoing e-mail through SMTP (SMTP_URL). Its own module, loaded by main.ts only when SMTP_URL is set: a start
// without it never compiles nodemailer.
import nodemailer from 'nodemailer'
import type { Mailer } from './mailer.ts'

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl)
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, attachments: mail.attachments })
    },
  }
}
