// /operateur/reexpeditions: the pending forwarding requests of every customer, oldest first, with their letters and the
// forwarding address; « Expédié » with the carrier and tracking number, or « Impossible » with the reason the customer
// reads (forwarding machine).
import { useActorRef, useSelector } from '@xstate/react'
import { type FormEvent, useState } from 'react'
import type { ForwardingRequest } from '../../../../../server/contract/mail-backoffice.ts'
import { CARRIERS } from '../../../../../server/contract/rules/carriers.ts'
import { Alert, BusyButton, Button, ErrorState, Field, formatDate, Spinner, TextField } from '../../../../views/components/ui.tsx'
import { useBackOffice } from '../../context.tsx'
import { Muted, Panel } from '../operators/admin.styles.ts'
import { KIND_LABELS } from './ScanCard.tsx'
import { Actions, Badge, CardBox, Cards } from './mail.styles.ts'

type Forwarding = ReturnType<typeof useForwarding>
const useForwarding = () => useActorRef(useBackOffice().flows.forwarding)

function OutcomeForm({
  forwarding,
  request,
  kind,
}: {
  forwarding: Forwarding
  request: ForwardingRequest
  kind: 'shipped' | 'impossible'
}) {
  const problems = useSelector(forwarding, (s) => s.context.problems)
  const error = useSelector(forwarding, (s) => s.context.sendError)
  const busy = useSelector(forwarding, (s) => s.hasTag('busy'))
  const [carrier, setCarrier] = useState<string>(CARRIERS[0].name)
  const [trackingNumber, setTrackingNumber] = useState('')
  const [reason, setReason] = useState('')
  const id = `request-${request.id}`
  function submit(event: FormEvent) {
    event.preventDefault()
    forwarding.send({
      type: 'request.send',
      outcome: kind === 'shipped' ? { kind, carrier, trackingNumber } : { kind, reason },
    })
  }
  return (
    <form onSubmit={submit} noValidate aria-busy={busy} aria-label={kind === 'shipped' ? 'Expédition' : 'Réexpédition impossible'}>
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
      {kind === 'shipped' ? (
        <>
          <TextField
            id={`${id}-carrier`}
            label="Transporteur"
            value={carrier}
            onChange={setCarrier}
            error={problems.carrier}
            list={`${id}-carriers`}
            maxLength={100}
          />
          <datalist id={`${id}-carriers`}>
            {CARRIERS.map((c) => (
              <option key={c.name} value={c.name} />
            ))}
          </datalist>
          <TextField
            id={`${id}-tracking`}
            label="Numéro de suivi"
            value={trackingNumber}
            onChange={setTrackingNumber}
            error={problems.trackingNumber}
            maxLength={40}
            autoComplete="off"
          />
        </>
      ) : (
        <Field id={`${id}-reason`} label="Raison (le client la lira)" error={problems.reason}>
          <textarea
            id={`${id}-reason`}
            value={reason}
            rows={3}
            maxLength={500}
            aria-invalid={!!problems.reason}
            aria-describedby={problems.reason ? `${id}-reason-error` : undefined}
            onChange={(e) => setReason(e.target.value)}
          />
        </Field>
      )}
      <Actions>
        <BusyButton type="submit" busy={busy}>
          {kind === 'shipped' ? 'Enregistrer l’expédition' : 'Enregistrer l’impossibilité'}
        </BusyButton>
        <Button type="button" $variant="ghost" disabled={busy} onClick={() => forwarding.send({ type: 'request.cancel' })}>
          Annuler
        </Button>
      </Actions>
    </form>
  )
}

export default function ForwardingPage() {
  const forwarding = useForwarding()
  const requests = useSelector(forwarding, (s) => s.context.requests)
  const failed = useSelector(forwarding, (s) => s.matches('failed'))
  const error = useSelector(forwarding, (s) => s.context.error)
  const open = useSelector(forwarding, (s) => s.context.open)
  const busy = useSelector(forwarding, (s) => s.hasTag('busy'))
  return (
    <Panel aria-labelledby="demandes">
      <h2 id="demandes">Demandes de réexpédition en attente</h2>
      {failed && <ErrorState message={error!} onRetry={() => forwarding.send({ type: 'list.retry' })} />}
      {!requests && !failed && <Spinner label="Chargement des demandes…" />}
      {requests && (
        <p role="status">
          {requests.length === 0
            ? 'Aucune demande de réexpédition en attente.'
            : `${requests.length} demande${requests.length > 1 ? 's' : ''} en attente, la plus ancienne en premier.`}
        </p>
      )}
      {requests && requests.length > 0 && (
        <Cards>
          {requests.map((r) => (
            <CardBox key={r.id} $flag={!r.forwardingAddress} aria-labelledby={`demande-${r.id}`}>
              <h3 id={`demande-${r.id}`}>
                {r.raisonSociale} <Muted>(n° {r.orderId})</Muted>
              </h3>
              <p>
                Demandée le {formatDate(r.createdAt)} : {r.letterCount} courrier{r.letterCount > 1 ? 's' : ''}
              </p>
              {r.letters.length > 0 && (
                <ul>
                  {r.letters.map((l) => (
                    <li key={l.id}>
                      {l.sender}{' '}
                      <Muted>
                        ({KIND_LABELS[l.kind]}, reçu le {formatDate(l.receivedAt)})
                      </Muted>
                    </li>
                  ))}
                </ul>
              )}
              {r.forwardingAddress ? (
                <address style={{ fontStyle: 'normal', whiteSpace: 'pre-line' }}>{r.forwardingAddress.join('\n')}</address>
              ) : (
                <p>
                  <Badge $kind="danger">Aucune adresse de réexpédition</Badge>
                </p>
              )}
              {open?.id === r.id ? (
                <OutcomeForm key={open.kind} forwarding={forwarding} request={r} kind={open.kind} />
              ) : (
                <Actions>
                  <Button
                    type="button"
                    disabled={busy}
                    aria-label={`Expédié : réexpédition de ${r.raisonSociale}`}
                    onClick={() => forwarding.send({ type: 'request.open', id: r.id, kind: 'shipped' })}
                  >
                    Expédié
                  </Button>
                  <Button
                    type="button"
                    $variant="secondary"
                    disabled={busy}
                    aria-label={`Impossible : réexpédition de ${r.raisonSociale}`}
                    onClick={() => forwarding.send({ type: 'request.open', id: r.id, kind: 'impossible' })}
                  >
                    Impossible
                  </Button>
                </Actions>
              )}
            </CardBox>
          ))}
        </Cards>
      )}
    </Panel>
  )
}
