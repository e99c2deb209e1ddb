// /operateur/justificatifs: the Kbis and identity documents waiting for a check, oldest first, each with its order's
// company name and SIREN; one opened beside its file, then validated or refused (justificatifReview machine).
import { useActorRef, useSelector } from '@xstate/react'
import { Alert, Button, ErrorState, Spinner } from '../../../../views/components/ui.tsx'
import { useBackOffice } from '../../context.tsx'
import { formatDateTime, Muted, Panel } from '../operators/admin.styles.ts'
import { Actions, Badge, CardBox, Cards } from '../mail/mail.styles.ts'
import { JustificatifReview } from './JustificatifReview.tsx'
import { justificatifReviewMachine } from '../../../machines/company/justificatifReview.machine.ts'

const AGE_LIMIT_MS = 48 * 3_600_000

export default function JustificatifsPage() {
  const review = useActorRef(useBackOffice().flows.justificatifReview(justificatifReviewMachine))
  const documents = useSelector(review, (s) => s.context.documents)
  const failed = useSelector(review, (s) => s.matches('failed'))
  const error = useSelector(review, (s) => s.context.error)
  // A document is open from the review on (its `open` is cleared whenever the list is back); while it is being read, the list stays.
  const open = useSelector(review, (s) => (s.matches('opening') ? null : s.context.open))
  const opening = useSelector(review, (s) => s.matches('opening'))
  if (open) return <JustificatifReview review={review} document={open} />
  const now = Date.now()
  return (
    <Panel aria-labelledby="justificatifs">
      <h2 id="justificatifs">Justificatifs à vérifier</h2>
      {failed && <ErrorState message={error!} onRetry={() => review.send({ type: 'list.retry' })} />}
      {!documents && !failed && <Spinner label="Chargement des justificatifs…" />}
      {documents && error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
      {documents && (
        <p role="status">
          {documents.length === 0
            ? 'Aucun justificatif à vérifier.'
            : `${documents.length} justificatif${documents.length > 1 ? 's' : ''} à vérifier, le plus ancien en premier.`}
        </p>
      )}
      {documents && documents.length > 0 && (
        <Cards>
          {documents.map((d) => {
            const late = now - new Date(d.filedAt).getTime() > AGE_LIMIT_MS
            return (
              <CardBox key={`${d.kind}-${d.id}`} $flag={late} aria-labelledby={`justificatif-${d.kind}-${d.id}`}>
                <h3 id={`justificatif-${d.kind}-${d.id}`}>
                  {d.label} : {d.raisonSociale} <Muted>(n° {d.orderId})</Muted>
                </h3>
                <p>
                  SIREN {d.siren ?? 'non renseigné'} · déposé le {formatDateTime(d.filedAt)}{' '}
                  {late && <Badge $kind="danger">plus de 48 h</Badge>}
                </p>
                <Actions>
                  <Button
                    type="button"
                    disabled={opening}
                    aria-label={`Ouvrir : ${d.label} de ${d.raisonSociale}`}
                    onClick={() => review.send({ type: 'document.open', kind: d.kind, id: d.id })}
                  >
                    Ouvrir
                  </Button>
                </Actions>
              </CardBox>
            )
          })}
        </Cards>
      )}
    </Panel>
  )
}
