// /formalites: the legal formalities requested for the selected order (all of them with 'Tous'),
// their status ("Reçue", "En cours", "Déposée au greffe", "Terminée") and the date of each step.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { useRef } from 'react'
import { Link } from 'wouter'
import type { LegalSubmission, LegalSubmissionStatus } from '../../../../server/contract/company.ts'
import { useFlows } from '../../app-context.tsx'
import {
  Badge,
  companyOf,
  ListState,
  type ListStatus,
  Muted,
  PageCard,
  Row,
  Rows,
  Toolbar,
  useNews,
  usePortal,
  useSelectedOrder,
} from '../../components/page.tsx'
import { formatDate } from '../../components/ui.tsx'
import { useFocusOnArrival } from '../../components/useFocusWhenShown.ts'
import { color } from '../../theme.ts'
import type { PageProps } from '../page.ts'
import { formalityLabel, steps } from './catalogue.ts'

const tone: Record<LegalSubmissionStatus, 'neutral' | 'warning' | 'success'> = {
  Reçue: 'neutral',
  'En cours': 'warning',
  'Déposée au greffe': 'neutral',
  Terminée: 'success',
}

const Steps = styled('ol')`
  display: flex;
  flex-wrap: wrap;
  gap: 0.25rem 1rem;
  margin: 0.35rem 0 0;
  padding: 0;
  list-style: none;
  font-size: 0.9rem;
  color: ${color.muted};
  li[data-reached='true'] { color: ${color.text}; }
`

function Submission({ submission, showCompany }: { submission: LegalSubmission; showCompany: boolean }) {
  const label = formalityLabel(submission.kind)
  return (
    <Row aria-label={`${label} : ${submission.status}`}>
      <div>
        <strong>{label}</strong> {companyOf(showCompany, submission.raisonSociale)}
        <Steps aria-label="Étapes">
          {steps.map(({ status, date }) => {
            const at = submission[date]
            return (
              <li key={status} data-reached={at !== null}>
                {status} : {at ? <time dateTime={at}>{formatDate(at)}</time> : '—'}
              </li>
            )
          })}
        </Steps>
        {submission.comment && <Muted>Vos précisions : {submission.comment}</Muted>}
      </div>
      <Badge $tone={tone[submission.status]}>{submission.status}</Badge>
    </Row>
  )
}

export default function FormalitiesPage(_: PageProps) {
  const { startup } = usePortal()
  const order = useSelectedOrder(startup)
  // A new pick starts a new list: no stale answer of the previous company can show.
  return <FormalityList key={order?.id ?? 'all'} orderId={order?.id ?? null} showCompany={!order} />
}

function FormalityList({ orderId, showCompany }: { orderId: number | null; showCompany: boolean }) {
  const flows = useFlows('company')
  const actor = useActorRef(flows.legalSubmissionList, { input: { orderId } })
  const submissions = useSelector(actor, (s) => s.context.submissions)
  const status = useSelector(actor, (s) => s.value as ListStatus)
  const error = useSelector(actor, (s) => s.context.error)
  // An operator moved a request to its next step (a live notification): the list is read again.
  useNews('formality', () => actor.send({ type: 'list.refresh' }))
  // Reached after ordering a formality: the heading takes the focus (tabIndex -1, never by Tab).
  const heading = useRef<HTMLHeadingElement>(null)
  useFocusOnArrival(heading)
  return (
    <PageCard aria-labelledby="formalities-title">
      <Toolbar>
        <h2 id="formalities-title" ref={heading} tabIndex={-1}>
          Mes formalités
        </h2>
        <Link href="/formalites-juridique">Commander une formalité</Link>
      </Toolbar>
      <ListState
        status={status}
        error={error}
        label="vos formalités"
        isEmpty={false}
        empty=""
        onRetry={() => actor.send({ type: 'list.retry' })}
      >
        {submissions.length === 0 ? (
          <p>
            Aucune formalité demandée pour le moment. Création, transfert de siège, changement de dirigeant… :{' '}
            <Link href="/formalites-juridique">découvrez nos formalités juridiques</Link>.
          </p>
        ) : (
          <Rows aria-label="Formalités demandées">
            {submissions.map((s) => (
              <Submission key={s.id} submission={s} showCompany={showCompany} />
            ))}
          </Rows>
        )}
      </ListState>
    </PageCard>
  )
}
