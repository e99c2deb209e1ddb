// The account's security notices: an address changed (to the address left, with the « Ce n’était pas vous ? » link when
// it holds), a passkey added or removed, a password changed or reset. They are the owner's recourse against a stolen
// session, so a mail server that refuses them for a moment must not lose them (the change was kept and the failure only
// logged, and the old owner never got the link). Sent at once; when that fails, queued as a durable job (jobs.ts) and sent again with
// backoff by whichever instance's worker claims it. No secret waits in the queue: the revert link's token is made
// anew when the job sends (its hash replaces the one mailed in vain), so a reader of the jobs table holds no way in.
import type { Logger } from 'pino'
import type { AppDeps } from '../deps.ts'
import { enqueueJob } from '../db/repositories/jobs.ts'
import { renewRevertToken } from '../db/repositories/people-email-reverts.ts'
import type { JobHandler } from './jobs.ts'
import type { Mail } from './mailer.ts'
import { longDate, parisTime } from '../lib/time.ts'

export const SECURITY_NOTICE_JOB = 'security-notice'
/** Tries of a queued notice: with the workers' backoff (10 s doubling, capped at 10 min), about 80 minutes. */
export const SECURITY_NOTICE_ATTEMPTS = 14

export type SecurityNotice =
  | {
      kind: 'email-changed'
      to: string
      firstname: string
      newEmail: string
      days: number
      /** The revert link made by the change (its token is not kept), or null when another link holds. */
      revertLinkId: number | null
    }
  | { kind: 'passkey-added'; to: string; firstname: string; name: string }
  /** `at`: when it happened (ISO), since a queued notice may leave later. */
  | { kind: 'passkey-removed'; to: string; firstname: string; name: string; at: string }
  | { kind: 'password-changed'; to: string; firstname: string; at: string }
  | { kind: 'password-reset'; to: string; firstname: string; passkeysRemoved: number; at: string }

type NoticeDeps = Pick<AppDeps, 'db' | 'config' | 'clock' | 'mailer' | 'jobs'>

/** The mail of a notice; `revertToken` is the link's token when it holds (null: no link, the support is named instead). */
export function noticeMail(notice: SecurityNotice, config: AppDeps['config'], revertToken: string | null): Mail {
  const { brandName, supportEmail, publicUrl } = config
  if (notice.kind === 'passkey-removed' || notice.kind === 'password-changed' || notice.kind === 'password-reset') {
    return accountNotice(notice, config)
  }
  if (notice.kind === 'passkey-added') {
    return {
      to: notice.to,
      subject: `${brandName} : une clé d’accès a été ajoutée à votre compte`,
      text: `Bonjour ${notice.firstname},\n\nUne clé d’accès « ${notice.name} » permet désormais de vous connecter à votre espace client ${brandName} sans mot de passe.\n\nSi vous n’êtes pas à l’origine de cet ajout, supprimez-la dans « Informations personnelles », changez votre mot de passe et écrivez à ${supportEmail} sans attendre.\n\n${brandName}`,
      link: `${publicUrl}/informations-personnelles`,
    }
  }
  const link = revertToken === null ? undefined : `${publicUrl}/retablir-adresse/${revertToken}`
  const undo =
    link === undefined
      ? `Si vous n’êtes pas à l’origine de ce changement, écrivez-nous sans tarder à ${supportEmail} : nous vous aiderons à retrouver l’accès à votre espace.`
      : `Si vous n’êtes pas à l’origine de ce changement, rétablissez votre adresse avec ce lien (valable ${notice.days} jours) : ${link} — toutes les connexions à votre espace seront fermées.\n\nUne question ? Répondez à ce message ou écrivez à ${supportEmail}.`
  return {
    to: notice.to,
    subject: `${brandName} : votre adresse e-mail a été modifiée`,
    text: `Bonjour ${notice.firstname},\n\nL’adresse e-mail de votre espace client ${brandName} est désormais ${notice.newEmail}. C’est elle qui vous servira à vous connecter.\n\n${undo}\n\n${brandName}`,
    ...(link === undefined ? {} : { link }),
  }
}

