// /mes-courriers/courriers: the letters of the selected order (or of all with 'Tous'), the first
// selected by default, unread ones in bold; filters (unread, folder, a search over sender and kind
// that answers as you type); arrow keys move through the list. The viewer shows the selected
// letter's scan in the page (beside the list on a desktop, instead of it on a phone): opening it
// marks it read. Download, send by e-mail, file in a folder. The deep link of the "Nouveau
// courrier" e-mail, ?domiciliation=<order>&courrier=<letter>, opens on that letter.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react'
import { useLocation, useSearch } from 'wouter'
import type { Folder, MailDocument } from '../../../../server/contract/schemas.ts'
import type { mailboxMachine } from '../../../machines/mailbox.machine.ts'
import { unreadCount } from '../../../machines/portalData.machine.ts'
import { useFlows, useServices } from '../../app-context.tsx'
import { Modal } from '../../components/Modal.tsx'
import { Alert, Button, ErrorState, Field, formatDate, Spinner, VisuallyHidden } from '../../components/ui.tsx'
import { useMediaQuery } from '../../layout/useMediaQuery.ts'
import type { PageProps } from '../../routes.ts'
import { color, DESKTOP_MIN_WIDTH, mq, radius } from '../../theme.ts'
import { documentKind, ListState, Muted, PageCard, Toolbar, useObjectUrl, useOrders, usePortal, useResource, useSelectedOrder } from './shared.tsx'
import type { ActorRefFrom } from 'xstate'

type MailboxRef = ActorRefFrom<typeof mailboxMachine>
const ALL = 'all'
const UNFILED = 'none'

const Layout = styled('div')`
  display: grid;
  gap: 1rem;
  ${mq.desktop} { grid-template-columns: minmax(18rem, 2fr) 3fr; align-items: start; }
`

const Filters = styled('div')`
  display: grid;
  gap: 0.5rem;
  ${mq.desktop} { grid-template-columns: 1fr 1fr; }
  input[type='search'], select { width: 100%; min-height: 44px; padding: 0.5rem 0.6rem; border: 1px solid ${color.border}; border-radius: ${radius}; background: ${color.surface}; }
  label.check { display: flex; align-items: center; gap: 0.5rem; min-height: 44px; }
`

const List = styled('ul')`
  list-style: none;
  margin: 0;
  padding: 0;
  border: 1px solid ${color.border};
  border-radius: ${radius};
  max-height: 70vh;
  overflow: auto;
  &:focus-visible { outline: 3px solid ${color.focus}; }
`

const Option = styled('li')<{ $selected: boolean }>`
  display: flex;
  flex-direction: column;
  gap: 0.15rem;
  padding: 0.7rem 0.9rem;
  border-bottom: 1px solid ${color.border};
  cursor: pointer;
  background: ${(p) => (p.$selected ? color.primarySoft : color.surface)};
  border-left: 4px solid ${(p) => (p.$selected ? color.primary : 'transparent')};
  &:last-child { border-bottom: none; }
  .line { display: flex; justify-content: space-between; gap: 0.5rem; }
  .sender { overflow-wrap: anywhere; }
  .dot { width: 0.6rem; height: 0.6rem; border-radius: 50%; background: ${color.primary}; flex-shrink: 0; margin-top: 0.45rem; }
`

const Viewer = styled('section')`
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  h3 { margin: 0; font-size: 1.15rem; overflow-wrap: anywhere; }
  iframe { width: 100%; height: 70vh; min-height: 420px; border: 1px solid ${color.border}; border-radius: ${radius}; background: #fff; }
  .actions { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
  .actions select { min-height: 44px; padding: 0.4rem 0.6rem; border: 1px solid ${color.border}; border-radius: ${radius}; }
`

const LinkButton = styled('a')`
  display: inline-flex;
  align-items: center;
  min-height: 44px;
  padding: 0.55rem 1.1rem;
  border-radius: ${radius};
  border: 1px solid ${color.border};
  background: ${color.surface};
  color: ${color.primary};
  font-weight: 600;
  text-decoration: none;
`

const Checks = styled('fieldset')`
  border: 1px solid ${color.border};
  border-radius: ${radius};
  max-height: 14rem;
  overflow: auto;
  margin: 0 0 1rem;
  label { display: flex; gap: 0.5rem; align-items: center; min-height: 36px; }
`

