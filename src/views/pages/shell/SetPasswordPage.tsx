// /set-password/:token (PRODUCT.md): the new password twice, the rule shown (12 characters at least,
// not a common one: passwordRule.ts); success returns to /login with a toast.
import { useActorRef, useSelector } from '@xstate/react'
import { type FormEvent, useState } from 'react'
import { Link } from 'wouter'
import { useFlows } from '../../app-context.tsx'
import { PASSWORDS_DIFFER, passwordProblem } from '../../../machines/passwordRule.ts'
import { PasswordFields } from '../../components/PasswordFields.tsx'
import { Alert, BusyButton } from '../../components/ui.tsx'
import { BareLayout } from '../../layout/BareLayout.tsx'


export default function SetPasswordPage({ token }: { token: string }) {
  const flows = useFlows('shell')
  const actor = useActorRef(flows.passwordReset)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const error = useSelector(actor, (s) => s.context.error)
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [problems, setProblems] = useState<{ password?: string; confirmation?: string }>({})

  function submit(event: FormEvent) {
    event.preventDefault()
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
      <form onSubmit={submit} noValidate aria-busy={busy}>
        {error && (
          <Alert $kind="error" role="alert">
            {error} <Link href="/reset-password">Demander un nouveau lien</Link>
          </Alert>
        )}
        <PasswordFields idPrefix="new" password={password} confirmation={confirmation} onPassword={setPassword} onConfirmation={setConfirmation}
          passwordError={problems.password} confirmationError={problems.confirmation} />
        <BusyButton type="submit" busy={busy}>
          {busy ? 'Enregistrement…' : 'Enregistrer le mot de passe'}
        </BusyButton>
      </form>
    </BareLayout>
  )
}
