// /retablir-adresse/:token (bare, no sign-in; beyond the spec): « Ce n’était pas vous ? », the link of the notice an
// address change sends to the address left. What will happen, then « Rétablir mon adresse »; the outcome is focused
// (a screen reader hears it, the keyboard goes on from there).
import { useActorRef, useSelector } from '@xstate/react'
import { useEffect, useMemo, useRef } from 'react'
import { Link } from 'wouter'
import { fromPromise } from 'xstate'
import { emailRevertMachine } from '../../../machines/people/emailRevert.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { Alert, BusyButton } from '../../components/ui.tsx'
import { BareLayout } from '../../layout/BareLayout.tsx'

type Step = 'idle' | 'sending' | 'done' | 'unusable' | 'failed'

export default function EmailRevertPage({ token }: { token: string }) {
  const flows = useFlows('people')
  // The machine with its call, here rather than in the flows (wiring/people.ts): only this page uses it.
  const machine = useMemo(
    () =>
      emailRevertMachine.provide({
        actors: { revertEmailChange: fromPromise(({ input, signal }) => flows.revertEmailChange(input.token, signal)) },
      }),
    [flows],
  )
  const actor = useActorRef(machine, { input: { token } })
  const step = useSelector(actor, (s) => s.value as Step)
  const message = useSelector(actor, (s) => s.context.message)
  const error = useSelector(actor, (s) => s.context.error)
  const outcome = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (step === 'done' || step === 'unusable' || step === 'failed') outcome.current?.focus()
  }, [step])
  const send = () => actor.send({ type: 'revert.send' })

  return (
    <BareLayout title="Rétablir mon adresse e-mail">
      {(step === 'idle' || step === 'sending' || step === 'failed') && (
        <>
          <p>
            L’adresse e-mail de votre espace client a été modifiée. Si vous n’êtes pas à l’origine de ce changement, rétablissez votre
            adresse :
          </p>
          <ul>
            <li>votre adresse précédente redevient celle de votre espace ;</li>
            <li>toutes les connexions à votre espace sont fermées, sur tous les appareils, et les clés d’accès supprimées ;</li>
            <li>vous recevez à cette adresse un lien pour choisir un nouveau mot de passe.</li>
          </ul>
          {step === 'failed' && (
            <Alert $kind="error" role="alert" ref={outcome} tabIndex={-1}>
              {error}
            </Alert>
          )}
          <BusyButton type="button" busy={step === 'sending'} onClick={send}>
            {step === 'sending' ? 'Rétablissement…' : step === 'failed' ? 'Réessayer' : 'Rétablir mon adresse'}
          </BusyButton>
        </>
      )}
      {step === 'done' && (
        <>
          <Alert $kind="success" role="status" ref={outcome} tabIndex={-1}>
            {message}
          </Alert>
          <p>
            <Link href="/login">Aller à la connexion</Link>
          </p>
        </>
      )}
      {step === 'unusable' && (
        <>
          <Alert $kind="error" role="alert" ref={outcome} tabIndex={-1}>
            {error}
          </Alert>
          <p>
            Pour retrouver l’accès à votre espace : <Link href="/reset-password">choisir un nouveau mot de passe</Link>.
          </p>
        </>
      )}
    </BareLayout>
  )
}
