// An order's timeline on its page: 50 entries a page, newest first, each with who did it (clientOrder machine).
import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import type { clientOrderMachine } from '../../../machines/operators/clientOrder.machine.ts'
import { Button, ErrorState, Spinner } from '../../../../views/components/ui.tsx'
import { formatDateTime, Inline, Muted, Panel, TableBox } from './admin.styles.ts'

export function TimelineSection({ page: order }: { page: ActorRefFrom<typeof clientOrderMachine> }) {
  const timeline = useSelector(order, (s) => s.context.timeline)
  const loading = useSelector(order, (s) => s.hasTag('timelineLoading'))
  const failed = useSelector(order, (s) => s.matches({ timeline: 'failed' }))
  const error = useSelector(order, (s) => s.context.timelineError)
  const page = useSelector(order, (s) => s.context.page)
  const pages = timeline ? Math.max(1, Math.ceil(timeline.total / timeline.pageSize)) : 1
  return (
    <Panel aria-labelledby="historique">
      <h2 id="historique">Historique</h2>
      {failed && <ErrorState message={error!} onRetry={() => order.send({ type: 'timeline.retry' })} />}
      {loading && !timeline && <Spinner label="Chargement de l’historique…" />}
      {timeline && !failed && (
        <div aria-busy={loading}>
          <p role="status">
            {timeline.total === 0
              ? 'Rien n’est encore arrivé à cette domiciliation.'
              : `${timeline.total} événement${timeline.total > 1 ? 's' : ''}, page ${timeline.page} sur ${pages}.`}
          </p>
          {timeline.entries.length > 0 && (
            <TableBox>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Événement</th>
                    <th scope="col">Par</th>
                  </tr>
                </thead>
                <tbody>
                  {timeline.entries.map((entry, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id, and a page's rows are replaced whole
                    <tr key={`${entry.at}-${entry.kind}-${i}`}>
                      <td>{formatDateTime(entry.at)}</td>
                      <td>
                        {entry.label}
                        {entry.detail && (
                          <>
                            <br />
                            <Muted>{entry.detail}</Muted>
                          </>
                        )}
                      </td>
                      <td>{entry.by ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableBox>
          )}
          {pages > 1 && (
            <nav aria-label="Pages de l’historique">
              <Inline>
                <Button
                  type="button"
                  $variant="secondary"
                  disabled={page <= 1 || loading}
                  onClick={() => order.send({ type: 'timeline.page', page: page - 1 })}
                >
                  Événements plus récents
                </Button>
                <Button
                  type="button"
                  $variant="secondary"
                  disabled={page >= pages || loading}
                  onClick={() => order.send({ type: 'timeline.page', page: page + 1 })}
                >
                  Événements plus anciens
                </Button>
              </Inline>
            </nav>
          )}
        </div>
      )}
    </Panel>
  )
}
