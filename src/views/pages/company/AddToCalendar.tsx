// "Ajouter à mon agenda": the deadlines still to come as an iCalendar file (RFC 5545) that Google
// Agenda, Apple Calendrier and Outlook import; the UIDs name the company, so a second import updates.
import type { Order } from '../../../../server/contract/session.ts'
import type { Deadline } from '../../../domain/deadline.ts'
import { buildIcs } from '../../../domain/ics.ts'
import { BRAND_NAME } from '../../../wiring/config.ts'
import { Button } from '../../components/ui.tsx'

const slug = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

export function icsFile(
  order: Pick<Order, 'id' | 'raisonSociale'>,
  deadlines: Deadline[],
  what: string,
  now: Date,
): { name: string; text: string } {
  const text = buildIcs(deadlines, {
    dtstamp: now,
    calendarName: `${what} · ${order.raisonSociale}`,
    productName: BRAND_NAME,
    uidDomain: `domiciliation-${order.id}.${slug(BRAND_NAME) || 'portail'}`,
  })
  return { name: `${slug(what)}-${slug(order.raisonSociale)}.ics`, text }
}

export function AddToCalendar({
  order,
  deadlines,
  what,
  today,
}: {
  order: Pick<Order, 'id' | 'raisonSociale'>
  deadlines: Deadline[]
  what: string
  today: string
}) {
  const upcoming = deadlines.filter((d) => d.date >= today)
  const download = () => {
    const { name, text } = icsFile(order, upcoming, what, new Date())
    const url = URL.createObjectURL(new Blob([text], { type: 'text/calendar;charset=utf-8' }))
    Object.assign(document.createElement('a'), { href: url, download: name }).click()
    setTimeout(() => URL.revokeObjectURL(url), 60_000)
  }
  return (
    <Button
      type="button"
      $variant="secondary"
      onClick={download}
      disabled={upcoming.length === 0}
      aria-label={`Ajouter à mon agenda : ${upcoming.length} échéance${upcoming.length > 1 ? 's' : ''} à venir`}
    >
      Ajouter à mon agenda
    </Button>
  )
}