/** « le 6 décembre 2026 à 14 h 05 », in France's time. */
const when = (at: string) => `le ${longDate.format(new Date(at))} à ${parisTime(new Date(at))}`

/** The notices of a password changed or reset and of a passkey removed: what happened, when, and what to do if it was not you. */
function accountNotice(
  notice: Extract<SecurityNotice, { kind: 'passkey-removed' | 'password-changed' | 'password-reset' }>,
  config: AppDeps['config'],
): Mail {
  const { brandName, supportEmail, publicUrl } = config
  const notYou = `Si vous n’êtes pas à l’origine de ce changement, choisissez sans attendre un nouveau mot de passe avec « Mot de passe oublié ? » sur ${publicUrl}/login, puis écrivez à ${supportEmail}.`
  const mail = (subject: string, body: string, link: string) => ({
    to: notice.to,
    subject: `${brandName} : ${subject}`,
    text: `Bonjour ${notice.firstname},\n\n${body}\n\n${notYou}\n\n${brandName}`,
    link,
  })
  if (notice.kind === 'passkey-removed') {
    return mail(
      'une clé d’accès a été supprimée de votre compte',
      `La clé d’accès « ${notice.name} » a été supprimée de votre espace client ${brandName} ${when(notice.at)} : elle ne permet plus de vous connecter.`,
      `${publicUrl}/informations-personnelles`,
    )
  }
  if (notice.kind === 'password-changed') {
    return mail(
      'votre mot de passe a été modifié',
      `Le mot de passe de votre espace client ${brandName} a été modifié ${when(notice.at)}, depuis une session ouverte. Les autres connexions à votre espace ont été fermées.`,
      `${publicUrl}/login`,
    )
  }
  const keys =
    notice.passkeysRemoved === 0
      ? ''
      : notice.passkeysRemoved === 1
        ? ' Votre clé d’accès a été supprimée.'
        : ` Vos ${notice.passkeysRemoved} clés d’accès ont été supprimées.`
  return mail(
    'votre mot de passe a été réinitialisé',
    `Le mot de passe de votre espace client ${brandName} a été réinitialisé ${when(notice.at)}, avec le lien envoyé à cette adresse. Toutes les connexions à votre espace ont été fermées.${keys}`,
    `${publicUrl}/login`,
  )
}

/**
 * Sends the notice now; if the mail server refuses it, queues it for the job workers (and wakes this instance's).
 * Never throws: what it tells of has happened and is kept whatever the mail server does.
 */
export async function sendSecurityNotice(
  deps: NoticeDeps,
  notice: SecurityNotice,
  revertToken: string | null,
  log: Pick<Logger, 'error' | 'warn'>,
) {
  try {
    await deps.mailer.send(noticeMail(notice, deps.config, revertToken))
  } catch (error) {
    log.warn({ err: error, notice: notice.kind }, 'avis de sécurité non envoyé : nouvel essai par les tâches de fond')
    try {
      await enqueueJob(deps.db, SECURITY_NOTICE_JOB, notice, { maxAttempts: SECURITY_NOTICE_ATTEMPTS })
      deps.jobs?.wake()
    } catch (queueError) {
      log.error({ err: queueError, notice: notice.kind }, 'avis de sécurité perdu : ni envoyé ni mis en file')
    }
  }
}

/**
 * The job: the notice sent again. An address change whose link was used meanwhile is not told any more (the owner
 * has acted, and the address is back); a link that holds gets a new token, mailed now; one that expired is told
 * without a link.
 */
export function securityNoticeJob(deps: NoticeDeps): JobHandler {
  return async ({ job, finish }) => {
    const notice = job.payload as SecurityNotice
    let token: string | null = null
    if (notice.kind === 'email-changed' && notice.revertLinkId !== null) {
      const renewed = await renewRevertToken(deps.db, notice.revertLinkId, deps.clock.now())
      if (renewed === 'used') return finish(async () => {})
      token = renewed === 'expired' ? null : renewed
    }
    await deps.mailer.send(noticeMail(notice, deps.config, token))
    await finish(async () => {})
  }
}
