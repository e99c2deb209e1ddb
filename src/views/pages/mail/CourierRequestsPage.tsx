// /mes-courriers/reexpeditions: forwarding and scan requests (owner or share variant): date, kind,
// status, number of letters; a pending one can be cancelled after a confirmation. A forwarding sent says by which
// carrier, with its tracking number and the carrier's tracking page; one that could not be sent says why.
import { useActorRef, useSelector } from '@xstate/react'
import { useFlows } from '../../app-context.tsx'
import { Modal } from '../../components/Modal.tsx'
import { Alert, Button, formatDate } from '../../components/ui.tsx'
import type { PageProps } from '../page.ts'
import {
  Badge,
  companyOf,
  ListState,
  Muted,
  PageCard,
  Row,
  Rows,
  usePortal,
  useResource,
  useSelectedOrder,
} from '../../components/page.tsx'
import { courierRequestKind, letters } from '../../components/labels.ts'

export default function CourierRequestsPage(_: PageProps) {
  const flows = useFlows('mail')
  const { startup, data } = usePortal()
  const order = useSelectedOrder(startup)
  const { items, status, error } = useResource(data, 'courierRequests')
  const cancel = useActorRef(flows.courierRequestCancel)
  const confirming = useSelector(cancel, (s) => s.context.request)
  const open = useSelector(cancel, (s) => s.hasTag('confirm'))
  const busy = useSelector(cancel, (s) => s.hasTag('busy'))
  const cancelError = useSelector(cancel, (s) => s.context.error)
  const requests = items ?? []

  return (
    <PageCard aria-labelledby="requests-title">
      {/* Focused once the cancelled request's "Annuler" is gone; never by Tab. */}
      <h2 id="requests-title" tabIndex={-1}>
        Mes réexpéditions
      </h2>
      <ListState
        status={status}
        error={error}
        label="vos demandes"
        empty="Aucune demande de réexpédition ou de numérisation pour le moment"
        isEmpty={requests.length === 0}
        onRetry={() => startup.send({ type: 'data.retry', resource: 'courierRequests' })}
      >
        <Rows aria-label="Demandes">
          {requests.map((r) => (
            <Row key={r.id}>
              <div>
                <strong>{courierRequestKind[r.kind]}</strong> <Muted>{letters(r.letterCount)}</Muted>
                <div>
                  <Muted>
                    Demandée le <time dateTime={r.createdAt}>{formatDate(r.createdAt)}</time>
                  </Muted>{' '}
                  {companyOf(!order, r.raisonSociale)}
                </div>
                {r.outcome?.kind === 'expédiée' && (
                  <div>
                    <Muted>
                      Expédiée le <time dateTime={r.outcome.at}>{formatDate(r.outcome.at)}</time> par {r.outcome.carrier}, suivi{' '}
                      {r.outcome.trackingUrl ? (
                        <a href={r.outcome.trackingUrl} target="_blank" rel="noopener noreferrer">
                          {r.outcome.trackingNumber}
                        </a>
                      ) : (
                        r.outcome.trackingNumber
                      )}
                    </Muted>
                  </div>
                )}
                {r.outcome?.kind === 'impossible' && (
                  <div>
                    <Muted>Réexpédition impossible : {r.outcome.reason}</Muted>
                  </div>
                )}
              </div>
              <div>
                <Badge $tone={r.status === 'en attente' ? 'warning' : r.outcome?.kind === 'impossible' ? 'danger' : 'success'}>
                  {r.status === 'en attente' ? 'En attente' : r.outcome?.kind === 'impossible' ? 'Impossible' : 'Traitée'}
                </Badge>{' '}
                {r.status === 'en attente' && (
                  <Button
                    type="button"
                    $variant="secondary"
                    onClick={() => cancel.send({ type: 'request.cancel', request: r })}
                    aria-label={`Annuler la demande de ${courierRequestKind[r.kind].toLowerCase()} du ${formatDate(r.createdAt)}`}
                  >
                    Annuler
                  </Button>
                )}
              </div>
            </Row>
          ))}
        </Rows>
      </ListState>
      {open && confirming && (
        <Modal
          title="Annuler cette demande ?"
          onClose={() => cancel.send({ type: 'request.keep' })}
          locked={busy}
          fallbackFocus={() => document.getElementById('requests-title')}
          footer={
            <>
              <Button type="button" $variant="secondary" onClick={() => cancel.send({ type: 'request.keep' })} disabled={busy}>
                Garder la demande
              </Button>
              <Button
                type="button"
                $variant="danger"
                onClick={() => cancel.send({ type: 'request.confirm' })}
                disabled={busy}
                data-autofocus
              >
                {busy ? 'Annulation…' : 'Annuler la demande'}
              </Button>
            </>
          }
        >
          <p>
            La demande de {courierRequestKind[confirming.kind].toLowerCase()} du {formatDate(confirming.createdAt)} (
            {letters(confirming.letterCount)}) ne sera pas traitée.
          </p>
          {cancelError && (
            <Alert $kind="error" role="alert">
              {cancelError}
            </Alert>
          )}
        </Modal>
      )}
    </PageCard>
  )
}