/** What the search box looks at: sender and kind, accents and case ignored. */
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
  const { notify } = useServices()
  const flows = useFlows()
  const { startup, data } = usePortal()
  const order = useSelectedOrder(startup)
  const orders = useOrders(startup)
  const isDesktop = useMediaQuery(`(min-width: ${DESKTOP_MIN_WIDTH}px)`)
  const [, navigate] = useLocation()
  const linked = useLinkedLetter()
  const { items, status, error } = useResource(data, 'documents')
  const folders = useResource(data, 'folders').items ?? []
  const selectedId = useSelector(data, (s) => s?.context.selectedDocumentId ?? null)
  const documents = items ?? []
  const selected = documents.find((d) => d.id === selectedId) ?? null

  const [unreadOnly, setUnreadOnly] = useState(false)
  const [folderFilter, setFolderFilter] = useState(linked.folder ?? ALL)
  const [query, setQuery] = useState('')
  const [viewerOpen, setViewerOpen] = useState(false)
  const [logic] = useState(() =>
    flows.mailbox.provide({
      actions: {
        notify: (_, notice) => notify(notice),
        documentChanged: (_, { document }) => startup.send({ type: 'document.changed', document }),
      },
    }),
  )
  const mailbox = useActorRef(logic)

  const visible = useMemo(() => {
    const words = fold(query.trim())
    return documents.filter((d) =>
      (!unreadOnly || !d.read)
      && (folderFilter === ALL || (folderFilter === UNFILED ? d.folderId === null : d.folderId === Number(folderFilter)))
      && (!words || fold(`${d.sender} ${documentKind[d.kind]}`).includes(words)))
  }, [documents, unreadOnly, folderFilter, query])

  // A new order: the answers still awaited for the old one are dropped; a phone goes back to the list.
  const orderKey = order?.id ?? null
  const firstOrder = useRef(orderKey)
  useEffect(() => {
    if (firstOrder.current === orderKey) return
    firstOrder.current = orderKey
    mailbox.send({ type: 'order.switched' })
    setViewerOpen(false)
  }, [orderKey, mailbox])

  // The letter shown is the letter opened (and so marked read).
  const showViewer = isDesktop || viewerOpen
  const latest = useRef(selected)
  latest.current = selected
  useEffect(() => {
    if (showViewer && latest.current) mailbox.send({ type: 'letter.open', document: latest.current })
  }, [showViewer, selected?.id, mailbox])

  // The e-mail's deep link: the letter's order first (unless 'Tous' shows it already), then the letter.
  useEffect(() => {
    if (!linked.documentId) return
    if (linked.orderId && order && order.id !== linked.orderId && orders.some((o) => o.id === linked.orderId)) {
      startup.send({ type: 'order.select', orderId: linked.orderId })
      return
    }
    if (status === 'loading') return
    if (documents.some((d) => d.id === linked.documentId)) {
      startup.send({ type: 'document.select', documentId: linked.documentId })
      setViewerOpen(true)
    } else if (status === 'loaded') {
      notify({ kind: 'error', message: 'Ce courrier est introuvable dans cette domiciliation : il a peut-être été supprimé.' })
    }
    if (status !== 'failed') navigate('/mes-courriers/courriers', { replace: true })
  }, [linked.documentId, linked.orderId, order, orders, status, documents, startup, navigate, notify])

  const unread = unreadCount(documents)
  const folderName = (id: number | null) => folders.find((f) => f.id === id)?.name ?? null
  const select = (document: MailDocument) => startup.send({ type: 'document.select', documentId: document.id })

  return (
    <PageCard aria-labelledby="letters-title">
      <Toolbar>
        <h2 id="letters-title">Mes courriers</h2>
        {status === 'loaded' && <Muted aria-live="polite">{unread === 0 ? 'Tous vos courriers sont lus' : `${unread} non lu${unread > 1 ? 's' : ''}`}</Muted>}
      </Toolbar>
      <ListState status={status} error={error} label="vos courriers" empty="Aucun courrier pour le moment" isEmpty={documents.length === 0}
        onRetry={() => startup.send({ type: 'data.retry', resource: 'documents' })}>
        <Layout>
          {(isDesktop || !viewerOpen) && (
            <div>
              <Filters>
                <input type="search" aria-label="Rechercher un expéditeur ou un type de courrier" placeholder="Rechercher (expéditeur, type)" value={query} onChange={(e) => setQuery(e.target.value)} />
                <select aria-label="Dossier" value={folderFilter} onChange={(e) => setFolderFilter(e.target.value)}>
                  <option value={ALL}>Tous les dossiers</option>
                  <option value={UNFILED}>Sans dossier</option>
                  {folders.map((f) => <option key={f.id} value={f.id}>{f.name}{order ? '' : ` — ${orders.find((o) => o.id === f.domiciliationOrderId)?.raisonSociale ?? ''}`}</option>)}
                </select>
                <label className="check">
                  <input type="checkbox" checked={unreadOnly} onChange={(e) => setUnreadOnly(e.target.checked)} /> Non lus uniquement
                </label>
              </Filters>
              {visible.length === 0 ? (
                <p role="status">Aucun courrier ne correspond à ces filtres.</p>
              ) : (
                <LetterList letters={visible} selectedId={selectedId} showCompany={!order} folderName={folderName}
                  onSelect={select} onOpen={(d) => { select(d); setViewerOpen(true) }} />
              )}
            </div>
          )}
          {showViewer && (selected ? (
            <LetterViewer key={selected.id} letter={selected} mailbox={mailbox} folders={folders.filter((f) => f.domiciliationOrderId === selected.orderId)}
              candidates={visible} onBack={isDesktop ? null : () => setViewerOpen(false)} />
          ) : (
            <p>Choisissez un courrier dans la liste pour l’afficher.</p>
          ))}
        </Layout>
      </ListState>
    </PageCard>
  )
}

