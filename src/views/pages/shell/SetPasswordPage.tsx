// /set-password/:token (PRODUCT.md): the new password twice, the rule shown; success returns to
// /login with a toast.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { type FormEvent, useState } from 'react'
import { Link } from 'wouter'
import { useFlows } from '../../app-context.tsx'
import { Alert, Button, TextField } from '../../components/ui.tsx'
import { BareLayout } from '../../layout/BareLayout.tsx'
import { color } from '../../theme.ts'


export const passwordRules = [
  { label: 'au moins 8 caractères', test: (p: string) => p.length >= 8 },
  { label: 'une lettre majuscule', test: (p: string) => /[A-Z]/.test(p) },
  { label: 'une lettre minuscule', test: (p: string) => /[a-z]/.test(p) },
  { label: 'un chiffre', test: (p: string) => /[0-9]/.test(p) },
]

const Rules = styled('ul')`
  margin: 0 0 1rem;
  padding-left: 1.25rem;
  color: ${color.muted};
  li[data-ok='true'] { color: ${color.success}; }
`

export default function SetPasswordPage({ token }: { token: string }) {
  const flows = useFlows()
  const actor = useActorRef(flows.passwordReset)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const error = useSelector(actor, (s) => s.context.error)
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [problems, setProblems] = useState<{ password?: string; confirmation?: string }>({})

  function submit(event: FormEvent) {
    event.preventDefault()
    const next = {
      password: passwordRules.every((r) => r.test(password)) ? undefined : 'Le mot de passe ne respecte pas toutes les règles ci-dessous.',
      confirmation: confirmation !== password ? 'Les deux mots de passe ne sont pas identiques.' : undefined,
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
        <TextField id="new-password" label="Nouveau mot de passe" type="password" autoComplete="new-password" value={password} onChange={setPassword} error={problems.password} describedBy="password-rules" />
        <p id="password-rules-title">Votre mot de passe doit contenir :</p>
        <Rules id="password-rules" aria-labelledby="password-rules-title">
          {passwordRules.map((rule) => (
            <li key={rule.label} data-ok={rule.test(password)}>
              {rule.label}
              {rule.test(password) ? ' ✓' : ''}
            </li>
          ))}
        </Rules>
        <TextField id="confirm-password" label="Confirmez le mot de passe" type="password" autoComplete="new-password" value={confirmation} onChange={setConfirmation} error={problems.confirmation} />
        <Button type="submit" disabled={busy}>
          {busy ? 'Enregistrement…' : 'Enregistrer le mot de passe'}
        </Button>
      </form>
    </BareLayout>
  )
}
