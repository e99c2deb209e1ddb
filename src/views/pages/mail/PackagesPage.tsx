// /mes-courriers/colis: the packages of the selected order (owner or share variant, see effects.ts):
// arrival date, carrier, sender, status, and who collected it at the desk (« Retiré le … par … »).
import { Link } from 'wouter'
import type { Package } from '../../../../server/contract/mail.ts'
import { formatDate } from '../../components/ui.tsx'
import type { PageProps } from '../page.ts'
import {
  Badge,
  companyOf,
  isShown,
  ListState,
  Muted,
  PageCard,
  Row,
  Rows,
  Toolbar,
  usePortal,
  useResource,
  useSelectedOrder,
} from '../../components/page.tsx'

const tone = { 'À retirer': 'warning', Réexpédié: 'neutral', Retiré: 'success' } as const satisfies Record<Package['status'], string>

export default function PackagesPage(_: PageProps) {
  const { startup, data } = usePortal()
  const order = useSelectedOrder(startup)
  const { items, status, error } = useResource(data, 'packages')
  const packages = items ?? []
  const waiting = packages.filter((p) => p.status === 'À retirer').length
  return (
    <PageCard aria-labelledby="packages-title">
      <Toolbar>
        {/* Focused once the list is back after 'Réessayer' (ListState); never by Tab. */}
        <h2 id="packages-title" tabIndex={-1}>
          Mes colis
        </h2>
        {/* people: the representatives who may collect the packages */}
        {!order?.isShareOrder && <Link href="/mes-representants">Qui peut retirer mes colis ?</Link>}
      </Toolbar>
      {isShown(status) && packages.length > 0 && <Muted>{waiting > 0 ? `${waiting} colis à retirer` : 'Aucun colis à retirer'}</Muted>}
      <ListState
        status={status}
        error={error}
        label="vos colis"
        empty="Aucun colis pour le moment"
        isEmpty={packages.length === 0}
        onRetry={() => startup.send({ type: 'data.retry', resource: 'packages' })}
      >
        <Rows aria-label="Colis">
          {packages.map((p) => (
            <Row key={p.id}>
              <div>
                <strong>{p.carrier}</strong> <Muted>de {p.sender}</Muted>
                <div>
                  <Muted>
                    Arrivé le <time dateTime={p.receivedAt}>{formatDate(p.receivedAt)}</time>
                  </Muted>{' '}
                  {companyOf(!order, p.raisonSociale)}
                </div>
                {p.collectedAt && p.collectedBy && (
                  <div>
                    <Muted>
                      Retiré le <time dateTime={p.collectedAt}>{formatDate(p.collectedAt)}</time> par {p.collectedBy}
                    </Muted>
                  </div>
                )}
              </div>
              <Badge $tone={tone[p.status]}>{p.status}</Badge>
            </Row>
          ))}
        </Rows>
      </ListState>
    </PageCard>
  )
}
