// The daily digest: one e-mail per person per day with the events of the orders where he
// chose "Un résumé quotidien". A timer in every server instance tries each hour from DIGEST_HOUR
// (Paris time); the claim in notification_digests (UPDATE … WHERE digest_sent_on < today, the row
// locked by the claiming transaction) lets exactly one instance send it.
import type { Logger } from 'pino'
import { claimDigest, digestNotifications, digestReaders, releaseDigest } from '../db/repositories/notifications.ts'
import { findUserById } from '../db/repositories/session.ts'
import type { AppDeps } from '../deps.ts'
import { parisDay } from '../lib/time.ts'

export const DIGEST_HOUR = 7
/**
 * A digest covers the events up to this long before it is sent; later ones go in the next. An event's time is taken
 * by its action before it commits: one still being written when the digest is claimed has a time just before the
 * claim, and would otherwise fall in neither digest. Far longer than any action's transaction, and
 * than the clocks of two instances differ.
 */
export const DIGEST_SETTLE_MS = 10 * 60_000
const CHECK_EVERY_MS = 15 * 60_000

export type DigestDeps = Pick<AppDeps, 'db' | 'mailer' | 'config' | 'clock'>

const digestTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' })
const parisHourFormat = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', hour: 'numeric', hour12: false })
const parisHour = (date: Date) => Number(parisHourFormat.format(date).replace(/\D/g, ''))

export const digestSubject = (count: number) => `Votre résumé du jour : ${count} nouveauté${count > 1 ? 's' : ''}`

export async function sendDailyDigests({ db, mailer, config, clock }: DigestDeps): Promise<{ sent: string[]; failures: string[] }> {
  const now = clock.now()
  const today = parisDay(now)
  const until = new Date(now.getTime() - DIGEST_SETTLE_MS)
  const sent: string[] = []
  const failures: string[] = []
  for (const userId of await digestReaders(db)) {
    const since = await db.transaction().execute((trx) => claimDigest(trx, userId, today, until))
    if (!since) continue
    const events = await digestNotifications(db, userId, since, until)
    const user = await findUserById(db, userId)
    if (!events.length || !user) continue
    const lines = events.map(
      (e) => `- ${digestTime.format(e.created_at)} · ${e.raison_sociale} · ${e.title} : ${e.body}\n  ${config.publicUrl}${e.link}`,
    )
    try {
      await mailer.send({
        to: user.email,
        subject: digestSubject(events.length),
        text: `Bonjour ${user.firstname},\n\nDepuis votre dernier résumé :\n\n${lines.join('\n')}\n\nChoisissez vos e-mails dans « Informations personnelles » : ${config.publicUrl}/informations-personnelles\n\n${config.brandName}`,
        link: `${config.publicUrl}/tableau-de-bord`,
      })
      sent.push(user.email)
    } catch {
      await releaseDigest(db, userId, today, since)
      failures.push(user.email)
    }
  }
  return { sent, failures }
}

/** Checks every quarter of an hour; from DIGEST_HOUR on, the day's digests go (once, whatever the instances). */
export function startDigestTimer(deps: DigestDeps, log: Pick<Logger, 'info' | 'error'>): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve()
  const tick = () => {
    if (parisHour(deps.clock.now()) < DIGEST_HOUR) return
    running = sendDailyDigests(deps).then(
      ({ sent, failures }) => {
        if (sent.length) log.info({ sent }, 'résumés quotidiens envoyés')
        if (failures.length) log.error({ failures }, 'résumés quotidiens non envoyés (nouvel essai au prochain passage)')
      },
      (error: unknown) => log.error({ err: error }, 'résumés quotidiens impossibles'),
    )
  }
  const timer = setInterval(tick, CHECK_EVERY_MS)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
