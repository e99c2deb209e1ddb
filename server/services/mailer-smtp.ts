// Outgoing e-mail through SMTP (SMTP_URL). Its own module, loaded by main.ts only when SMTP_URL is set: a start
// without it never compiles nodemailer.
import nodemailer, { type Transporter } from 'nodemailer'
import type { Mailer } from './mailer.ts'

/** SMTP_URL's server, or a transport of nodemailer's own (the tests' stream transport, which writes the message out). */
export function smtpMailer(smtp: string | Transporter, from: string): Mailer {
  const transport = typeof smtp === 'string' ? nodemailer.createTransport(smtp) : smtp
  return {
    async send(mail) {
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        attachments: mail.attachments,
        ...(mail.headers ? { headers: mail.headers } : {}),
      })
    },
  }
}
