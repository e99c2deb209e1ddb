// Outgoing e-mail: SMTP when SMTP_URL is set (mailer-smtp.ts, loaded only then), otherwise the outbox table plus a
// log line (PRODUCT.md, "E-mail").
import type { Logger } from 'pino'
import { LEGAL_PAGES, type LegalParticulars } from '../contract/rules/legal.ts'
import { insertOutboxMail } from '../db/repositories/outbox.ts'
import type { Db } from '../db/schema.ts'

/**
 * What one e-mail carries in files at most: most mail servers refuse a message beyond about 25 MB, and the files are
 * held in memory until it leaves (a request could otherwise gather 50 letters of 10 MB each).
 */
export const MAIL_ATTACHMENTS_MAX_BYTES = 25 * 1024 * 1024

/** Counts the files an e-mail will carry: `take(bytes)` adds one, or answers false when it would not fit. */
export function attachmentBudget() {
  let used = 0
  return {
    take(bytes: number): boolean {
      if (used + bytes > MAIL_ATTACHMENTS_MAX_BYTES) return false
      used += bytes
      return true
    },
  }
}

export interface Mail {
  to: string
  subject: string
  text: string
  /** A link the reader must follow (reset, invitation): logged with outbox mail so a local user can follow it. */
  link?: string
  attachments?: { filename: string; content: Buffer }[]
  /** Header fields of the message (AUTOMATIC_MAIL_HEADERS on every one the server sends). */
  headers?: Record<string, string>
}

export interface Mailer {
  send(mail: Mail): Promise<void>
}

export function outboxMailer(db: Db, log: Logger): Mailer {
  return {
    async send(mail) {
      const attachments = (mail.attachments ?? []).map((a) => a.filename)
      await insertOutboxMail(db, { to: mail.to, subject: mail.subject, text: mail.text, attachmentNames: attachments })
      log.info({ to: mail.to, subject: mail.subject, link: mail.link, attachments }, 'e-mail déposé dans la table outbox')
    },
  }
}

/** The first line of every e-mail's footer (RFC 3676's signature separator: mail readers grey what follows). */
export const MAIL_FOOTER_SEPARATOR = '-- '

/** The footer of every e-mail: who sends it (LCEN art. 6 asks it of every service) and the four legal pages. */
export function legalFooter(legal: LegalParticulars): string {
  return [
    MAIL_FOOTER_SEPARATOR,
    `${legal.brandName} : ${legal.name}, ${legal.legalForm}, SIREN ${legal.siren}, ${legal.address}.`,
    ...LEGAL_PAGES.map((page) => `${page.title} : ${legal.publicUrl}${page.path}`),
  ].join('\n')
}

/**
 * Every e-mail the server sends is automatic (RFC 3834, 5): `Auto-Submitted: auto-generated` tells mail servers and
 * readers so, and tells a vacation responder not to answer it.
 */
export const AUTOMATIC_MAIL_HEADERS = { 'Auto-Submitted': 'auto-generated' } as const

/**
 * Every e-mail the server sends goes through this (mailer-configured.ts, for the server and scripts/ingest.ts;
 * test/util/server.ts wraps the tests' one): one footer for all, after the message, and the automatic message's header.
 */
export function withLegalFooter(mailer: Mailer, legal: LegalParticulars): Mailer {
  const footer = legalFooter(legal)
  return {
    send: (mail) =>
      mailer.send({
        ...mail,
        text: `${mail.text.replace(/\s+$/, '')}\n\n${footer}\n`,
        headers: { ...mail.headers, ...AUTOMATIC_MAIL_HEADERS },
      }),
  }
}