function LetterList({ letters, selectedId, showCompany, folderName, onSelect, onOpen }: {
  letters: MailDocument[]
  selectedId: number | null
  showCompany: boolean
  folderName: (id: number | null) => string | null
  onSelect: (d: MailDocument) => void
  onOpen: (d: MailDocument) => void
}) {
  const refs = useRef(new Map<number, HTMLLIElement>())
  const index = Math.max(0, letters.findIndex((d) => d.id === selectedId))

  function onKeyDown(event: KeyboardEvent) {
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: letters.length - 1 }
    if (event.key in moves) {
      event.preventDefault()
      const next = letters[Math.min(letters.length - 1, Math.max(0, moves[event.key]!))]!
      onSelect(next)
      refs.current.get(next.id)?.focus()
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      onOpen(letters[index]!)
    }
  }

  return (
    <List role="listbox" aria-label="Courriers" onKeyDown={onKeyDown}>
      {letters.map((d, i) => {
        const folder = folderName(d.folderId)
        const isSelected = d.id === selectedId
        return (
          <Option key={d.id} ref={(el) => void (el ? refs.current.set(d.id, el) : refs.current.delete(d.id))} role="option" aria-selected={isSelected}
            tabIndex={isSelected || (selectedId === null && i === 0) ? 0 : -1} $selected={isSelected} onClick={() => onOpen(d)} data-unread={!d.read}>
            <span className="line">
              {d.read ? <span className="sender">{d.sender}</span> : <strong className="sender">{d.sender}</strong>}
              {!d.read && <span className="dot" aria-hidden="true" />}
            </span>
            <Muted>
              {documentKind[d.kind]} · reçu le <time dateTime={d.receivedAt}>{formatDate(d.receivedAt)}</time>
              {folder ? ` · ${folder}` : ''}{showCompany ? ` · ${d.raisonSociale}` : ''}
            </Muted>
            {!d.read && <VisuallyHidden>(non lu)</VisuallyHidden>}
          </Option>
        )
      })}
    </List>
  )
}

