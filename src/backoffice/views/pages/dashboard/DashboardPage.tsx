// /operateur, the dashboard: for each queue the operator works through, how many items wait and the age of the oldest,
// in red past its target; each leads to its page. Then the operator's pages, as in the menu.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { Link } from 'wouter'
import { BACK_OFFICE_PATH } from '../../../../../server/contract/rules/backoffice.ts'
import type { Queue } from '../../../machines/dashboard/queues.machine.ts'
import { Button, ErrorState, Spinner } from '../../../../views/components/ui.tsx'
import { color, radius, shadow } from '../../../../views/theme.ts'
import { useBackOffice } from '../../context.tsx'
import type { PageProps } from '../page.ts'

const Grid = styled('ul')`
  list-style: none;
  margin: 0 0 2rem;
  padding: 0;
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr));
  gap: 1rem;
`

const Tile = styled('li')<{ $late: boolean }>`
  background: ${color.surface};
  border-radius: ${radius};
  box-shadow: ${shadow};
  border-left: 6px solid ${(p) => (p.$late ? color.danger : color.primary)};
  a { display: block; padding: 1rem 1.25rem; color: ${color.text}; text-decoration: none; }
  strong { display: block; font-size: 2rem; line-height: 1.1; }
  span { display: block; }
  small { display: block; color: ${(p) => (p.$late ? color.danger : color.muted)}; font-weight: ${(p) => (p.$late ? 700 : 400)}; }
  small + small { color: ${color.muted}; font-weight: 400; }
`

/** « 3 j 4 h », « 5 h », « 12 min »: how long the oldest item has waited. */
export function ageText(minutes: number): string {
  if (minutes < 60) return `${Math.max(0, Math.round(minutes))} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${hours} h`
  const rest = hours % 24
  return `${Math.floor(hours / 24)} j${rest ? ` ${rest} h` : ''}`
}

function QueueTile({ queue }: { queue: Queue }) {
  const age =
    queue.count === 0 || queue.oldestAgeMinutes === null
      ? 'Rien en attente'
      : `Le plus ancien attend depuis ${ageText(queue.oldestAgeMinutes)}${queue.late ? ' : en retard' : ''}`
  return (
    <Tile $late={queue.late && queue.count > 0}>
      <Link href={queue.path}>
        <strong>{queue.count}</strong>
        <span>{queue.label}</span>
        <small>{age}</small>
        {queue.target && <small>Objectif : {queue.target}</small>}
      </Link>
    </Tile>
  )
}

function Queues() {
  const queues = useActorRef(useBackOffice().flows.queues)
  const list = useSelector(queues, (s) => s.context.queues)
  const error = useSelector(queues, (s) => s.context.error)
  const failed = useSelector(queues, (s) => s.matches('failed'))
  return (
    <section aria-labelledby="files">
      <h2 id="files">Files d’attente</h2>
      {failed && !list && <ErrorState message={error!} onRetry={() => queues.send({ type: 'queues.retry' })} />}
      {failed && list && (
        <p role="status">
          Les chiffres n’ont pas pu être mis à jour : ils peuvent être anciens.{' '}
          <Button type="button" $variant="ghost" onClick={() => queues.send({ type: 'queues.retry' })}>
            Réessayer
          </Button>
        </p>
      )}
      {!list && !failed && <Spinner label="Chargement des files d’attente…" />}
      {list && list.length === 0 && <p>Aucune file d’attente pour vos rôles.</p>}
      {list && list.length > 0 && (
        <Grid>
          {list.map((queue) => (
            <QueueTile key={queue.id} queue={queue} />
          ))}
        </Grid>
      )}
    </section>
  )
}

export default function DashboardPage({ operator, menu }: PageProps) {
  const pages = menu.filter((page) => page.to !== BACK_OFFICE_PATH)
  return (
    <>
      <p>Bonjour {operator.name.split(' ')[0]}.</p>
      <Queues />
      {pages.length > 0 && (
        <section aria-labelledby="espaces">
          <h2 id="espaces">Vos espaces</h2>
          <ul>
            {pages.map((page) => (
              <li key={page.to}>
                <Link href={page.to}>{page.label}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  )
}
