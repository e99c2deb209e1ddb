// The deadline found in a letter, as the letter list, the viewer, the fiscal calendar and
// the dashboard say it: "À traiter avant le 15 janvier 2027 · 320,00 €".
import { Badge } from './page.tsx'
import { formatEuros } from './ui.tsx'
import { frenchDateFormat } from '../../../server/contract/rules/french-date.ts'

const dayFormat = frenchDateFormat({ day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
/** "15 janvier 2027" from "2027-01-15", the same day wherever the browser is. */
export const formatDay = (isoDate: string) => dayFormat.format(new Date(`${isoDate}T00:00:00Z`))

export interface LetterDeadlineValue {
  date: string
  amountCents: number | null
}

/** "À traiter avant le 15 janvier 2027", and the amount due when the letter names one. */
export function deadlineText({ date, amountCents }: LetterDeadlineValue): string {
  return `À traiter avant le ${formatDay(date)}${amountCents !== null ? ` · ${formatEuros(amountCents)}` : ''}`
}

export function LetterDeadlineNote({ deadline }: { deadline: LetterDeadlineValue }) {
  return (
    <Badge $tone="warning" data-deadline={deadline.date}>
      {deadlineText(deadline)}
    </Badge>
  )
}
