// One scan of the queue: its first page, its reading, the suggested order with its reason and the suggested sender,
// « À vérifier » when it must be looked at; the order (searchable list), sender and kind confirmed or changed, then
// « Publier »; « Supprimer » after a confirmation (scanReview machine).
import { useActorRef, useSelector } from '@xstate/react'
import { useEffect, useState } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { MailScan } from '../../../../../server/contract/mail-backoffice.ts'
import type { DocumentKind } from '../../../../../server/contract/mail.ts'
import type { scanQueueMachine } from '../../../machines/mail/scanQueue.machine.ts'
import { Alert, BusyButton, Button, Field, TextField } from '../../../../views/components/ui.tsx'
import { useBackOffice } from '../../context.tsx'
import { formatDateTime, Muted } from '../operators/admin.styles.ts'
import { Actions, Badge, CardBox } from './mail.styles.ts'
import { OrderPicker, type PickedOrder } from './OrderPicker.tsx'

export const KIND_LABELS: Record<DocumentKind, string> = { courrier: 'Courrier', recommandé: 'Recommandé', administratif: 'Administratif' }

function FirstPage({ scan }: { scan: MailScan }) {
  const { files } = useBackOffice()
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    if (scan.pageImages === 0) return
    const controller = new AbortController()
    let made: string | null = null
    files
      .scanPage(scan.id, 1, controller.signal)
      .then((blob) => {
        made = URL.createObjectURL(blob)
        setUrl(made)
      })
      .catch(() => {})
    return () => {
      controller.abort()
      if (made) URL.revokeObjectURL(made)
    }
  }, [files, scan.id, scan.pageImages])
  if (!url) return null
  return <img src={url} alt={`Première page de ${scan.fileName}`} style={{ width: '100%', maxHeight: '16rem', objectFit: 'contain' }} />
}

export function ScanCard({ scan: shown, queue }: { scan: MailScan; queue: ActorRefFrom<typeof scanQueueMachine> }) {
  const { flows } = useBackOffice()
  const [machine] = useState(() =>
    flows.scanReview.provide({
      actions: {
        changed: (_, { scan }) => queue.send({ type: 'scan.changed', scan }),
        removed: (_, { id }) => queue.send({ type: 'scan.removed', id }),
      },
    }),
  )
  const review = useActorRef(machine, { input: { scan: shown } })
  const scan = useSelector(review, (s) => s.context.scan)
  const state = useSelector(review, (s) => s.value as string)
  const problems = useSelector(review, (s) => s.context.problems)
  const error = useSelector(review, (s) => s.context.error)
  const busy = useSelector(review, (s) => s.hasTag('busy'))
  useEffect(() => {
    review.send({ type: 'review.sync', scan: shown })
  }, [review, shown])

  const [order, setOrder] = useState<PickedOrder | null>(
    scan.orderId !== null && scan.raisonSociale ? { id: scan.orderId, raisonSociale: scan.raisonSociale } : null,
  )
  const [sender, setSender] = useState(scan.sender ?? scan.suggestedSender ?? '')
  const [kind, setKind] = useState<DocumentKind>(scan.kind)
  const reading = scan.reading === 'en cours'
  const changed = order?.id !== scan.orderId || sender.trim() !== (scan.sender ?? '') || kind !== scan.kind
  const save = (confirmed: boolean) => review.send({ type: 'review.save', values: { orderId: order?.id ?? 0, sender, kind, confirmed } })
  const titleId = `scan-${scan.id}`
  return (
    <CardBox $flag={!!scan.toCheck} aria-labelledby={titleId}>
      <h3 id={titleId}>{scan.fileName}</h3>
      <p>
        <Muted>
          {scan.pages} page{scan.pages > 1 ? 's' : ''}, déposé le {formatDateTime(scan.uploadedAt)} par {scan.uploadedBy.name}
        </Muted>
      </p>
      <p>
        {scan.toCheck && <Badge $kind="danger">À vérifier</Badge>} {scan.confirmed && !changed && <Badge $kind="ok">Confirmé</Badge>}{' '}
        {reading && <Badge $kind="info">Lecture en cours…</Badge>}
        {scan.reading === 'échouée' && <Badge $kind="danger">Lecture impossible</Badge>}
      </p>
      {scan.toCheck && <p>{scan.toCheck}</p>}
      <FirstPage scan={scan} />
      {scan.suggestion && (
        <p>
          <strong>Suggestion :</strong> {scan.suggestion.raisonSociale ?? 'aucune domiciliation'}
          {scan.suggestion.confidence ? ` (${scan.suggestion.confidence})` : ''} — {scan.suggestion.reason}
          {scan.suggestedSender && (
            <>
              <br />
              <strong>Expéditeur suggéré :</strong> {scan.suggestedSender}
            </>
          )}
        </p>
      )}
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
      <OrderPicker label="Domiciliation" value={order} onChange={setOrder} error={problems.orderId} disabled={busy || reading} />
      <TextField
        id={`${titleId}-sender`}
        label="Expéditeur"
        value={sender}
        onChange={setSender}
        error={problems.sender}
        maxLength={200}
        disabled={busy || reading}
      />
      <Field id={`${titleId}-kind`} label="Nature">
        <select id={`${titleId}-kind`} value={kind} disabled={busy || reading} onChange={(e) => setKind(e.target.value as DocumentKind)}>
          {Object.entries(KIND_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <Actions>
        <BusyButton type="button" busy={state === 'saving'} disabled={busy || reading} onClick={() => save(true)}>
          {scan.confirmed && changed ? 'Confirmer les changements' : 'Confirmer'}
        </BusyButton>
        <BusyButton
          type="button"
          $variant="secondary"
          busy={state === 'publishing'}
          disabled={busy || !scan.confirmed || !!scan.toCheck || changed}
          onClick={() => review.send({ type: 'review.publish' })}
          aria-label={`Publier ${scan.fileName}`}
        >
          Publier
        </BusyButton>
        {state === 'confirmingDelete' || state === 'deleting' ? (
          <>
            <span>Supprimer ce scan ?</span>
            <BusyButton
              type="button"
              $variant="danger"
              busy={state === 'deleting'}
              onClick={() => review.send({ type: 'review.confirmDelete' })}
            >
              Oui, supprimer
            </BusyButton>
            <Button type="button" $variant="ghost" disabled={busy} onClick={() => review.send({ type: 'review.cancel' })}>
              Annuler
            </Button>
          </>
        ) : (
          <Button
            type="button"
            $variant="ghost"
            disabled={busy}
            onClick={() => review.send({ type: 'review.delete' })}
            aria-label={`Supprimer ${scan.fileName}`}
          >
            Supprimer
          </Button>
        )}
      </Actions>
    </CardBox>
  )
}
