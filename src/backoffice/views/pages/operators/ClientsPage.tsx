// /operateur/clients: the search (company, SIREN, e-mail, person, order number) with what matched, 20 a page, and an
// order's page at /operateur/clients/:id. The search's flow lives as long as this page: back from an order, the same
// results. « Nouveau client » for administrators only.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { type FormEvent, lazy, Suspense, useState } from 'react'
import { Link, useLocation } from 'wouter'
import type { ClientMatchField, ClientSearchResult } from '../../../../../server/contract/operators.ts'
import { Button, CodeLoading, ErrorState, Spinner, TextField } from '../../../../views/components/ui.tsx'
import { useBackOffice } from '../../context.tsx'
import type { PageProps } from '../page.ts'
import { ButtonLink, Inline, Muted, Panel, TableBox } from './admin.styles.ts'
import { Pager } from './Pager.tsx'
import { CLIENTS_PATH, clientOrderPath, NEW_CLIENT_PATH } from './paths.ts'

const ClientOrderPage = lazy(() => import('./ClientOrderPage.tsx'))

/** What the search found, in words. */
export const MATCH_LABELS: Record<ClientMatchField, string> = {
  orderNumber: 'N° de commande',
  siren: 'SIREN',
  raisonSociale: 'Raison sociale',
  ownerName: 'Titulaire',
  ownerEmail: 'E-mail du titulaire',
  collaboratorName: 'Collaborateur',
  collaboratorEmail: 'E-mail d’un collaborateur',
  representativeName: 'Représentant',
  representativeEmail: 'E-mail d’un représentant',
}

const SearchForm = styled('form')`
  > div { align-items: flex-end; }
  > div > div:first-child { flex: 1 1 20rem; }
`

function Matches({ result }: { result: ClientSearchResult }) {
  if (result.matches.length === 0) return <Muted>—</Muted>
  return (
    <ul style={{ margin: 0, paddingLeft: '1rem' }}>
      {result.matches.map((m) => (
        <li key={`${m.field}:${m.value}`}>
          {MATCH_LABELS[m.field]} : <mark>{m.value}</mark>
        </li>
      ))}
    </ul>
  )
}

function Search({ search, admin }: { search: ReturnType<typeof useClientSearch>; admin: boolean }) {
  const result = useSelector(search, (s) => s.context.result)
  const query = useSelector(search, (s) => s.context.query)
  const page = useSelector(search, (s) => s.context.page)
  const loading = useSelector(search, (s) => s.hasTag('loading'))
  const failed = useSelector(search, (s) => s.matches('failed'))
  const error = useSelector(search, (s) => s.context.error)
  const [typed, setTyped] = useState(query)

  function submit(event: FormEvent) {
    event.preventDefault()
    search.send({ type: 'search.submit', query: typed })
  }
  const pages = result ? Math.max(1, Math.ceil(result.total / result.pageSize)) : 1
  return (
    <>
      <Panel aria-labelledby="recherche">
        <h2 id="recherche">Rechercher un client</h2>
        <SearchForm role="search" onSubmit={submit} noValidate>
          <Inline>
            <TextField
              id="client-search"
              label="Société, SIREN, e-mail, personne ou n° de commande"
              type="search"
              value={typed}
              onChange={setTyped}
              maxLength={100}
            />
            <Button type="submit">Rechercher</Button>
            {admin && (
              <ButtonLink>
                <Link href={NEW_CLIENT_PATH}>Nouveau client</Link>
              </ButtonLink>
            )}
          </Inline>
        </SearchForm>
      </Panel>
      <Panel aria-labelledby="resultats">
        <h2 id="resultats">{query ? `Résultats pour « ${query} »` : 'Derniers clients'}</h2>
        {failed && <ErrorState message={error!} onRetry={() => search.send({ type: 'search.retry' })} />}
        {loading && !result && <Spinner label="Recherche des clients…" />}
        {result && !failed && (
          <div aria-busy={loading}>
            <p role="status">
              {result.total === 0
                ? query
                  ? `Aucun client ne correspond à « ${query} ».`
                  : 'Aucun client pour l’instant.'
                : `${result.total} client${result.total > 1 ? 's' : ''}, page ${result.page} sur ${pages}.`}
            </p>
            {result.results.length > 0 && (
              <TableBox>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Société</th>
                      <th scope="col">N°</th>
                      <th scope="col">SIREN</th>
                      <th scope="col">Titulaire</th>
                      <th scope="col">Statut</th>
                      <th scope="col">Trouvé par</th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.results.map((r) => (
                      <tr key={r.orderId}>
                        <td>
                          <Link href={clientOrderPath(r.orderId)}>{r.raisonSociale}</Link>
                          {r.legalForm && <Muted> ({r.legalForm})</Muted>}
                        </td>
                        <td>{r.orderId}</td>
                        <td>{r.siren ?? '—'}</td>
                        <td>
                          {r.owner.name}
                          <br />
                          <Muted>{r.owner.email}</Muted>
                        </td>
                        <td>{r.status}</td>
                        <td>
                          <Matches result={r} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableBox>
            )}
            <Pager
              label="Pages de résultats"
              page={page}
              pages={pages}
              loading={loading}
              go={(to) => search.send({ type: 'search.page', page: to })}
            />
          </div>
        )}
      </Panel>
    </>
  )
}

const useClientSearch = () => useActorRef(useBackOffice().flows.clientSearch, { input: {} })

export default function ClientsPage({ operator }: PageProps) {
  const search = useClientSearch()
  const [path] = useLocation()
  const orderId = /^\/(\d{1,10})\/?$/.exec(path.slice(CLIENTS_PATH.length))?.[1]
  const below = path.length > CLIENTS_PATH.length + 1
  if (orderId)
    return (
      <Suspense fallback={<CodeLoading />}>
        <p>
          <Link href={CLIENTS_PATH}>← Retour à la recherche</Link>
        </p>
        <ClientOrderPage key={orderId} orderId={Number(orderId)} />
      </Suspense>
    )
  if (below) return <p>Cette adresse ne correspond à aucun client : le numéro de commande est fait de chiffres.</p>
  return <Search search={search} admin={operator.roles.includes('admin')} />
}
