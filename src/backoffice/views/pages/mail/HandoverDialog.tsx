// Colis › « Remis »: who collects the package, from the order's owner and representatives only; the identity document
// checked (required); the date and time, now unless changed (handover machine).
import { useActorRef, useSelector } from '@xstate/react'
import { useState } from 'react'
import type { MailRoomPackage } from '../../../../../server/contract/mail-backoffice.ts'
import { Modal } from '../../../../views/components/Modal.tsx'
import { Alert, BusyButton, Button, ErrorState, FieldError, Spinner, TextField } from '../../../../views/components/ui.tsx'
import { useBackOffice } from '../../context.tsx'
import { formatDateTime } from '../operators/admin.styles.ts'

/** A date-time field's value (local time, to the minute) for an instant. */
export const localDateTime = (date: Date) => {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000)
  return shifted.toISOString().slice(0, 16)
}

export function HandoverDialog({
  parcel,
  onClose,
  onDone,
}: {
  parcel: MailRoomPackage
  onClose: () => void
  onDone: (id: number) => void
}) {
  const { flows } = useBackOffice()
  const [machine] = useState(() => flows.handover.provide({ actions: { done: (_, { id }) => onDone(id) } }))
  const handover = useActorRef(machine, { input: { parcel } })
  const state = useSelector(handover, (s) => s.value as string)
  const collectors = useSelector(handover, (s) => s.context.collectors)
  const problems = useSelector(handover, (s) => s.context.problems)
  const error = useSelector(handover, (s) => s.context.error)
  const [collector, setCollector] = useState<number | null>(null)
  const [identityChecked, setIdentityChecked] = useState(false)
  const [at, setAt] = useState(() => localDateTime(new Date()))
  const busy = state === 'sending'
  const send = () =>
    handover.send({
      type: 'handover.send',
      values: { collector, identityChecked, collectedAt: at ? new Date(at).toISOString() : '' },
      now: new Date(),
    })
  return (
    <Modal
      title={`Remise du colis de ${parcel.sender}`}
      onClose={onClose}
      locked={busy}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={onClose} disabled={busy}>
            Annuler
          </Button>
          <BusyButton type="button" busy={busy} disabled={state !== 'choosing' && !busy} onClick={send}>
            Confirmer la remise
          </BusyButton>
        </>
      }
    >
      <p>
        {parcel.raisonSociale}, arrivé le {formatDateTime(parcel.receivedAt)} par {parcel.carrier}.
      </p>
      {state === 'loading' && <Spinner label="Chargement des personnes autorisées…" />}
      {state === 'failed' && <ErrorState message={error!} onRetry={() => handover.send({ type: 'collectors.retry' })} />}
      {(state === 'choosing' || busy) && (
        <>
          {error && (
            <Alert $kind="error" role="alert">
              {error}
            </Alert>
          )}
          <fieldset
            style={{ border: 0, padding: 0, margin: '0 0 1rem' }}
            aria-describedby={problems.collector ? 'collector-error' : undefined}
          >
            <legend style={{ fontWeight: 600 }}>Retiré par (le titulaire ou un représentant de la domiciliation)</legend>
            {collectors.map((c, i) => (
              <label
                key={`${c.kind}-${c.mandataireId ?? 0}`}
                style={{ display: 'flex', gap: '0.5rem', alignItems: 'center', minHeight: 40 }}
              >
                <input type="radio" name="collector" checked={collector === i} onChange={() => setCollector(i)} disabled={busy} />
                {c.name} ({c.kind === 'titulaire' ? 'titulaire' : 'représentant'})
              </label>
            ))}
            {problems.collector && (
              <FieldError id="collector-error" role="alert">
                {problems.collector}
              </FieldError>
            )}
          </fieldset>
          <label style={{ display: 'flex', gap: '0.5rem', alignItems: 'center', minHeight: 40 }}>
            <input
              type="checkbox"
              checked={identityChecked}
              onChange={(e) => setIdentityChecked(e.target.checked)}
              disabled={busy}
              aria-describedby={problems.identityChecked ? 'identity-error' : undefined}
            />
            Pièce d’identité vérifiée
          </label>
          {problems.identityChecked && (
            <FieldError id="identity-error" role="alert">
              {problems.identityChecked}
            </FieldError>
          )}
          <TextField
            id="handover-at"
            label="Date et heure du retrait"
            type="datetime-local"
            value={at}
            onChange={setAt}
            error={problems.collectedAt}
            disabled={busy}
          />
        </>
      )}
    </Modal>
  )
}
