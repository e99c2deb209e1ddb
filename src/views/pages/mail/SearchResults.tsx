// The answers of the letters' search (three characters or more, see letterSearch.machine.ts), best
// first, each with the words that matched highlighted. The excerpt arrives as plain text parts and is
// rendered as text nodes inside <mark>, never as HTML. Each result shows its letter as the portal has it now
// (read since, filed since), not as it was when the search answered.
import { useSelector } from '@xstate/react'
import { styled } from 'goober'
import { Fragment, useRef } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { DocumentSearchResult, MailDocument } from '../../../../server/contract/mail.ts'
import type { letterSearchMachine } from '../../../machines/mail/letterSearch.machine.ts'
import { documentKind } from '../../components/labels.ts'
import { LetterDeadlineNote } from '../../components/letterDeadline.tsx'
import { Muted } from '../../components/page.tsx'
import { ErrorState, formatDate, Spinner } from '../../components/ui.tsx'
import { useFocusAfter } from '../../components/useFocusWhenShown.ts'
import { color } from '../../theme.ts'
import { letterListFrame } from './LetterList.tsx'

type SearchRef = ActorRefFrom<typeof letterSearchMachine>

/* The query is echoed as typed: a long word (up to 200 characters) wraps instead of widening the page. */
const Outcome = styled('p')`
  overflow-wrap: anywhere;
`

const List = styled('ol')`
  ${letterListFrame}
  li { border-bottom: 1px solid ${color.border}; }
  li:last-child { border-bottom: none; }
  button {
    display: flex; flex-direction: column; gap: 0.2rem; width: 100%; min-height: 44px; padding: 0.7rem 0.9rem;
    border: none;
    border-left: 4px solid transparent;
    background: ${color.surface};
    color: inherit;
    font: inherit;
    text-align: left;
    cursor: pointer;
  }
  button[aria-current='true'] { background: ${color.primarySoft}; border-left-color: ${color.primary}; }
  button:focus-visible { outline: 3px solid ${color.focus}; outline-offset: -3px; }
  .sender { overflow-wrap: anywhere; }
  .excerpt { overflow-wrap: anywhere; color: ${color.text}; }
  mark { background: #fde68a; color: inherit; font-weight: 700; padding: 0 0.1em; border-radius: 3px; }
`

export function Excerpt({ parts }: { parts: DocumentSearchResult['excerpt'] }) {
  return (
    <span className="excerpt">
      {/* biome-ignore lint/suspicious/noArrayIndexKey: an excerpt's parts are its pieces in order, and carry no state */}
      {parts.map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <Fragment key={i}>{part.text}</Fragment>))}
    </span>
  )
}

export function SearchResults({
  search,
  documents,
  shown,
  selectedId,
  showCompany,
  onOpen,
}: {
  search: SearchRef
  /** The letters as the portal has them now. */
  documents: MailDocument[]
  /** The results the page's other filters (unread, folder) keep. */
  shown: (result: DocumentSearchResult) => boolean
  selectedId: number | null
  showCompany: boolean
  onOpen: (document: MailDocument) => void
}) {
  const busy = useSelector(search, (s) => s.hasTag('busy'))
  const error = useSelector(search, (s) => s.context.error)
  const results = useSelector(search, (s) => s.context.results)
  const answered = useSelector(search, (s) => s.context.answered)
  const query = useSelector(search, (s) => s.context.query)
  // 'Réessayer' gives way to a spinner, then to the results (the focus to the line that counts them) or to the error
  // again (its button).
  const retryButton = useRef<HTMLButtonElement>(null)
  const outcome = useRef<HTMLParagraphElement>(null)
  const afterRetry = useFocusAfter(!busy, () => (error ? retryButton.current : outcome.current))
  if (error)
    return (
      <ErrorState
        message={error}
        retryRef={retryButton}
        onRetry={() => {
          afterRetry()
          search.send({ type: 'search.retry' })
        }}
      />
    )
  if (busy && answered === null) return <Spinner label="Recherche dans vos courriers…" />
  const visible = results.map((r) => ({ ...r, document: documents.find((d) => d.id === r.document.id) ?? r.document })).filter(shown)
  return (
    <div aria-busy={busy}>
      <Outcome role="status" ref={outcome} tabIndex={-1}>
        {busy
          ? 'Recherche dans vos courriers…'
          : visible.length === 0
            ? `Aucun courrier ne contient « ${query} »`
            : `${visible.length} courrier${visible.length > 1 ? 's' : ''} trouvé${visible.length > 1 ? 's' : ''}`}
      </Outcome>
      {visible.length > 0 && (
        <List aria-label={`Courriers contenant « ${answered} »`}>
          {visible.map(({ document: d, excerpt }) => (
            <li key={d.id}>
              <button type="button" aria-current={d.id === selectedId} onClick={() => onOpen(d)}>
                {d.read ? <span className="sender">{d.sender}</span> : <strong className="sender">{d.sender}</strong>}
                <Muted>
                  {documentKind[d.kind]} · reçu le <time dateTime={d.receivedAt}>{formatDate(d.receivedAt)}</time>
                  {showCompany ? ` · ${d.raisonSociale}` : ''}
                  {d.read ? '' : ' · non lu'}
                </Muted>
                {d.deadline && (
                  <span>
                    <LetterDeadlineNote deadline={d.deadline} />
                  </span>
                )}
                <Excerpt parts={excerpt} />
              </button>
            </li>
          ))}
        </List>
      )}
    </div>
  )
}
