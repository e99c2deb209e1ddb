// /reset-password (PRODUCT.md): always the same answer, whether the account exists or not.
import { useActorRef, useSelector } from '@xstate/react'
import { type FormEvent, useRef, useState } from 'react'
import { Link } from 'wouter'
import { isEmail } from '../../../machines/shared.ts'
import { useFlows } from '../../app-context.tsx'
import { Alert, BusyButton, TextField } from '../../components/ui.tsx'
import { useFocusWhenShown } from '../../components/useFocusWhenShown.ts'
import { BareLayout } from '../../layout/BareLayout.tsx'

export const RESET_REQUESTED =
  'Si un compte existe pour cette adresse, vous allez recevoir un e-mail avec un lien pour choisir un nouveau mot de passe. Ce lien est valable une heure.'

export default function ResetPasswordPage() {
  const flows = useFlows('session')
  const actor = useActorRef(flows.passwordResetRequest)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const done = useSelector(actor, (s) => s.matches('succeeded'))
  const error = useSelector(actor, (s) => s.context.error)
  const [email, setEmail] = useState('')
  const [invalid, setInvalid] = useState<string | null>(null)
  // The answer replaces the form and the button that had the focus: it takes it.
  const answer = useRef<HTMLDivElement>(null)
  useFocusWhenShown(done, answer)

  function submit(event: FormEvent) {
    event.preventDefault()
    const value = email.trim()
    if (!isEmail(value)) {
      setInvalid('Saisissez une adresse e-mail valide, par exemple nom@entreprise.fr.')
      return
    }
    setInvalid(null)
    actor.send({ type: 'form.submit', values: { email: value, domain: window.location.origin } })
  }

  return (
    <BareLayout title="Mot de passe oublié">
      {done ? (
        <>
          <Alert $kind="success" role="status" ref={answer} tabIndex={-1}>
            {RESET_REQUESTED}
          </Alert>
          <Link href="/login">Retour à la connexion</Link>
        </>
      ) : (
        <form onSubmit={submit} noValidate aria-busy={busy}>
          <p>Indiquez l’adresse e-mail de votre compte : nous vous enverrons un lien pour choisir un nouveau mot de passe.</p>
          {error && (
            <Alert $kind="error" role="alert">
              {error}
            </Alert>
          )}
          <TextField
            id="reset-email"
            label="Adresse e-mail"
            type="email"
            autoComplete="email"
            value={email}
            onChange={setEmail}
            error={invalid}
          />
          <BusyButton type="submit" busy={busy}>
            {busy ? 'Envoi…' : 'Recevoir le lien'}
          </BusyButton>
          <p>
            <Link href="/login">Retour à la connexion</Link>
          </p>
        </form>
      )}
    </BareLayout>
  )
}
