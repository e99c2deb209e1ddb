// /operateur/resiliations: the customers' termination requests, waiting ones first; « Accepter » with an end date (the
// customer's day proposed), or « Contacter le client », which opens a conversation and goes to it in Messages
// (terminations machine).
import { useActorRef, useSelector } from '@xstate/react'
import { type FormEvent, useState } from 'react'
import { Link } from 'wouter'
import type { BackofficeTermination } from '../../../../../server/contract/billing-backoffice.ts'
import { latestTerminationDate, parisToday } from '../../../../../server/contract/rules/termination.ts'
import { Alert, BusyButton, Button, ErrorState, Field, formatDate, Spinner, TextField } from '../../../../views/components/ui.tsx'
import { frenchDay } from '../../../../../server/contract/rules/french-date.ts'
import { type TerminationAction, terminationsMachine } from '../../../machines/billing/terminations.machine.ts'
import { useBackOffice } from '../../context.tsx'
import { Actions, Badge, CardBox, Cards } from '../mail/mail.styles.ts'
import { conversationPath } from '../notifications/paths.ts'
import { Muted, Panel } from '../operators/admin.styles.ts'

type Terminations = ReturnType<typeof useTerminations>
const useTerminations = () => useActorRef(useBackOffice().flows.terminations(terminationsMachine), { input: { today: parisToday() } })

function ActionForm({
  terminations,
  request,
  kind,
}: {
  terminations: Terminations
  request: BackofficeTermination
  kind: TerminationAction['kind']
}) {
  const problem = useSelector(terminations, (s) => s.context.problem)
  const error = useSelector(terminations, (s) => s.context.sendError)
  const busy = useSelector(terminations, (s) => s.hasTag('busy'))
  const today = useSelector(terminations, (s) => s.context.today)
  // The customer's day, or today if it has passed (YYYY-MM-DD sorts as text).
  const [endDate, setEndDate] = useState([request.requestedDate, today].sort()[1]!)
  const [message, setMessage] = useState('')
  const id = `termination-${request.id}`
  function submit(event: FormEvent) {
    event.preventDefault()
    terminations.send({ type: 'termination.send', action: kind === 'accept' ? { kind, endDate } : { kind, message } })
  }
  return (
    <form onSubmit={submit} noValidate aria-busy={busy} aria-label={kind === 'accept' ? 'Accepter la résiliation' : 'Contacter le client'}>
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
      {kind === 'accept' ? (
        <TextField
          id={`${id}-end`}
          type="date"
          label="Date de fin de la domiciliation"
          hint="L’abonnement s’arrête ce jour-là ; aucune attestation ni réexpédition au-delà."
          value={endDate}
          onChange={setEndDate}
          error={problem}
          min={today}
          max={latestTerminationDate(today, request.requestedDate)}
          required
        />
      ) : (
        <Field id={`${id}-message`} label="Votre message au client (il le lira dans « Mes échanges » et par e-mail)" error={problem}>
          <textarea
            id={`${id}-message`}
            value={message}
            rows={4}
            maxLength={5000}
            aria-invalid={!!problem}
            aria-describedby={problem ? `${id}-message-error` : undefined}
            onChange={(e) => setMessage(e.target.value)}
          />
        </Field>
      )}
      <Actions>
        <BusyButton type="submit" busy={busy}>
          {kind === 'accept' ? 'Accepter la résiliation' : 'Envoyer et ouvrir la conversation'}
        </BusyButton>
        <Button type="button" $variant="ghost" disabled={busy} onClick={() => terminations.send({ type: 'termination.cancel' })}>
          Annuler
        </Button>
      </Actions>
    </form>
  )
}

export default function TerminationsPage() {
  const terminations = useTerminations()
  const list = useSelector(terminations, (s) => s.context.terminations)
  const failed = useSelector(terminations, (s) => s.matches('failed'))
  const error = useSelector(terminations, (s) => s.context.error)
  const open = useSelector(terminations, (s) => s.context.open)
  const busy = useSelector(terminations, (s) => s.hasTag('busy'))
  const waiting = list?.filter((t) => t.state === 'en attente').length ?? 0
  return (
    <Panel aria-labelledby="resiliations">
      <h2 id="resiliations">Demandes de résiliation</h2>
      {failed && <ErrorState message={error!} onRetry={() => terminations.send({ type: 'list.retry' })} />}
      {!list && !failed && <Spinner label="Chargement des demandes de résiliation…" />}
      {list && (
        <p role="status">
          {list.length === 0
            ? 'Aucune demande de résiliation.'
            : `${waiting} demande${waiting > 1 ? 's' : ''} en attente, la plus ancienne en premier ; puis les résiliations acceptées.`}
        </p>
      )}
      {list && list.length > 0 && (
        <Cards>
          {list.map((t) => (
            <CardBox key={t.id} $flag={t.state === 'en attente'} aria-labelledby={`resiliation-${t.id}`}>
              <h3 id={`resiliation-${t.id}`}>
                {t.raisonSociale} <Muted>(n° {t.orderId})</Muted>
              </h3>
              <p>
                Demandée le {formatDate(t.createdAt)} par {t.requestedBy}, pour le {frenchDay(t.requestedDate)} : {t.reason}
                {t.comment ? <Muted> — « {t.comment} »</Muted> : null}
              </p>
              <p>
                {t.state === 'en attente' ? (
                  <Badge $kind="info">En attente</Badge>
                ) : (
                  <Badge $kind="ok">
                    Acceptée{t.acceptedBy ? ` par ${t.acceptedBy}` : ''} : fin le {frenchDay(t.endDate!)}
                  </Badge>
                )}
              </p>
              {open?.id === t.id ? (
                <ActionForm key={open.kind} terminations={terminations} request={t} kind={open.kind} />
              ) : (
                <Actions>
                  {t.state === 'en attente' && (
                    <Button
                      type="button"
                      disabled={busy}
                      aria-label={`Accepter la résiliation de ${t.raisonSociale}`}
                      onClick={() => terminations.send({ type: 'termination.open', id: t.id, kind: 'accept' })}
                    >
                      Accepter
                    </Button>
                  )}
                  {t.conversationId === null ? (
                    <Button
                      type="button"
                      $variant="secondary"
                      disabled={busy}
                      aria-label={`Contacter le client : ${t.raisonSociale}`}
                      onClick={() => terminations.send({ type: 'termination.open', id: t.id, kind: 'contact' })}
                    >
                      Contacter le client
                    </Button>
                  ) : (
                    <Link href={conversationPath(t.conversationId)}>Voir la conversation avec le client</Link>
                  )}
                </Actions>
              )}
            </CardBox>
          ))}
        </Cards>
      )}
    </Panel>
  )
}
