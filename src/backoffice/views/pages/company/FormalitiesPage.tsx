// /operateur/formalites: every legal submission, those under way first; each moved on to its next step with one button
// (Reçue → En cours → Déposée au greffe → Terminée), dated, the customer told (formalities machine).
import { useActorRef, useSelector } from '@xstate/react'
import { legalFormalityLabels, nextLegalSubmissionStep } from '../../../../../server/contract/rules/formalities.ts'
import { Alert, BusyButton, ErrorState, formatDate, Spinner } from '../../../../views/components/ui.tsx'
import { useBackOffice } from '../../context.tsx'
import { Muted, Panel } from '../operators/admin.styles.ts'
import { Actions, Badge, CardBox, Cards } from '../mail/mail.styles.ts'
import { formalitiesMachine } from '../../../machines/company/formalities.machine.ts'

export default function FormalitiesPage() {
  const formalities = useActorRef(useBackOffice().flows.formalities(formalitiesMachine))
  const submissions = useSelector(formalities, (s) => s.context.submissions)
  const failed = useSelector(formalities, (s) => s.matches('failed'))
  const error = useSelector(formalities, (s) => s.context.error)
  const moving = useSelector(formalities, (s) => s.context.moving)
  const moveError = useSelector(formalities, (s) => s.context.moveError)
  const busy = useSelector(formalities, (s) => s.hasTag('busy'))
  return (
    <Panel aria-labelledby="formalites">
      <h2 id="formalites">Formalités juridiques</h2>
      {failed && <ErrorState message={error!} onRetry={() => formalities.send({ type: 'list.retry' })} />}
      {!submissions && !failed && <Spinner label="Chargement des formalités…" />}
      {submissions && (
        <p role="status">
          {submissions.length === 0
            ? 'Aucune formalité demandée.'
            : `${submissions.filter((s) => s.status !== 'Terminée').length} en cours, la plus ancienne en premier ; puis les terminées.`}
        </p>
      )}
      {submissions && submissions.length > 0 && (
        <Cards>
          {submissions.map((s) => {
            const next = nextLegalSubmissionStep(s.status)
            const steps = [
              ['Reçue', s.receivedAt],
              ['En cours', s.startedAt],
              ['Déposée au greffe', s.filedAt],
              ['Terminée', s.completedAt],
            ] as const
            return (
              <CardBox key={s.id} aria-labelledby={`formalite-${s.id}`}>
                <h3 id={`formalite-${s.id}`}>
                  {legalFormalityLabels[s.kind]} : {s.raisonSociale} <Muted>(n° {s.orderId})</Muted>
                </h3>
                <p>
                  <Badge $kind={next ? 'info' : 'ok'}>{s.status}</Badge>
                </p>
                <ol aria-label="Étapes">
                  {steps.map(([step, at]) => (
                    <li key={step}>
                      {step} : {at ? `le ${formatDate(at)}` : <Muted>pas encore</Muted>}
                    </li>
                  ))}
                </ol>
                {s.comment && <p style={{ whiteSpace: 'pre-line' }}>Précisions du client : {s.comment}</p>}
                {moveError?.id === s.id && (
                  <Alert $kind="error" role="alert">
                    {moveError.message}
                  </Alert>
                )}
                {next && (
                  <Actions>
                    <BusyButton
                      type="button"
                      busy={moving?.id === s.id}
                      disabled={busy}
                      aria-label={`Passer à « ${next} » : ${legalFormalityLabels[s.kind]} de ${s.raisonSociale}`}
                      onClick={() => formalities.send({ type: 'formality.advance', id: s.id })}
                    >
                      Passer à « {next} »
                    </BusyButton>
                  </Actions>
                )}
              </CardBox>
            )
          })}
        </Cards>
      )}
    </Panel>
  )
}
