// /set-password/:token (PRODUCT.md): the new password twice, the rule shown (12 characters at least,
// not a common one: passwordRule.ts); success returns to /login with a toast. A link refused (used or
// expired: the server's 400) leads to a new one; the service unavailable (a 503, no connection) is
// only that: 'Réessayer' sends again what is typed, the link may well still be good. A link refused after a send
// whose answer was lost may be spent by that send: the page says the password may be saved, and offers /login too.
import { useActorRef, useSelector } from '@xstate/react'
import { type FormEvent, useRef, useState } from 'react'
import { Link } from 'wouter'
import { useFlows } from '../../app-context.tsx'
import { PASSWORDS_DIFFER, loadPasswordStrength, passwordProblem } from '../../../machines/passwordRule.ts'
import { MAYBE_SAVED } from '../../../machines/session/submission.machine.ts'
import { PasswordFields } from '../../components/PasswordFields.tsx'
import { Alert, BusyButton, Button } from '../../components/ui.tsx'
import { useArrivalAfter } from '../../components/useFocusWhenShown.ts'
import { BareLayout } from '../../layout/BareLayout.tsx'

export default function SetPasswordPage({ token }: { token: string }) {
  const flows = useFlows('session')
  const actor = useActorRef(flows.passwordReset)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const error = useSelector(actor, (s) => s.context.error)
  const unavailable = useSelector(actor, (s) => s.context.unavailable)
  const unsure = useSelector(actor, (s) => s.context.unsure)
  const send = useRef<HTMLButtonElement>(null)
  // Saved: /login, where the focus goes to the title.
  useArrivalAfter(actor, (next) => next.matches('succeeded'))
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [problems, setProblems] = useState<{ password?: string; confirmation?: string }>({})
  const [checking, setChecking] = useState(false)

  async function submit(event?: FormEvent) {
    event?.preventDefault()
    // The strength estimator (loaded with the form) decides here too, once it has come: a weak password is said beside
    // its field, not as the link's refusal. Offline, it is left to the server.
    setChecking(true)
    await loadPasswordStrength()
    setChecking(false)
    const next = {
      password: passwordProblem(password) ?? undefined,
      confirmation: confirmation !== password ? PASSWORDS_DIFFER : undefined,
    }
    setProblems(next)
    if (next.password || next.confirmation) return
    actor.send({ type: 'form.submit', values: { token, password } })
  }

  return (
    <BareLayout title="Choisir un nouveau mot de passe">
      <form onSubmit={(event) => void submit(event)} noValidate aria-busy={busy || checking}>
        {error && (
          <Alert $kind="error" role="alert">
            {error}{' '}
            {unavailable ? (
              // The message and this button go while it is sent again: the focus waits on the form's button, busy meanwhile.
              <Button
                type="button"
                $variant="secondary"
                onClick={() => {
                  send.current?.focus()
                  void submit()
                }}
              >
                Réessayer
              </Button>
            ) : unsure ? (
              <>
                {MAYBE_SAVED} <Link href="/login">Se connecter</Link> · <Link href="/reset-password">Demander un nouveau lien</Link>
              </>
            ) : (
              <Link href="/reset-password">Demander un nouveau lien</Link>
            )}
          </Alert>
        )}
        <PasswordFields
          idPrefix="new"
          password={password}
          confirmation={confirmation}
          onPassword={setPassword}
          onConfirmation={setConfirmation}
          passwordError={problems.password}
          confirmationError={problems.confirmation}
        />
        <BusyButton type="submit" busy={busy || checking} ref={send}>
          {busy ? 'Enregistrement…' : 'Enregistrer le mot de passe'}
        </BusyButton>
      </form>
    </BareLayout>
  )
}
