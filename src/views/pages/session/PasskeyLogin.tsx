// "Se connecter avec une clé d'accès" on /login, loaded after the login form (it brings the flows;
// the WebAuthn code itself loads only on a click). Signed in, the session takes the user and /login
// leaves for the dashboard.
import { useActorRef, useSelector } from '@xstate/react'
import { useFlows } from '../../app-context.tsx'
import { Alert, BusyButton } from '../../components/ui.tsx'
import { useArrivalAfter } from '../../components/useFocusWhenShown.ts'

export default function PasskeyLogin() {
  const flows = useFlows('people')
  const actor = useActorRef(flows.passkeyLogin)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const error = useSelector(actor, (s) => s.context.error)
  // Signed in: as with the password (LoginPage), the page it leads to takes the focus.
  useArrivalAfter(actor, (next) => next.matches('signedIn'))
  if (typeof window.PublicKeyCredential !== 'function') return null
  return (
    <>
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
      <BusyButton type="button" $variant="secondary" busy={busy} onClick={() => actor.send({ type: 'passkey.login' })}>
        {busy ? 'Suivez les indications de votre appareil…' : 'Se connecter avec une clé d’accès'}
      </BusyButton>
    </>
  )
}
