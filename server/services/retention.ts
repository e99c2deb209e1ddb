// The mail retention that runs by itself: the letters of an order terminated more than MAIL_RETENTION_MONTHS ago are
// deleted, files included, after an e-mail that leaves RETENTION_NOTICE_DAYS before and offers « Mes données ». Run at
// each start and then daily by every instance (main.ts), and by `npm run retention`. Idempotent: a notice is claimed
// before it is sent and marked sent after, so two runs send it once (a run that crashed in between has it sent again
// once its hold runs out); letters are deleted under the order's retention row, journaled once; their files are removed
// after the commit, and what a crash left is removed by the storage sweep (no row names those files any more).
import type { Logger } from 'pino'
import {
  claimNotice,
  markNoticeSent,
  ordersDueForNotice,
  ordersDueForPurge,
  purgeOrderLetters,
  releaseNotice,
  retentionRecipients,
} from '../db/repositories/mail-retention.ts'
import type { AppDeps } from '../deps.ts'
import { addDays, addMinutes, longDate, parisDay } from '../lib/time.ts'

/** The notice leaves this many days before the letters go; never fewer (a late notice moves the day on). */
export const RETENTION_NOTICE_DAYS = 30
/** How long a run holds a notice it is sending: past it, another run sends it again. */
export const NOTICE_HOLD_MINUTES = 10
export const RETENTION_EVERY_MS = 24 * 3_600_000

export type RetentionDeps = Pick<AppDeps, 'db' | 'storage' | 'mailer' | 'config' | 'clock'>

export interface RetentionResult {
  /** Orders whose notice left in this run. */
  noticed: number[]
  /** Orders whose letters went in this run, and how many. */
  purged: { orderId: number; letters: number }[]
  /** Orders whose notice could not leave (tried again at the next run). */
  failures: number[]
}

/** A day (YYYY-MM-DD) moved by whole months; the 31st of a shorter month is its last day. */
export function addMonthsToDay(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  const first = new Date(Date.UTC(year, month - 1 + months, 1))
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate()
  first.setUTCDate(Math.min(date, last))
  return first.toISOString().slice(0, 10)
}

const dayAfter = (day: string, days: number) =>
  addDays(new Date(`${day}T12:00:00Z`), days)
    .toISOString()
    .slice(0, 10)
const frenchDay = (day: string) => longDate.format(new Date(`${day}T12:00:00Z`))

export async function runMailRetention(deps: RetentionDeps, log?: Pick<Logger, 'warn'>): Promise<RetentionResult> {
  const { db, mailer, config, clock, storage } = deps
  const months = config.mailRetentionMonths
  const now = clock.now()
  const today = parisDay(now)
  const result: RetentionResult = { noticed: [], purged: [], failures: [] }

  // 1. The notice, once the letters' day is RETENTION_NOTICE_DAYS away (or already passed: the day then moves on).
  for (const due of await ordersDueForNotice(db, addMonthsToDay(dayAfter(today, RETENTION_NOTICE_DAYS), -months))) {
    if (!(await claimNotice(db, due.orderId, now, addMinutes(now, NOTICE_HOLD_MINUTES)))) continue
    const byLaw = addMonthsToDay(due.terminationDate, months)
    const noticed = dayAfter(today, RETENTION_NOTICE_DAYS)
    // The later of the two days (YYYY-MM-DD sorts as text).
    const purgeOn = [byLaw, noticed].sort()[1]!
    const recipients = await retentionRecipients(db, due.orderId)
    try {
      for (const person of recipients)
        await mailer.send({
          to: person.email,
          subject: `${config.brandName} : le courrier de ${due.raisonSociale} sera supprimé le ${frenchDay(purgeOn)}`,
          text: `Bonjour ${person.firstname},\n\nLa domiciliation de ${due.raisonSociale} a pris fin le ${frenchDay(due.terminationDate)}. Comme l’annonce notre politique de confidentialité, son courrier numérisé est conservé ${months} mois après la fin du contrat : les courriers et leurs images seront supprimés le ${frenchDay(purgeOn)}.\n\nPour les garder, téléchargez-les avant cette date avec « Mes données », dans « Informations personnelles » :\n${config.publicUrl}/informations-personnelles\n\nLes factures et avoirs restent conservés pour la durée légale.\n\n${config.brandName}`,
          link: `${config.publicUrl}/informations-personnelles`,
        })
    } catch (error) {
      // Whoever got it before the failure may get it again at the next run: a notice twice beats letters deleted unannounced.
      log?.warn({ err: error, orderId: due.orderId }, 'avis de suppression du courrier non envoyé : nouvel essai au prochain passage')
      await releaseNotice(db, due.orderId)
      result.failures.push(due.orderId)
      continue
    }
    await markNoticeSent(db, {
      orderId: due.orderId,
      now,
      purgeOn,
      recipients: recipients.length,
      summary: `Avis de suppression du courrier envoyé à ${recipients.length} personne${recipients.length > 1 ? 's' : ''} : courriers supprimés le ${frenchDay(purgeOn)} (domiciliation terminée le ${frenchDay(due.terminationDate)}).`,
    })
    result.noticed.push(due.orderId)
  }

  // 2. The letters of the orders whose day has come.
  for (const orderId of await ordersDueForPurge(db, today)) {
    const purged = await purgeOrderLetters(
      db,
      orderId,
      today,
      now,
      (letters) =>
        `${letters} courrier${letters > 1 ? 's' : ''} supprimé${letters > 1 ? 's' : ''} avec ${letters > 1 ? 'leurs' : 'ses'} images : domiciliation terminée depuis plus de ${months} mois.`,
    )
    for (const key of purged.fileKeys) {
      try {
        await storage.delete(key)
      } catch (error) {
        // Its row is gone: the storage sweep removes the file.
        log?.warn({ err: error, key }, 'fichier de courrier non supprimé : le nettoyage du stockage le reprendra')
      }
    }
    if (purged.letters) result.purged.push({ orderId, letters: purged.letters })
  }
  return result
}

/** At once, then every day: every instance runs it, the claims and locks above keep it to one effect. */
export function startRetentionTimer(deps: RetentionDeps, log: Pick<Logger, 'info' | 'warn' | 'error'>): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve()
  const tick = () => {
    running = runMailRetention(deps, log).then(
      ({ noticed, purged, failures }) => {
        if (noticed.length || purged.length) log.info({ noticed, purged }, 'conservation du courrier : avis envoyés, courriers supprimés')
        if (failures.length) log.warn({ failures }, 'conservation du courrier : avis non envoyés (nouvel essai au prochain passage)')
      },
      (error: unknown) => log.error({ err: error }, 'conservation du courrier impossible'),
    )
  }
  tick()
  const timer = setInterval(tick, RETENTION_EVERY_MS)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