function LetterViewer({ letter, mailbox, folders, candidates, onBack }: {
  letter: MailDocument
  mailbox: MailboxRef
  folders: Folder[]
  candidates: MailDocument[]
  onBack: (() => void) | null
}) {
  const file = useSelector(mailbox, (s) => (s.context.opened?.id === letter.id ? s.context.file : null))
  const loading = useSelector(mailbox, (s) => s.hasTag('loadingFile'))
  const fileError = useSelector(mailbox, (s) => s.context.fileError)
  const moving = useSelector(mailbox, (s) => s.hasTag('moving'))
  const sendOpen = useSelector(mailbox, (s) => s.hasTag('sendForm'))
  const url = useObjectUrl(file)
  const fileName = `courrier-${letter.id}-${letter.sender.replace(/[^\p{L}\p{N}]+/gu, '-')}.pdf`

  return (
    <Viewer aria-label="Aperçu du courrier">
      {onBack && <Button type="button" $variant="ghost" onClick={onBack}>← Retour à la liste</Button>}
      <div>
        <h3>{letter.sender}</h3>
        <Muted>
          {documentKind[letter.kind]} · reçu le <time dateTime={letter.receivedAt}>{formatDate(letter.receivedAt)}</time> · {letter.pages} page{letter.pages > 1 ? 's' : ''} · {letter.raisonSociale}
        </Muted>
      </div>
      <div className="actions">
        {url ? <LinkButton href={url} download={fileName}>Télécharger</LinkButton> : <Button type="button" $variant="secondary" disabled>Télécharger</Button>}
        {url && <LinkButton href={url} target="_blank" rel="noopener">Ouvrir en plein écran</LinkButton>}
        <Button type="button" $variant="secondary" onClick={() => mailbox.send({ type: 'send.open', documentIds: [letter.id] })}>Envoyer par e-mail</Button>
        <select aria-label="Classer dans un dossier" value={letter.folderId ?? ''} disabled={moving}
          onChange={(e) => mailbox.send({ type: 'letter.move', document: letter, folderId: e.target.value === '' ? null : Number(e.target.value) })}>
          <option value="">Aucun dossier</option>
          {folders.map((f) => <option key={f.id} value={f.id}>{f.name}</option>)}
        </select>
      </div>
      {fileError ? (
        <ErrorState message={fileError} onRetry={() => mailbox.send({ type: 'viewer.retry' })} />
      ) : url ? (
        <iframe src={url} title={`Courrier de ${letter.sender}`} />
      ) : (
        loading && <Spinner label="Chargement du courrier numérisé…" />
      )}
      {sendOpen && <SendDialog mailbox={mailbox} candidates={candidates.some((d) => d.id === letter.id) ? candidates : [letter, ...candidates]} />}
    </Viewer>
  )
}

function SendDialog({ mailbox, candidates }: { mailbox: MailboxRef; candidates: MailDocument[] }) {
  const form = useSelector(mailbox, (s) => s.context.form)
  const ids = useSelector(mailbox, (s) => s.context.sendIds)
  const busy = useSelector(mailbox, (s) => s.hasTag('busy'))
  const error = useSelector(mailbox, (s) => s.context.sendError)
  const toggle = (id: number) => mailbox.send({ type: 'send.pick', documentIds: ids.includes(id) ? ids.filter((i) => i !== id) : [...ids, id] })
  return (
    <Modal title="Envoyer par e-mail" onClose={() => mailbox.send({ type: 'send.close' })} locked={busy}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={() => mailbox.send({ type: 'send.close' })} disabled={busy}>Annuler</Button>
          <Button type="submit" form="send-letters" disabled={busy}>{busy ? 'Envoi…' : `Envoyer ${ids.length > 1 ? `les ${ids.length} courriers` : 'le courrier'}`}</Button>
        </>
      }>
      <form id="send-letters" noValidate onSubmit={(e) => { e.preventDefault(); mailbox.send({ type: 'send.submit' }) }}>
        {error && <Alert $kind="error" role="alert">{error}</Alert>}
        <Field id="send-email" label="Destinataire (adresse e-mail)">
          <input id="send-email" type="email" autoComplete="email" value={form.email} data-autofocus onChange={(e) => mailbox.send({ type: 'send.change', form: { email: e.target.value } })} />
        </Field>
        <Field id="send-message" label="Message (facultatif)">
          <textarea id="send-message" rows={3} maxLength={2000} value={form.message} onChange={(e) => mailbox.send({ type: 'send.change', form: { message: e.target.value } })} />
        </Field>
        <Checks>
          <legend>Courriers joints</legend>
          {candidates.slice(0, 50).map((d) => (
            <label key={d.id}>
              <input type="checkbox" checked={ids.includes(d.id)} onChange={() => toggle(d.id)} />
              {d.sender} — {formatDate(d.receivedAt)}
            </label>
          ))}
        </Checks>
      </form>
    </Modal>
  )
}
