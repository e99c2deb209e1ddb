// The e-mail of a password-reset link: sent on a reset request (index.ts) and after an address change is undone
// (email-revert.ts), so that both links read alike and open /set-password/:token.
import type { Mail } from '../../services/mailer.ts'

/** The e-mail that carries a reset link (made by createPasswordResetLink) to the account's address. */
export function resetLinkMail(made: { token: string; email: string; firstname: string }, origin: string, brandName: string): Mail {
  const link = `${origin}/set-password/${made.token}`
  return {
    to: made.email,
    subject: `${brandName} : réinitialisation de votre mot de passe`,
    text: `Bonjour ${made.firstname},\n\nPour choisir un nouveau mot de passe, ouvrez ce lien (valable une heure, une seule fois) :\n${link}\n\nSi vous n’êtes pas à l’origine de cette demande, ignorez ce message.\n\n${brandName}`,
    link,
  }
}
