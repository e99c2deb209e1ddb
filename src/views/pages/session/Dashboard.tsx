// /tableau-de-bord: the greeting; the unpaid-invoice banner with 'Régler'; unread letters (count and
// the five latest), packages waiting, pending forwarding requests, the next deadlines found in the
// letters, for the selected order.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { type ReactNode, useEffect, useRef } from 'react'
import { Link } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import { unreadCount } from '../../../machines/session/portalData.machine.ts'
import { type Flows, useFlows } from '../../app-context.tsx'
import { Alert, BusyButton, Card, ErrorState, formatDate, formatEuros, Spinner, touchLink } from '../../components/ui.tsx'
import type { PageProps } from '../page.ts'
import { color, mq } from '../../theme.ts'
import { ListState, Muted, Rows, useNews, usePortal, useResource, useSelectedOrder } from '../../components/page.tsx'
import { courierRequestKind, letters } from '../../components/labels.ts'
import { NextLetterDeadlines } from './NextLetterDeadlines.tsx'
import { focusLost, PAGE_CONTENT_ID } from '../../components/useFocusWhenShown.ts'
import { letterPath } from '../../../../server/contract/rules/mail.ts'

const Grid = styled('div')`
  display: grid;
  gap: 1rem;
  ${mq.desktop} { grid-template-columns: repeat(3, 1fr); }
  h3 { margin: 0 0 0.5rem; font-size: 1.1rem; }
  .count { font-size: 2rem; font-weight: 700; color: ${color.primary}; margin: 0; }
  li { padding: 0.35rem 0; border-bottom: 1px solid ${color.border}; }
`

const Stack = styled('div')`
  display: flex;
  flex-direction: column;
  gap: 1rem;
`

const Banner = styled('div')`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.75rem;
  p { margin: 0; }
`

export default function Dashboard(_: PageProps) {
  const { startup, data } = usePortal()
  const firstname = useSelector(startup, (s) => s.context.user?.firstname ?? '')
  const order = useSelectedOrder(startup)
  const documents = useResource(data, 'documents')
  const packages = useResource(data, 'packages')
  const requests = useResource(data, 'courierRequests')
  const docs = documents.items ?? []
  const unread = unreadCount(docs)
  const waiting = (packages.items ?? []).filter((p) => p.status === 'À retirer')
  const pending = (requests.items ?? []).filter((r) => r.status === 'en attente')
  const retry = (resource: 'documents' | 'packages' | 'courierRequests') => () => startup.send({ type: 'data.retry', resource })

  return (
    <Stack>
      <Card aria-labelledby="greeting">
        <h2 id="greeting">Bonjour {firstname}</h2>
        <Muted>{order ? `Domiciliation : ${order.raisonSociale}` : 'Toutes vos domiciliations'}</Muted>
      </Card>
      <Summary key={order?.id ?? 'all'} listsLoaded={[documents, packages, requests].every((r) => r.status !== 'loading')}>
        <Grid>
          <Card aria-labelledby="unread-title">
            <h3 id="unread-title">Courriers non lus</h3>
            <ListState
              status={documents.status}
              error={documents.error}
              label="vos courriers"
              empty="Aucun courrier pour le moment"
              isEmpty={docs.length === 0}
              onRetry={retry('documents')}
            >
              <p className="count">{unread}</p>
              <Muted>{unread === 0 ? 'Tout est lu.' : `${letters(unread)} à lire`}</Muted>
              <h4>Derniers courriers</h4>
              <Rows aria-label="Derniers courriers">
                {docs.slice(0, 5).map((d) => (
                  <li key={d.id}>
                    <Link className={touchLink()} href={letterPath(d.orderId, d.id)}>
                      {d.read ? d.sender : <strong>{d.sender}</strong>}
                    </Link>
                    <div>
                      <Muted>
                        reçu le {formatDate(d.receivedAt)}
                        {d.read ? '' : ' · non lu'}
                      </Muted>
                    </div>
                  </li>
                ))}
              </Rows>
              <p>
                <Link className={touchLink()} href="/mes-courriers/courriers">
                  Tous mes courriers
                </Link>
              </p>
            </ListState>
          </Card>
          <Card aria-labelledby="packages-title">
            <h3 id="packages-title">Colis à retirer</h3>
            <ListState
              status={packages.status}
              error={packages.error}
              label="vos colis"
              empty="Aucun colis en attente"
              isEmpty={waiting.length === 0}
              onRetry={retry('packages')}
            >
              <p className="count">{waiting.length}</p>
              <Rows aria-label="Colis à retirer">
                {waiting.slice(0, 5).map((p) => (
                  <li key={p.id}>
                    {p.carrier}{' '}
                    <Muted>
                      de {p.sender}, arrivé le {formatDate(p.receivedAt)}
                    </Muted>
                  </li>
                ))}
              </Rows>
            </ListState>
            <p>
              <Link className={touchLink()} href="/mes-courriers/colis">
                Tous mes colis
              </Link>
            </p>
          </Card>
          <Card aria-labelledby="requests-title">
            <h3 id="requests-title">Réexpéditions en attente</h3>
            <ListState
              status={requests.status}
              error={requests.error}
              label="vos demandes"
              empty="Aucune demande en attente"
              isEmpty={pending.length === 0}
              onRetry={retry('courierRequests')}
            >
              <p className="count">{pending.length}</p>
              <Rows aria-label="Demandes en attente">
                {pending.slice(0, 5).map((r) => (
                  <li key={r.id}>
                    {courierRequestKind[r.kind]}{' '}
                    <Muted>
                      du {formatDate(r.createdAt)}, {letters(r.letterCount)}
                    </Muted>
                  </li>
                ))}
              </Rows>
            </ListState>
            <p>
              <Link className={touchLink()} href="/mes-courriers/reexpeditions">
                Toutes mes demandes
              </Link>
            </p>
          </Card>
          <NextLetterDeadlines key={order?.id ?? 'all'} orderId={order?.id ?? null} />
        </Grid>
      </Summary>
    </Stack>
  )
}

