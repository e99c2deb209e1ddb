// /operateur/inscription/:token: what the link is for (the operator's address and name), the TOTP secret to enrol in
// an authenticator app (its QR code, and the key to type), then the password chosen (the customers' rule) and a first
// code of the app (enrolment.machine.ts).
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { type FormEvent, lazy, Suspense, useState } from 'react'
import { Link } from 'wouter'
import { SIGN_IN_PATH } from '../../../../../server/contract/rules/backoffice.ts'
import { PASSWORDS_DIFFER, passwordProblem } from '../../../../machines/passwordRule.ts'
import { PasswordFields } from '../../../../views/components/PasswordFields.tsx'
import { Alert, BusyButton, ErrorState, PageSpinner, TextField } from '../../../../views/components/ui.tsx'
import { color, radius } from '../../../../views/theme.ts'
import { useBackOffice } from '../../context.tsx'
import { BareLayout } from '../../layout/BareLayout.tsx'
import { CODE_FORMAT } from './SignInPage.tsx'

const QrCode = lazy(() => import('./QrCode.tsx').then((m) => ({ default: m.QrCode })))

const Secret = styled('div')`
  display: flex;
  flex-wrap: wrap;
  gap: 1.25rem;
  align-items: flex-start;
  margin: 1rem 0 1.5rem;
  padding: 1rem;
  border: 1px solid ${color.border};
  border-radius: ${radius};
  code { font-size: 1.05rem; letter-spacing: 0.08em; word-break: break-all; }
  dl { margin: 0; flex: 1 1 16rem; }
  dd { margin: 0 0 0.75rem; }
`

/** The base32 secret in groups of four, as authenticator apps show it. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ')

export default function EnrolmentPage({ token }: { token: string }) {
  const { flows } = useBackOffice()
  const enrolment = useActorRef(flows.enrolment, { input: { token } })
  const state = useSelector(enrolment, (s) => s.value as string)
  const details = useSelector(enrolment, (s) => s.context.enrolment)
  const error = useSelector(enrolment, (s) => s.context.error)
  const done = useSelector(enrolment, (s) => s.context.done)
  const busy = useSelector(enrolment, (s) => s.hasTag('busy'))
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [code, setCode] = useState('')
  const [errors, setErrors] = useState<{ password?: string | null; confirmation?: string; code?: string }>({})

  if (state === 'loading') return <BareLayout title="Inscription au back-office">{<PageSpinner label="Lecture du lien…" />}</BareLayout>
  if (state === 'failed')
    return (
      <BareLayout title="Inscription au back-office">
        <ErrorState message={error!} onRetry={() => enrolment.send({ type: 'enrolment.retry' })} />
      </BareLayout>
    )
  if (state === 'refused')
    return (
      <BareLayout title="Lien d’inscription inutilisable">
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      </BareLayout>
    )
  if (state === 'enrolled')
    return (
      <BareLayout title="Inscription terminée">
        <Alert $kind="success" role="status">
          {done}
        </Alert>
        <Link href={SIGN_IN_PATH}>Se connecter au back-office</Link>
      </BareLayout>
    )

  function submit(event: FormEvent) {
    event.preventDefault()
    const digits = code.replace(/\s/g, '')
    const next = {
      password: passwordProblem(password),
      confirmation: confirmation !== password ? PASSWORDS_DIFFER : undefined,
      code: /^[0-9]{6}$/.test(digits) ? undefined : CODE_FORMAT,
    }
    setErrors(next)
    if (!next.password && !next.confirmation && !next.code) enrolment.send({ type: 'enrolment.submit', password, code: digits })
  }

  return (
    <BareLayout title="Inscription au back-office" wide>
      <p>
        Bienvenue {details!.name}. Ce lien prépare le compte opérateur <strong>{details!.email}</strong> : il ne sert qu’une fois.
      </p>
      <h2>1. Enregistrez la clé dans votre application d’authentification</h2>
      <p>Scannez le code QR avec votre application (Google Authenticator, Microsoft Authenticator, FreeOTP…), ou saisissez la clé.</p>
      <Secret>
        <Suspense fallback={<div style={{ width: 192, height: 192 }} />}>
          <QrCode text={details!.otpauthUri} label="Code QR de la clé du back-office" />
        </Suspense>
        <dl>
          <dt>Clé à saisir</dt>
          <dd>
            <code>{grouped(details!.totpSecret)}</code>
          </dd>
          <dt>Adresse otpauth</dt>
          <dd>
            <code>{details!.otpauthUri}</code>
          </dd>
        </dl>
      </Secret>
      <h2>2. Choisissez votre mot de passe et saisissez un premier code</h2>
      <form onSubmit={submit} noValidate aria-busy={busy}>
        {error && (
          <Alert $kind="error" role="alert">
            {error}
          </Alert>
        )}
        <PasswordFields
          idPrefix="bo-enrol"
          label="Mot de passe"
          password={password}
          confirmation={confirmation}
          onPassword={setPassword}
          onConfirmation={setConfirmation}
          passwordError={errors.password}
          confirmationError={errors.confirmation}
        />
        <TextField
          id="bo-enrol-code"
          label="Code à 6 chiffres de l’application"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          value={code}
          onChange={setCode}
          error={errors.code}
        />
        <BusyButton type="submit" busy={busy}>
          {busy ? 'Enregistrement…' : 'Terminer l’inscription'}
        </BusyButton>
      </form>
    </BareLayout>
  )
}
