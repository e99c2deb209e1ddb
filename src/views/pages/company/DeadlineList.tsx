// A company's dated duties, year by year: the date in French, what to do, why (the detail line and
// the official source, or the letter that set it); past ones greyed, the next one highlighted.
// The past ones are folded behind « Afficher les N échéances passées »: in late November the fiscal
// calendar's year was eleven months of them before the next one (on a phone, 7,275 px tall with them,
// 5,201 px folded).
import { styled } from 'goober'
import { useState } from 'react'
import { Link } from 'wouter'
import { longDateFr } from '../../../domain/dates.ts'
import { type Deadline, isPast, nextDeadline } from '../../../domain/deadline.ts'
import { Badge, Muted } from '../../components/page.tsx'
import { Button, VisuallyHidden } from '../../components/ui.tsx'
import { color, radius } from '../../theme.ts'
import { frenchDateFormat } from '../../../../server/contract/rules/french-date.ts'

const dayFormat = frenchDateFormat({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
/** "mardi 15 décembre 2026" */
export const deadlineDate = (iso: string) => dayFormat.format(new Date(`${iso}T00:00:00Z`))

const Year = styled('section')`
  h3 { margin: 1rem 0 0.5rem; font-size: 1.1rem; }
  ol { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 0.5rem; }
`

const Item = styled('li')`
  padding: 0.75rem 1rem;
  border: 1px solid ${color.border};
  border-radius: ${radius};
  background: ${color.surface};
  p { margin: 0.25rem 0 0; }
  &[data-past='true'] { background: ${color.background}; color: ${color.muted}; }
  &[data-past='true'] strong { font-weight: 600; }
  &[data-next='true'] { border: 2px solid ${color.accent}; background: ${color.accentSoft}; }
  .when { font-weight: 700; }
  a { overflow-wrap: anywhere; }
`

/** The official page a rule comes from, in a new tab. */
export function SourceLink({ href }: { href: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      Source : {new URL(href).hostname.replace(/^www\./, '')}
      <VisuallyHidden> (nouvel onglet)</VisuallyHidden>
    </a>
  )
}

/** A dated duty: a rule's (with its source) or a letter's (with the link to the letter). */
export type DatedEntry = Pick<Deadline, 'id' | 'date' | 'title' | 'detail' | 'movedFrom'> & {
  source?: string
  letter?: { href: string; label: string }
}

function DeadlineItem({ deadline, past, next }: { deadline: DatedEntry; past: boolean; next: boolean }) {
  return (
    <Item data-past={past} data-next={next} aria-current={next ? 'date' : undefined}>
      <div>
        <time className="when" dateTime={deadline.date}>
          {deadlineDate(deadline.date)}
        </time>{' '}
        {next && <Badge $tone="warning">Prochaine échéance</Badge>}
        {past && <Muted> · passée</Muted>}
      </div>
      <strong>{deadline.title}</strong>
      {deadline.detail && (
        <p>
          <Muted>{deadline.detail}</Muted>
        </p>
      )}
      {deadline.movedFrom && (
        <p>
          <Muted>Reportée du {longDateFr(deadline.movedFrom)} (week-end ou jour férié).</Muted>
        </p>
      )}
      {deadline.source && (
        <p>
          <SourceLink href={deadline.source} />
        </p>
      )}
      {deadline.letter && (
        <p>
          <Link href={deadline.letter.href}>{deadline.letter.label}</Link>
        </p>
      )}
    </Item>
  )
}

/** The toggle's words: what a press does, with how many past ones it shows. */
export const pastToggleLabel = (count: number, shown: boolean) =>
  shown
    ? count === 1
      ? 'Masquer l’échéance passée'
      : 'Masquer les échéances passées'
    : count === 1
      ? 'Afficher l’échéance passée'
      : `Afficher les ${count} échéances passées`

export function DeadlineList({ deadlines, today, label }: { deadlines: DatedEntry[]; today: string; label: string }) {
  const [pastShown, setPastShown] = useState(false)
  const next = nextDeadline(deadlines, today)
  const upcoming = deadlines.filter((d) => !isPast(d, today))
  const pastCount = deadlines.length - upcoming.length
  const shown = pastShown ? deadlines : upcoming
  const years = [...new Set(shown.map((d) => d.date.slice(0, 4)))]
  return (
    <>
      {pastCount > 0 && (
        <p>
          <Button type="button" $variant="secondary" aria-expanded={pastShown} onClick={() => setPastShown(!pastShown)}>
            {pastToggleLabel(pastCount, pastShown)}
          </Button>
        </p>
      )}
      {shown.length === 0 && (
        <p>
          <Muted>Aucune échéance à venir.</Muted>
        </p>
      )}
      {years.map((year) => (
        <Year key={year} aria-labelledby={`echeances-${year}`}>
          <h3 id={`echeances-${year}`}>{year}</h3>
          <ol aria-label={`${label} ${year}`}>
            {shown
              .filter((d) => d.date.startsWith(year))
              .map((d) => (
                <DeadlineItem key={d.id} deadline={d} past={isPast(d, today)} next={d === next} />
              ))}
          </ol>
        </Year>
      ))}
    </>
  )
}