/**
 * The unpaid banner and the three lists appear together, once the lists and the unpaid check have
 * answered the first time (a spinner meanwhile): the greeting shows at once, and nothing below it
 * jumps when an answer comes in. Later loads (a retry, after a payment) keep what is shown.
 */
function Summary({ listsLoaded, children }: { listsLoaded: boolean; children: ReactNode }) {
  const flows = useFlows('firstScreen')
  const unpaid = useActorRef(flows.unpaidInvoices)
  const checked = useSelector(unpaid, (s) => !s.matches('loading') || s.context.status !== null)
  // A new invoice (a live notification): the banner's status is asked again. Here, not in the banner: news during the
  // first check counts too.
  useNews('invoice', () => unpaid.send({ type: 'unpaid.refresh' }))
  const shown = useRef(false)
  if (listsLoaded && checked) shown.current = true
  if (!shown.current) return <Spinner label="Chargement : vos courriers, colis, demandes et factures…" />
  return (
    <>
      <UnpaidBanner actor={unpaid} />
      {children}
    </>
  )
}

/** Shown when user-unpaid-status says so; 'Régler' pays with the card on file. */
function UnpaidBanner({ actor }: { actor: ActorRefFrom<Flows<'firstScreen'>['unpaidInvoices']> }) {
  const shown = useSelector(actor, (s) => s.hasTag('banner'))
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const status = useSelector(actor, (s) => s.context.status)
  const error = useSelector(actor, (s) => s.context.error)
  const noCard = useSelector(actor, (s) => s.context.noCard)
  const failed = useSelector(actor, (s) => s.matches('failed'))
  // Paid, the banner goes with 'Régler': the focus goes to the page's content rather than to <body>.
  const wasShown = useRef(shown)
  useEffect(() => {
    if (wasShown.current && !shown && focusLost()) document.getElementById(PAGE_CONTENT_ID)?.focus()
    wasShown.current = shown
  }, [shown])
  // The status could not be read: said, with 'Réessayer', rather than no banner as if nothing were owed.
  if (failed)
    return (
      <ErrorState
        message={`L’état de vos factures n’a pas pu être vérifié. ${error ?? ''}`.trim()}
        onRetry={() => actor.send({ type: 'unpaid.retry' })}
      />
    )
  if (!shown || !status) return null
  return (
    <Alert $kind="error" role="region" aria-label="Factures impayées">
      <Banner>
        <p>
          {status.count > 1 ? `${status.count} factures sont impayées` : 'Une facture est impayée'} (
          {formatEuros(status.amountInclTaxCents)} TTC).
          {error ? ` ${error}` : ''}
          {noCard && (
            <>
              {' '}
              <Link href="/moyen-de-paiement">Enregistrer une carte</Link>.
            </>
          )}
        </p>
        <span>
          <Link href="/factures">Voir mes factures</Link>{' '}
          <BusyButton type="button" busy={busy} onClick={() => actor.send({ type: 'unpaid.pay' })}>
            {busy ? 'Paiement…' : 'Régler'}
          </BusyButton>
        </span>
      </Banner>
    </Alert>
  )
}
