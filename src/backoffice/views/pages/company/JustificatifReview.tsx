// One justificatif opened: its order's company name, SIREN and number beside the file; « Valider », or « Refuser » with
// a reason (« Autre » with its words, which the customer reads); replaced by the customer meanwhile, the new file is
// shown with a warning (justificatifReview machine).
import { useSelector } from '@xstate/react'
import { type FormEvent, useState } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { Justificatif } from '../../../../../server/contract/company-backoffice.ts'
import { REFUSAL_REASONS, type RefusalReason, refusalReasonLabels } from '../../../../../server/contract/rules/justificatifs.ts'
import type { justificatifReviewMachine } from '../../../machines/company/justificatifReview.machine.ts'
import { REVIEW_MESSAGES } from '../../../machines/company/justificatifReview.machine.ts'
import { Alert, BusyButton, Button, Field } from '../../../../views/components/ui.tsx'
import { formatDateTime, Muted } from '../operators/admin.styles.ts'
import { Actions } from '../mail/mail.styles.ts'
import { JustificatifFile } from './JustificatifFile.tsx'

type Review = ActorRefFrom<typeof justificatifReviewMachine>

function RefusalForm({ review }: { review: Review }) {
  const problems = useSelector(review, (s) => s.context.problems)
  const busy = useSelector(review, (s) => s.hasTag('busy'))
  const [reason, setReason] = useState<RefusalReason | ''>('')
  const [detail, setDetail] = useState('')
  function submit(event: FormEvent) {
    event.preventDefault()
    review.send({ type: 'refusal.send', refusal: { reason, detail } })
  }
  return (
    <form onSubmit={submit} noValidate aria-busy={busy} aria-label="Refus du justificatif">
      <fieldset aria-describedby={problems.reason ? 'refusal-reason-error' : undefined}>
        <legend>Motif du refus (le client le lira)</legend>
        {REFUSAL_REASONS.map((r) => (
          <label key={r} style={{ display: 'block', margin: '0.35rem 0' }}>
            <input type="radio" name="refusal-reason" value={r} checked={reason === r} onChange={() => setReason(r)} />{' '}
            {refusalReasonLabels[r]}
          </label>
        ))}
        {problems.reason && (
          <p id="refusal-reason-error" role="alert">
            {problems.reason}
          </p>
        )}
      </fieldset>
      {reason === 'autre' && (
        <Field id="refusal-detail" label="Précisez le motif" error={problems.detail}>
          <textarea
            id="refusal-detail"
            value={detail}
            rows={3}
            maxLength={500}
            aria-invalid={!!problems.detail}
            aria-describedby={problems.detail ? 'refusal-detail-error' : undefined}
            onChange={(e) => setDetail(e.target.value)}
          />
        </Field>
      )}
      <Actions>
        <BusyButton type="submit" $variant="danger" busy={busy}>
          Confirmer le refus
        </BusyButton>
        <Button type="button" $variant="ghost" disabled={busy} onClick={() => review.send({ type: 'refusal.cancel' })}>
          Annuler
        </Button>
      </Actions>
    </form>
  )
}

export function JustificatifReview({ review, document }: { review: Review; document: Justificatif }) {
  const state = useSelector(review, (s) => s.value as string)
  const busy = useSelector(review, (s) => s.hasTag('busy'))
  const replaced = useSelector(review, (s) => s.context.replaced)
  const sendError = useSelector(review, (s) => s.context.sendError)
  return (
    <section aria-labelledby="justificatif-ouvert" style={{ display: 'grid', gap: '1rem', gridTemplateColumns: 'minmax(16rem, 1fr) 2fr' }}>
      <div>
        <h2 id="justificatif-ouvert">
          {document.label} : {document.raisonSociale}
        </h2>
        <dl>
          <dt>Société</dt>
          <dd>
            {document.raisonSociale} <Muted>(n° {document.orderId})</Muted>
          </dd>
          <dt>SIREN</dt>
          <dd>{document.siren ?? 'non renseigné'}</dd>
          <dt>Fichier</dt>
          <dd>{document.fileName}</dd>
          <dt>Déposé le</dt>
          <dd>{formatDateTime(document.filedAt)}</dd>
        </dl>
        {replaced && (
          <Alert $kind="info" role="alert">
            {REVIEW_MESSAGES.replaced}
          </Alert>
        )}
        {sendError && (
          <Alert $kind="error" role="alert">
            {sendError}
          </Alert>
        )}
        {state === 'refusing' ? (
          <RefusalForm review={review} />
        ) : (
          <Actions>
            <BusyButton
              type="button"
              busy={busy && state === 'deciding'}
              disabled={busy}
              onClick={() => review.send({ type: 'document.validate' })}
            >
              Valider
            </BusyButton>
            <Button type="button" $variant="danger" disabled={busy} onClick={() => review.send({ type: 'refusal.start' })}>
              Refuser
            </Button>
          </Actions>
        )}
        <Actions>
          <Button type="button" $variant="ghost" disabled={busy} onClick={() => review.send({ type: 'document.close' })}>
            ← Retour à la liste
          </Button>
        </Actions>
      </div>
      <JustificatifFile document={document} />
    </section>
  )
}
