// /invitation/:token (bare, no sign-in needed): the invitation e-mail's link. Who invites to which
// order, then: "Accepter" (the invited account is signed in), its password (the invited account is
// not signed in), or first name, last name and a password with the rule shown (a new address). An
// expired or used link says so, and to ask the owner again; the service unavailable says so, with 'Réessayer'.
import { useActorRef, useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import { Link } from 'wouter'
import { readStoredUser } from '../../../wiring/storage.ts'
import { useFlows } from '../../app-context.tsx'
import { PasswordFields } from '../../components/PasswordFields.tsx'
import { Alert, BusyButton, Button, ErrorState, Spinner, TextField } from '../../components/ui.tsx'
import { PAGE_TITLE_ID, useArrivalAfter, useFocusAfter } from '../../components/useFocusWhenShown.ts'
import { BareLayout } from '../../layout/BareLayout.tsx'

export default function InvitationPage({ token }: { token: string }) {
  const flows = useFlows('people')
  const actor = useActorRef(flows.invitation, { input: { token, signedInEmail: readStoredUser()?.email ?? null } })
  const state = useSelector(actor, (s) => (typeof s.value === 'string' ? s.value : ''))
  const invitation = useSelector(actor, (s) => s.context.invitation)
  const draft = useSelector(actor, (s) => s.context.draft)
  const problems = useSelector(actor, (s) => s.context.problems)
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  // 'Réessayer' gives way to the spinner: once the invitation is read, the focus goes to the page's title.
  const retried = useFocusAfter(state !== 'loading', () => document.getElementById(PAGE_TITLE_ID))
  // Accepted: the page it leads to (the portal, on the shared order) takes the focus.
  useArrivalAfter(actor, (next) => next.matches('accepted'))
  const change = (patch: Partial<typeof draft>) => actor.send({ type: 'invitation.change', draft: patch })
  const submit = (type: 'invitation.signIn' | 'invitation.create' | 'invitation.accept') => (event: FormEvent) => {
    event.preventDefault()
    actor.send({ type })
  }

  if (state === 'loading')
    return (
      <BareLayout title="Invitation">
        <Spinner label="Chargement de l’invitation…" />
      </BareLayout>
    )
  if (state === 'unavailable') {
    return (
      <BareLayout title="Invitation">
        <ErrorState
          message={error ?? ''}
          onRetry={() => {
            retried()
            actor.send({ type: 'invitation.retry' })
          }}
        />
      </BareLayout>
    )
  }
  if (state === 'refused' || !invitation) {
    return (
      <BareLayout title="Invitation">
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
        <p>
          Vous avez déjà un compte ? <Link href="/login">Connectez-vous</Link>.
        </p>
      </BareLayout>
    )
  }
  const intro = (
    <p>
      {invitation.invitedBy} vous invite à consulter le courrier et les colis de <strong>{invitation.raisonSociale}</strong>.
    </p>
  )
  const failure = error && (
    <Alert $kind="error" role="alert">
      {error}
    </Alert>
  )
  return (
    <BareLayout title="Invitation" wide>
      {intro}
      {state === 'otherAccount' && (
        <>
          <Alert $kind="info" role="status">
            Cette invitation a été envoyée à {invitation.email}, mais vous êtes connecté avec {readStoredUser()?.email}.
          </Alert>
          <Button type="button" onClick={() => actor.send({ type: 'invitation.signOut' })}>
            Me déconnecter pour continuer
          </Button>
        </>
      )}
      {(state === 'confirming' || state === 'accepting') && (
        <form onSubmit={submit('invitation.accept')} aria-busy={busy}>
          {failure}
          <BusyButton type="submit" busy={busy}>
            {busy ? 'Acceptation…' : 'Accepter l’invitation'}
          </BusyButton>
        </form>
      )}
      {(state === 'signInForm' || state === 'signingIn') && (
        <form onSubmit={submit('invitation.signIn')} noValidate aria-busy={busy}>
          <p>Vous avez déjà un compte à cette adresse : connectez-vous pour accepter.</p>
          {failure}
          <TextField
            id="invitation-email"
            label="Adresse e-mail"
            type="email"
            value={invitation.email}
            readOnly
            onChange={() => {}}
            autoComplete="username"
          />
          <TextField
            id="invitation-password"
            label="Mot de passe"
            type="password"
            autoComplete="current-password"
            value={draft.password}
            error={problems.password}
            onChange={(password) => change({ password })}
          />
          <BusyButton type="submit" busy={busy}>
            {busy ? 'Connexion…' : 'Me connecter et accepter'}
          </BusyButton>
          <p>
            <Link href="/reset-password">Mot de passe oublié ?</Link>
          </p>
        </form>
      )}
      {(state === 'accountForm' || state === 'creating') && (
        <form onSubmit={submit('invitation.create')} noValidate aria-busy={busy}>
          <p>Créez votre accès en quelques secondes : votre adresse sera {invitation.email}.</p>
          {failure}
          <TextField
            id="invitation-firstname"
            label="Prénom"
            autoComplete="given-name"
            value={draft.firstname}
            error={problems.firstname}
            onChange={(firstname) => change({ firstname })}
          />
          <TextField
            id="invitation-lastname"
            label="Nom"
            autoComplete="family-name"
            value={draft.lastname}
            error={problems.lastname}
            onChange={(lastname) => change({ lastname })}
          />
          <PasswordFields
            idPrefix="invitation"
            label="Mot de passe"
            password={draft.password}
            confirmation={draft.confirmation}
            onPassword={(password) => change({ password })}
            onConfirmation={(confirmation) => change({ confirmation })}
            passwordError={problems.password}
            confirmationError={problems.confirmation}
          />
          <BusyButton type="submit" busy={busy}>
            {busy ? 'Création…' : 'Créer mon accès et accepter'}
          </BusyButton>
        </form>
      )}
    </BareLayout>
  )
}
