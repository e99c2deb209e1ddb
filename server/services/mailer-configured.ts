// The mailer of a running server or script (server/main.ts, scripts/ingest.ts): its own module, since it loads
// mailer-smtp.ts, which needs mailer.ts's types.
import type { Logger } from 'pino'
import type { Config } from '../config.ts'
import type { Db } from '../db/schema.ts'
import { type Mailer, outboxMailer, withLegalFooter } from './mailer.ts'

/**
 * The mailer of a running server or script: SMTP when SMTP_URL is set (nodemailer, loaded only then), otherwise the
 * outbox; either way with the legal footer.
 */
export async function configuredMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'legal'>, db: Db, log: Logger): Promise<Mailer> {
  const sink = config.smtpUrl ? (await import('./mailer-smtp.ts')).smtpMailer(config.smtpUrl, config.mailFrom) : outboxMailer(db, log)
  return withLegalFooter(sink, config.legal)
}
