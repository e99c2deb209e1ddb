// /verification/{code}, public (bare layout, no sign-in): where the QR code of a domiciliation certificate leads.
// It says "Attestation valide" with the company and the issue date, or that it is no longer valid, or that the code
// is unknown; nothing more.
import { useActorRef, useSelector } from '@xstate/react'
import { CERTIFICATE_REVOKED, CERTIFICATE_UNKNOWN, CERTIFICATE_VALID } from '../../../machines/billing/certificateVerification.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { Alert, ErrorState, formatDate, Spinner } from '../../components/ui.tsx'
import { BareLayout } from '../../layout/BareLayout.tsx'

export default function VerificationPage({ code }: { code: string }) {
  const flows = useFlows('billing')
  const actor = useActorRef(flows.certificateVerification, { input: { code: code.trim().toUpperCase() } })
  const state = useSelector(actor, (s) => s.value as 'checking' | 'valid' | 'revoked' | 'unknown' | 'failed')
  const valid = useSelector(actor, (s) => s.context.valid)
  const error = useSelector(actor, (s) => s.context.error)
  return (
    <BareLayout title="Vérification d’une attestation de domiciliation">
      <p>
        Code de vérification : <strong>{code}</strong>
      </p>
      {state === 'checking' && <Spinner label="Vérification en cours…" />}
      {state === 'valid' && valid && (
        <Alert $kind="success" role="status">
          <strong>{CERTIFICATE_VALID}</strong>
          <div>
            Attestation de domiciliation de <strong>{valid.raisonSociale}</strong>, délivrée le{' '}
            <time dateTime={valid.issuedAt}>{formatDate(valid.issuedAt)}</time>.
          </div>
        </Alert>
      )}
      {state === 'revoked' && (
        <Alert $kind="error" role="status">
          <strong>{CERTIFICATE_REVOKED}</strong>
        </Alert>
      )}
      {state === 'unknown' && (
        <Alert $kind="error" role="status">
          {CERTIFICATE_UNKNOWN} Vérifiez le code inscrit sur l’attestation.
        </Alert>
      )}
      {state === 'failed' && (
        <ErrorState message={error ?? 'La vérification a échoué.'} onRetry={() => actor.send({ type: 'verification.retry' })} />
      )}
    </BareLayout>
  )
}
