// /operateur/connexion: the e-mail and password, then the 6-digit code of the authenticator app or, where the browser has
// WebAuthn, « Utiliser une clé d’accès » (signIn.machine.ts).
// Signed in, the operator goes to the page the session left (it ended by itself) or to the dashboard.
import { useActorRef, useSelector } from '@xstate/react'
import { type FormEvent, useEffect, useState } from 'react'
import { Redirect } from 'wouter'
import { BACK_OFFICE_PATH } from '../../../../../server/contract/rules/backoffice.ts'
import { Alert, BusyButton, Button, TextField } from '../../../../views/components/ui.tsx'
import { useBackOffice } from '../../context.tsx'
import { BareLayout } from '../../layout/BareLayout.tsx'

export const CODE_FORMAT = 'Saisissez les 6 chiffres affichés par votre application d’authentification.'

/** The browser can use a passkey (WebAuthn): the button shows only then; the prompt's code loads when it is pressed. */
export const passkeysSupported = () => typeof (window as { PublicKeyCredential?: unknown }).PublicKeyCredential === 'function'

export default function SignInPage() {
  const { session, flows } = useBackOffice()
  const signedIn = useSelector(session, (s) => s.matches('signedIn'))
  const returnTo = useSelector(session, (s) => s.context.returnTo)
  const notice = useSelector(session, (s) => s.context.notice)
  const signIn = useActorRef(flows.signIn)
  const step = useSelector(signIn, (s) => (s.matches('password') || s.matches('checkingPassword') ? 'password' : 'code'))
  const busy = useSelector(signIn, (s) => s.hasTag('busy'))
  const serverError = useSelector(signIn, (s) => s.context.error)
  const email = useSelector(signIn, (s) => s.context.email)

  if (signedIn) return <Redirect to={returnTo ?? BACK_OFFICE_PATH} replace />
  return (
    <BareLayout title="Connexion au back-office">
      {notice && !serverError && <Alert $kind="info">{notice}</Alert>}
      {serverError && (
        <Alert $kind="error" role="alert">
          {serverError}
        </Alert>
      )}
      {step === 'password' ? (
        <PasswordStep busy={busy} initialEmail={email} onSubmit={(values) => signIn.send({ type: 'signIn.password', ...values })} />
      ) : (
        <CodeStep
          busy={busy}
          email={email}
          onSubmit={(code) => signIn.send({ type: 'signIn.code', code })}
          onPasskey={() => signIn.send({ type: 'signIn.passkey' })}
          onRestart={() => signIn.send({ type: 'signIn.restart' })}
        />
      )}
    </BareLayout>
  )
}

function PasswordStep({
  busy,
  initialEmail,
  onSubmit,
}: {
  busy: boolean
  initialEmail: string
  onSubmit: (values: { email: string; password: string }) => void
}) {
  const [email, setEmail] = useState(initialEmail)
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({})
  function submit(event: FormEvent) {
    event.preventDefault()
    const next = {
      email: email.trim() === '' ? 'Saisissez votre adresse e-mail.' : undefined,
      password: password === '' ? 'Saisissez votre mot de passe.' : undefined,
    }
    setErrors(next)
    if (!next.email && !next.password) onSubmit({ email: email.trim(), password })
  }
  return (
    <form onSubmit={submit} noValidate aria-busy={busy}>
      <TextField
        id="bo-email"
        label="Adresse e-mail"
        type="email"
        autoComplete="username"
        value={email}
        onChange={setEmail}
        error={errors.email}
      />
      <TextField
        id="bo-password"
        label="Mot de passe"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        error={errors.password}
      />
      <BusyButton type="submit" busy={busy}>
        {busy ? 'Vérification…' : 'Continuer'}
      </BusyButton>
    </form>
  )
}

function CodeStep({
  busy,
  email,
  onSubmit,
  onPasskey,
  onRestart,
}: {
  busy: boolean
  email: string
  onSubmit: (code: string) => void
  onPasskey: () => void
  onRestart: () => void
}) {
  const [code, setCode] = useState('')
  const [error, setError] = useState<string>()
  // The code step replaces the password's form: the focus goes to its field.
  useEffect(() => document.getElementById('bo-code')?.focus(), [])
  function submit(event: FormEvent) {
    event.preventDefault()
    const digits = code.replace(/\s/g, '')
    const invalid = /^[0-9]{6}$/.test(digits) ? undefined : CODE_FORMAT
    setError(invalid)
    if (!invalid) {
      onSubmit(digits)
      setCode('')
    }
  }
  return (
    <form onSubmit={submit} noValidate aria-busy={busy}>
      <p>
        Mot de passe accepté pour <strong>{email}</strong>. Ouvrez votre application d’authentification et saisissez le code du back-office.
      </p>
      <TextField
        id="bo-code"
        label="Code à 6 chiffres"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        value={code}
        onChange={setCode}
        error={error}
      />
      <BusyButton type="submit" busy={busy}>
        {busy ? 'Vérification…' : 'Se connecter'}
      </BusyButton>{' '}
      {passkeysSupported() && (
        <>
          <Button type="button" $variant="secondary" onClick={onPasskey} disabled={busy}>
            Utiliser une clé d’accès
          </Button>{' '}
        </>
      )}
      <Button type="button" $variant="ghost" onClick={onRestart} disabled={busy}>
        Changer d’adresse
      </Button>
    </form>
  )
}
