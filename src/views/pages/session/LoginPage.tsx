// /login (PRODUCT.md): e-mail, password, 'Se connecter', 'Mot de passe oublié ?'.
import { styled } from 'goober'
import { type FormEvent, lazy, Suspense, useState, useSyncExternalStore } from 'react'
import { Link, Redirect } from 'wouter'
import { hasStoredUser, subscribeStoredUser } from '../../../wiring/storage.ts'
import { useServices, useSessionWhenLoaded, useSnapshotValue } from '../../app-context.tsx'
import { Alert, BusyButton, Button, TextField } from '../../components/ui.tsx'
import { useArrivalAfter } from '../../components/useFocusWhenShown.ts'
import { BareLayout } from '../../layout/BareLayout.tsx'
import { preloadSignedIn } from '../../signedIn.ts'
import { prerenderedValue } from '../../takeover.ts'

// people: passkeys, with the flows, after the form has painted.
const PasskeyLogin = lazy(() => import('./PasskeyLogin.tsx'))
/** PasskeyLogin's button, as it reads (that file shows it where WebAuthn exists). */
const PASSKEY_LABEL = 'Se connecter avec une clé d’accès'
// The page rendered ahead at build time (prerender.tsx) keeps the button's place too: browsers have WebAuthn.
const passkeys = typeof window === 'undefined' || typeof window.PublicKeyCredential === 'function'

const Actions = styled('div')`
  display: flex;
  flex-direction: column;
  gap: 1rem;
  align-items: stretch;
  a { align-self: center; }
`

export default function LoginPage() {
  const services = useServices()
  const session = useSessionWhenLoaded()
  const signedIn = useSyncExternalStore(subscribeStoredUser, hasStoredUser, hasStoredUser)
  const busy = useSnapshotValue(session, (s) => s.matches('signingIn'), false)
  const serverError = useSnapshotValue(session, (s) => (s.matches('signedOut') ? s.context.error : null), null)
  // Signing in again after the session expired goes back to the page shown then.
  const returnTo = useSnapshotValue(session, (s) => s.context.returnTo, null)
  // What was typed into the page drawn ahead before the app took over (takeover.ts).
  const [username, setUsername] = useState(() => prerenderedValue('login-email'))
  const [password, setPassword] = useState(() => prerenderedValue('login-password'))
  const [errors, setErrors] = useState<{ username?: string; password?: string }>({})
  // Signed in with this form: the page it leads to (the dashboard, the page left, the order choice, /missing-document)
  // takes the focus; not when another tab signed in.
  useArrivalAfter(session, (next, previous) => previous.matches('signingIn') && next.matches('signedIn'))

  if (signedIn) return <Redirect to={returnTo ?? '/tableau-de-bord'} replace />

  const preload = () => preloadSignedIn(services)

  function submit(event: FormEvent) {
    event.preventDefault()
    const next = {
      username: username.trim() === '' ? 'Saisissez votre adresse e-mail.' : undefined,
      password: password === '' ? 'Saisissez votre mot de passe.' : undefined,
    }
    setErrors(next)
    if (next.username || next.password) return
    // The signed-in code is normally there already (the form was used); if not, it loads beside the login request.
    preload()
    void services.loadSession().then((s) => s.send({ type: 'session.login', username: username.trim(), password }))
  }

  return (
    <BareLayout title="Connexion à votre espace client">
      {/* Typing (or a password manager filling in) fetches the signed-in code: off the first paint, ready by the click. */}
      <form onSubmit={submit} onFocus={preload} onInput={preload} noValidate aria-busy={busy}>
        {serverError && (
          <Alert $kind="error" role="alert">
            {serverError}
          </Alert>
        )}
        <TextField
          id="login-email"
          label="Adresse e-mail"
          type="email"
          autoComplete="username"
          inputMode="email"
          value={username}
          onChange={setUsername}
          error={errors.username}
        />
        <TextField
          id="login-password"
          label="Mot de passe"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          error={errors.password}
        />
        <Actions>
          <BusyButton type="submit" busy={busy}>
            {busy ? 'Connexion…' : 'Se connecter'}
          </BusyButton>
          {/* The passkey button's place is kept while its code loads: nothing jumps when it comes. */}
          <Suspense
            fallback={
              passkeys ? (
                <Button type="button" $variant="secondary" disabled>
                  {PASSKEY_LABEL}
                </Button>
              ) : null
            }
          >
            <PasskeyLogin />
          </Suspense>
          <Link href="/reset-password">Mot de passe oublié ?</Link>
        </Actions>
      </form>
    </BareLayout>
  )
}
