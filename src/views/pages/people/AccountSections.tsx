// The e-mail and password parts of /informations-personnelles.
import { useActorRef, useSelector } from '@xstate/react'
import { type FormEvent, useRef } from 'react'
import { useFlows } from '../../app-context.tsx'
import { PasswordFields } from '../../components/PasswordFields.tsx'
import { Alert, BusyButton, Button, TextField } from '../../components/ui.tsx'
import { Muted, Toolbar } from '../../components/page.tsx'
import { useFocusWhenShown } from '../../components/useFocusWhenShown.ts'
import { Section } from './Section.tsx'

export function EmailSection({ email }: { email: string }) {
  const flows = useFlows('people')
  const actor = useActorRef(flows.emailChange, { input: { email } })
  const current = useSelector(actor, (s) => s.context.email)
  const editing = useSelector(actor, (s) => s.hasTag('form'))
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const draft = useSelector(actor, (s) => s.context.draft)
  const error = useSelector(actor, (s) => s.context.error)
  // The form gone (saved or cancelled) with the button that had the focus: 'Modifier mon e-mail' takes it back.
  const edit = useRef<HTMLButtonElement>(null)
  useFocusWhenShown(!editing, edit)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    actor.send({ type: 'email.submit' })
  }
  return (
    <Section id="email-title" title="Adresse e-mail">
      <Toolbar>
        <div>
          <strong>{current}</strong>
          <div>
            <Muted>Elle vous sert à vous connecter et à recevoir nos messages.</Muted>
          </div>
        </div>
        {!editing && (
          <Button type="button" $variant="secondary" ref={edit} onClick={() => actor.send({ type: 'email.edit' })}>
            Modifier mon e-mail
          </Button>
        )}
      </Toolbar>
      {editing && (
        <form onSubmit={submit} noValidate aria-busy={busy} aria-label="Modifier mon e-mail">
          {error && (
            <Alert $kind="error" role="alert">
              {error}
            </Alert>
          )}
          <TextField
            id="new-email"
            label="Nouvelle adresse e-mail"
            type="email"
            autoComplete="email"
            inputMode="email"
            value={draft}
            autoFocus
            onChange={(value) => actor.send({ type: 'email.change', value })}
            hint="Votre ancienne adresse sera avertie du changement."
          />
          <Toolbar>
            {/* Not focused when the call starts, so it may be disabled: the address sent cannot be called back. */}
            <Button type="button" $variant="ghost" onClick={() => actor.send({ type: 'email.cancel' })} disabled={busy}>
              Annuler
            </Button>
            <BusyButton type="submit" busy={busy}>
              {busy ? 'Enregistrement…' : 'Enregistrer l’adresse'}
            </BusyButton>
          </Toolbar>
        </form>
      )}
    </Section>
  )
}

export function PasswordSection() {
  const flows = useFlows('people')
  const actor = useActorRef(flows.passwordChange)
  const draft = useSelector(actor, (s) => s.context.draft)
  const problems = useSelector(actor, (s) => s.context.problems)
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const change = (patch: Partial<typeof draft>) => actor.send({ type: 'password.change', draft: patch })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    actor.send({ type: 'password.submit' })
  }
  return (
    <Section id="password-title" title="Modifier mon mot de passe">
      <form onSubmit={submit} noValidate aria-busy={busy} aria-labelledby="password-title">
        {error && (
          <Alert $kind="error" role="alert">
            {error}
          </Alert>
        )}
        <TextField
          id="current-password"
          label="Mot de passe actuel"
          type="password"
          autoComplete="current-password"
          value={draft.current}
          onChange={(current) => change({ current })}
          error={problems.current}
        />
        <PasswordFields
          idPrefix="change"
          password={draft.next}
          confirmation={draft.confirmation}
          onPassword={(next) => change({ next })}
          onConfirmation={(confirmation) => change({ confirmation })}
          passwordError={problems.next}
          confirmationError={problems.confirmation}
        />
        <BusyButton type="submit" busy={busy}>
          {busy ? 'Enregistrement…' : 'Modifier mon mot de passe'}
        </BusyButton>
      </form>
    </Section>
  )
}
