// /mes-courriers/courriers: the letters of the selected order (or of all with 'Tous'), the first
// selected by default, unread ones in bold; filters (unread, folder, a search: under three characters
// over sender and kind as you type, from three in the letters' text on the server, see
// letterSearch.machine.ts); arrow keys move through the list. The viewer shows the selected
// letter's scan in the page (beside the list on a desktop, instead of it on a phone): opening it
// marks it read. Download, send by e-mail, file in a folder. The deep link of the "Nouveau
// courrier" e-mail, ?domiciliation=<order>&courrier=<letter>, opens on that letter.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useSearch } from 'wouter'
import type { MailDocument } from '../../../../server/contract/mail.ts'
import { unreadCount } from '../../../machines/session/portalData.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { documentKind } from '../../components/labels.ts'
import {
  isShown,
  ListState,
  Muted,
  PageCard,
  Toolbar,
  useOrders,
  usePortal,
  useResource,
  useSelectedOrder,
} from '../../components/page.tsx'
import { useFocusAfter } from '../../components/useFocusWhenShown.ts'
import { useMediaQuery } from '../../components/useMediaQuery.ts'
import { color, DESKTOP_MIN_WIDTH, mq, radius } from '../../theme.ts'
import type { PageProps } from '../page.ts'
import { LetterList } from './LetterList.tsx'
import { LetterViewer } from './LetterViewer.tsx'
import { SearchResults } from './SearchResults.tsx'

const ALL = 'all'
const UNFILED = 'none'

const Layout = styled('div')`
  display: grid;
  gap: 1rem;
  ${mq.desktop} { grid-template-columns: minmax(18rem, 2fr) minmax(0, 3fr); align-items: start; }
  /* A grid item is as wide as its content by default: a long folder name (a select's option) or sender would widen
     the page. */
  > * { min-width: 0; }
`

const Filters = styled('div')`
  display: grid;
  gap: 0.5rem;
  ${mq.desktop} { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
  > * { min-width: 0; }
  input[type='search'], select {
    width: 100%;
    max-width: 100%;
    min-height: 44px;
    padding: 0.5rem 0.6rem;
    border: 1px solid ${color.border};
    border-radius: ${radius};
    background: ${color.surface};
  }
  label.check { display: flex; align-items: center; gap: 0.5rem; min-height: 44px; }
`

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()

function useLinkedLetter() {
  const search = useSearch()
  return useMemo(() => {
    const params = new URLSearchParams(search)
    const documentId = Number(params.get('courrier'))
    const orderId = Number(params.get('domiciliation'))
    const folder = params.get('dossier')
    return {
      documentId: Number.isInteger(documentId) && documentId > 0 ? documentId : null,
      orderId: Number.isInteger(orderId) && orderId > 0 ? orderId : null,
      folder: folder && /^\d+$/.test(folder) ? folder : null,
    }
  }, [search])
}

