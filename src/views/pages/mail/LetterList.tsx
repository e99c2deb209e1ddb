// The letter list of /mes-courriers/courriers: unread ones in bold, arrow keys, Home, End, Enter.
import { styled } from 'goober'
import { type KeyboardEvent, useRef } from 'react'
import type { MailDocument } from '../../../../server/contract/mail.ts'
import { documentKind } from '../../components/labels.ts'
import { LetterDeadlineNote } from '../../components/letterDeadline.tsx'
import { Muted } from '../../components/page.tsx'
import { formatDate, VisuallyHidden } from '../../components/ui.tsx'
import { color, radius } from '../../theme.ts'

/** The framed, scrolling list: the letters here, the search's results in SearchResults.tsx. */
export const letterListFrame = `
  list-style: none;
  margin: 0;
  padding: 0;
  border: 1px solid ${color.border};
  border-radius: ${radius};
  max-height: 70vh;
  overflow: auto;
`

const List = styled('ul')`
  ${letterListFrame}
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
  overflow-wrap: anywhere;
  .line { display: flex; justify-content: space-between; gap: 0.5rem; }
  .sender { overflow-wrap: anywhere; }
  .dot { width: 0.6rem; height: 0.6rem; border-radius: 50%; background: ${color.primary}; flex-shrink: 0; margin-top: 0.45rem; }
`

export function LetterList({
  letters,
  selectedId,
  showCompany,
  folderName,
  onSelect,
  onOpen,
}: {
  letters: MailDocument[]
  selectedId: number | null
  showCompany: boolean
  folderName: (id: number | null) => string | null
  onSelect: (d: MailDocument) => void
  onOpen: (d: MailDocument) => void
}) {
  const refs = useRef(new Map<number, HTMLLIElement>())
  // The option in the Tab order, where the arrows start: the selected letter, or the first one shown when it is not
  // among them (filtered out, e.g. read under 'Non lus uniquement'), so that the list can always be reached.
  const index = Math.max(
    0,
    letters.findIndex((d) => d.id === selectedId),
  )

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
          <Option
            key={d.id}
            ref={(el) => void (el ? refs.current.set(d.id, el) : refs.current.delete(d.id))}
            role="option"
            aria-selected={isSelected}
            tabIndex={i === index ? 0 : -1}
            $selected={isSelected}
            onClick={() => onOpen(d)}
            data-unread={!d.read}
          >
            <span className="line">
              {d.read ? <span className="sender">{d.sender}</span> : <strong className="sender">{d.sender}</strong>}
              {!d.read && <span className="dot" aria-hidden="true" />}
            </span>
            <Muted>
              {documentKind[d.kind]} · reçu le <time dateTime={d.receivedAt}>{formatDate(d.receivedAt)}</time>
              {folder ? ` · ${folder}` : ''}
              {showCompany ? ` · ${d.raisonSociale}` : ''}
            </Muted>
            {d.deadline && (
              <span>
                <LetterDeadlineNote deadline={d.deadline} />
              </span>
            )}
            {!d.read && <VisuallyHidden>(non lu)</VisuallyHidden>}
          </Option>
        )
      })}
    </List>
  )
}
