// Mail kept in the database when no SMTP server is configured (services/mailer.ts).
import type { Db } from '../schema.ts'

/** Attachments are recorded by file name only. */
export async function insertOutboxMail(
  db: Db,
  mail: { to: string; subject: string; text: string; attachmentNames: string[] },
): Promise<void> {
  await db
    .insertInto('outbox')
    .values({ to_address: mail.to, subject: mail.subject, text: mail.text, attachments: JSON.stringify(mail.attachmentNames) })
    .execute()
}