export default function LettersPage(_: PageProps) {
  const flows = useFlows('mail')
  const { startup, data } = usePortal()
  const order = useSelectedOrder(startup)
  const orders = useOrders(startup)
  const isDesktop = useMediaQuery(`(min-width: ${DESKTOP_MIN_WIDTH}px)`)
  const linked = useLinkedLetter()
  const { items, status, error } = useResource(data, 'documents')
  const folders = useResource(data, 'folders').items ?? []
  const selectedId = useSelector(data, (s) => s?.context.selectedDocumentId ?? null)
  const documents = items ?? []
  const selected = documents.find((d) => d.id === selectedId) ?? null

  const [unreadOnly, setUnreadOnly] = useState(false)
  // A folder chosen holds for the order it was chosen with, while it is listed: another order (whose folders are
  // others) starts again from 'Tous les dossiers' (set during render, as React adjusts state that follows a prop),
  // and a folder no longer listed filters nothing, so the select and the list always agree.
  const orderId = order?.id ?? null
  const [folderChoice, setFolderChoice] = useState({ orderId, value: linked.folder ?? ALL })
  if (folderChoice.orderId !== orderId) setFolderChoice({ orderId, value: ALL })
  const folderFilter = folderChoice.value === UNFILED || folders.some((f) => String(f.id) === folderChoice.value) ? folderChoice.value : ALL
  const [query, setQuery] = useState('')
  const mailbox = useActorRef(flows.mailbox)
  const search = useActorRef(flows.letterSearch, { input: { orderId: order?.id ?? null } })
  const remoteSearch = useSelector(search, (s) => s.hasTag('remote'))
  useEffect(() => search.send({ type: 'order.change', orderId: order?.id ?? null }), [search, order?.id])
  const viewerOpen = useSelector(mailbox, (s) => s.context.phoneViewer)

  // Under 'Non lus uniquement' the letter open stays listed while it is the one open (opening it marks it read):
  // the arrows go on from it, and the focus is never left on an option taken out from under it.
  const filtered = (d: MailDocument) =>
    (!unreadOnly || !d.read || d.id === selectedId) &&
    (folderFilter === ALL || (folderFilter === UNFILED ? d.folderId === null : d.folderId === Number(folderFilter)))
  // biome-ignore lint/correctness/useExhaustiveDependencies: `filtered` reads the two filters and the letter open, listed
  const visible = useMemo(() => {
    const words = fold(query.trim())
    return documents.filter((d) => filtered(d) && (remoteSearch || !words || fold(`${d.sender} ${documentKind[d.kind]}`).includes(words)))
  }, [documents, unreadOnly, folderFilter, query, remoteSearch, selectedId])

  // The mailbox decides what an order switch and the e-mail's link lead to; it is told what is shown.
  const orderIds = orders.map((o) => o.id).join()
  const documentIds = documents.map((d) => d.id).join()
  // A link first, then what is shown: a link followed on this page with its list already loaded (the
  // bell's notification) is matched at once instead of waiting for the list to change.
  useEffect(() => {
    if (linked.documentId) mailbox.send({ type: 'link.follow', link: { documentId: linked.documentId, orderId: linked.orderId } })
  }, [mailbox, linked.documentId, linked.orderId])
  // The lists' contents matter only through their ids; a link followed is told again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reason above
  useEffect(() => {
    mailbox.send({
      type: 'portal.seen',
      seen: { orderId: order?.id ?? null, orderIds: orders.map((o) => o.id), status, documentIds: documents.map((d) => d.id) },
    })
  }, [mailbox, order?.id, orderIds, status, documentIds, linked.documentId])

  // The letter shown is the letter opened (and so marked read).
  const showViewer = isDesktop || viewerOpen
  const latest = useRef(selected)
  latest.current = selected
  // The letter is read through a ref: only another letter, not a new object of the same, opens it again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reason above
  useEffect(() => {
    if (showViewer && latest.current) mailbox.send({ type: 'letter.open', document: latest.current })
  }, [showViewer, selected?.id, mailbox])

  const unread = unreadCount(documents)
  const folderName = (id: number | null) => folders.find((f) => f.id === id)?.name ?? null
  const select = (document: MailDocument) => startup.send({ type: 'document.select', documentId: document.id })

  // On a phone the viewer replaces the list, and the list the viewer: the control used goes with them. The letter
  // opened gives the focus to its heading; back, its entry in the list (or in the search's results) takes it.
  const viewerHeading = useRef<HTMLHeadingElement>(null)
  const listColumn = useRef<HTMLDivElement>(null)
  const afterOpen = useFocusAfter(viewerOpen, () => viewerHeading.current)
  const afterBack = useFocusAfter(
    !viewerOpen,
    () =>
      listColumn.current?.querySelector<HTMLElement>('[role="option"][aria-selected="true"], button[aria-current="true"]') ??
      document.getElementById('letters-title'),
  )
  const open = (document: MailDocument) => {
    if (!isDesktop) afterOpen()
    select(document)
    mailbox.send({ type: 'viewer.show' })
  }

  return (
    <PageCard aria-labelledby="letters-title">
      <Toolbar>
        {/* Focused once the list is back after 'Réessayer' (ListState); never by Tab. */}
        <h2 id="letters-title" tabIndex={-1}>
          Mes courriers
        </h2>
        {isShown(status) && (
          <Muted aria-live="polite">{unread === 0 ? 'Tous vos courriers sont lus' : `${unread} non lu${unread > 1 ? 's' : ''}`}</Muted>
        )}
      </Toolbar>
      <ListState
        status={status}
        error={error}
        label="vos courriers"
        empty="Aucun courrier pour le moment"
        isEmpty={documents.length === 0}
        onRetry={() => startup.send({ type: 'data.retry', resource: 'documents' })}
      >
        <Layout>
          {(isDesktop || !viewerOpen) && (
            <div ref={listColumn}>
              <Filters>
                {/* The server refuses a search over 200 characters. */}
                <input
                  type="search"
                  aria-label="Rechercher dans vos courriers (expéditeur, type, texte)"
                  placeholder="Rechercher un mot"
                  value={query}
                  maxLength={200}
                  onChange={(e) => {
                    setQuery(e.target.value)
                    search.send({ type: 'query.change', query: e.target.value })
                  }}
                />
                <select aria-label="Dossier" value={folderFilter} onChange={(e) => setFolderChoice({ orderId, value: e.target.value })}>
                  <option value={ALL}>Tous les dossiers</option>
                  <option value={UNFILED}>Sans dossier</option>
                  {folders.map((f) => (
                    <option key={f.id} value={f.id}>
                      {f.name}
                      {order ? '' : ` — ${orders.find((o) => o.id === f.domiciliationOrderId)?.raisonSociale ?? ''}`}
                    </option>
                  ))}
                </select>
                <label className="check">
                  <input type="checkbox" checked={unreadOnly} onChange={(e) => setUnreadOnly(e.target.checked)} /> Non lus uniquement
                </label>
              </Filters>
              {remoteSearch ? (
                <SearchResults
                  search={search}
                  documents={documents}
                  shown={(r) => filtered(r.document)}
                  selectedId={selectedId}
                  showCompany={!order}
                  onOpen={open}
                />
              ) : visible.length === 0 ? (
                <p role="status">Aucun courrier ne correspond à ces filtres.</p>
              ) : (
                <LetterList
                  letters={visible}
                  selectedId={selectedId}
                  showCompany={!order}
                  folderName={folderName}
                  onSelect={select}
                  onOpen={open}
                />
              )}
            </div>
          )}
          {showViewer &&
            (selected ? (
              <LetterViewer
                key={selected.id}
                letter={selected}
                mailbox={mailbox}
                folders={folders.filter((f) => f.domiciliationOrderId === selected.orderId)}
                candidates={visible}
                headingRef={viewerHeading}
                onBack={
                  isDesktop
                    ? null
                    : () => {
                        afterBack()
                        mailbox.send({ type: 'viewer.hide' })
                      }
                }
              />
            ) : (
              <p>Choisissez un courrier dans la liste pour l’afficher.</p>
            ))}
        </Layout>
      </ListState>
    </PageCard>
  )
}
